import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSoftAsk } from '../../src/pipeline/permission/decide.js';
import { alwaysAsks } from '../../src/policy/index.js';
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

  it('ask for that reason, which neither a hook nor the sandbox settles; the model weighs it unless a protected path is among them', async () => {
    for (const command of UNLISTED) {
      const v = await verdict(command);
      expect(v.decision, command).toBe('ask');
      const protectedPath = v.parts.some((p) => p.by === 'protected-path');
      expect(protectedPath || v.parts.some((p) => p.by === 'unlisted-writes'), command).toBe(true);
      expect(isSoftAsk(v), command).toBe(false);
      // A protected path, or a path only known at run time (`cp "$SRC" .`), keeps it from the model.
      const hard = v.parts.some((p) => p.decision === 'ask' && alwaysAsks(p.by));
      expect((await verdict(command, 'auto')).ask, command).toBe(hard ? 'hard' : 'soft');
    }
    // The copied folder holds .claude: the copy is decided by the names it writes.
    expect((await verdict('cp -r staged/. .')).by).toBe('protected-path');
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
  const box = useSandboxClassifier(
    async (b) => {
      await plant(b);
      await mkdir(path.join(b.project, 'docs'), { recursive: true });
      await writeFile(path.join(b.project, 'docs', 'guide.md'), 'guide\n');
      execFileSync('tar', ['-cf', 'good.tar', 'docs'], { cwd: b.project });
    },
    { permissions: { allow: ['Bash(tar -xf *)', 'Bash(git checkout *)', 'Bash(git pull *)'] } },
  );
  const classify = (command: string) =>
    box.classifier.classify({ tool: 'Bash', input: { command }, cwd: box.box.project });
  it('the rule vouches for the files the archive names and for what a remote holds, inside the working folder', async () => {
    for (const command of ['tar -xf good.tar', 'git pull origin main']) {
      expect((await classify(command)).decision, command).toBe('allow');
    }
  });
  it('names that cannot be read from a local file are asked, even under the rule', async () => {
    const v = await classify('tar -xf evil.tar');
    expect(v.decision).toBe('ask');
    expect(v.parts.some((p) => p.by === 'unlisted-writes')).toBe(true);
  });
});
