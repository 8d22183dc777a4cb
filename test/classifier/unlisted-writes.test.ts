import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSoftAsk } from '../../src/pipeline/permission/decide.js';
import { type Sandbox, useSandboxClassifier } from './helpers.js';

async function plant(box: Sandbox): Promise<void> {
  await mkdir(path.join(box.project, 'staged', '.claude'), { recursive: true });
  await mkdir(path.join(box.project, '.git'), { recursive: true });
  await writeFile(path.join(box.project, 'README.md'), 'readme\n');
  await writeFile(path.join(box.project, 'evil.json'), '{}\n');
}

/** Writes whose names come from an archive, a copied folder, a commit or a patch. */
const UNLISTED = [
  'tar -xf evil.tar',
  'tar -xzf evil.tgz -C staged',
  'gunzip -c evil.tgz | tar -x',
  'unzip -o evil.zip',
  'unzip evil.zip -d fresh',
  '7z x evil.7z',
  'cpio -idum < evil.cpio',
  'patch -p1 < evil.patch',
  'cp -r staged/. .',
  'cp -a staged fresh',
  'cp "$SRC" .',
  'rsync -a staged/ .',
  'git checkout evil',
  'git checkout evil -- .',
  'git restore --source=evil .',
  'git apply evil.patch',
  'git pull origin main',
  'git stash pop',
  'git reset --hard evil',
];

describe('writes into a folder of entries the command line does not name', () => {
  const box = useSandboxClassifier(plant);
  const verdict = (command: string, mode?: 'default' | 'auto' | 'bypassPermissions') =>
    box.classifier.classify({
      tool: 'Bash',
      input: { command },
      cwd: box.box.project,
      ...(mode ? { mode } : {}),
    });

  it('ask for that reason, which neither a hook, the sandbox nor the model settles', async () => {
    for (const command of UNLISTED) {
      const v = await verdict(command);
      expect(v.decision, command).toBe('ask');
      expect(
        v.parts.some((p) => p.by === 'unlisted-writes'),
        command,
      ).toBe(true);
      expect(isSoftAsk(v), command).toBe(false);
      expect((await verdict(command, 'auto')).ask, command).toBe('hard');
    }
  });

  it('bypassPermissions accepts them; a protected path it still asks about', async () => {
    expect((await verdict('tar -xf evil.tar', 'bypassPermissions')).decision).toBe('allow');
    expect((await verdict('cp evil.json .claude/settings.local.json', 'bypassPermissions')).decision).toBe(
      'ask',
    );
  });

  it('a named file, a named copy into a folder, a move of a named entry: decided by their names', async () => {
    const soft = ['git checkout -- README.md', 'cp evil.json staged/', 'mv evil.json staged/x.json'];
    for (const command of soft) {
      const v = await verdict(command);
      expect(
        v.parts.some((p) => p.by === 'unlisted-writes'),
        command,
      ).toBe(false);
      // git checkout -- is asked about by a shipped rule (it discards changes): not a soft ask either.
      expect(isSoftAsk(v), command).toBe(!command.startsWith('git'));
    }
    for (const command of [
      'mv staged/.claude .',
      'cp -t . staged/.claude',
      'install -m644 evil.json .claude/',
    ]) {
      const v = await verdict(command);
      expect(v.by, command).toBe('protected-path');
    }
  });
});

describe('under a Bash rule that names the command', () => {
  const box = useSandboxClassifier(plant, {
    permissions: { allow: ['Bash(tar -xf *)', 'Bash(git checkout *)', 'Bash(git pull *)'] },
  });
  it('the rule vouches for what the command writes inside the working folder', async () => {
    for (const command of ['tar -xf evil.tar', 'git checkout main', 'git pull origin main']) {
      const v = await box.classifier.classify({ tool: 'Bash', input: { command }, cwd: box.box.project });
      expect(v.decision, command).toBe('allow');
    }
  });
});
