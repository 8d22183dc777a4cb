import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Sandbox, useSandboxClassifier } from './helpers.js';

/** A git repository whose .gitignore leaves out node_modules, with a denied file inside node_modules. */
async function plant(box: Sandbox, extra: Record<string, string> = {}): Promise<void> {
  const files: Record<string, string> = {
    '.gitignore': 'node_modules\n',
    'node_modules/pkg/secret.txt': 'token\n',
    'src/a.ts': '',
    ...extra,
  };
  await mkdir(path.join(box.project, '.git'), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(box.project, name)), { recursive: true });
    await writeFile(path.join(box.project, name), text);
  }
}

const settings = { permissions: { deny: ['Read(./node_modules/pkg/secret.txt)'] } };

describe('whole-folder reads and .gitignore', () => {
  const sandbox = useSandboxClassifier((box) => plant(box), settings);
  const grepTool = (input: Record<string, unknown>) =>
    sandbox.classifier.classify({ tool: 'Grep', input, cwd: sandbox.box.project });

  it('grep -r reads the ignored folder; rg and the Grep tool do not', async () => {
    expect((await sandbox.bash('grep -rn token .')).decision).toBe('deny');
    expect((await sandbox.bash('rg token')).decision).toBe('allow');
    expect((await sandbox.bash('rg -n -t ts token src .')).decision).toBe('allow');
    expect((await grepTool({ pattern: 'token' })).decision).toBe('allow');
    expect(
      (await grepTool({ pattern: 'token', path: sandbox.box.project, output_mode: 'content' })).decision,
    ).toBe('allow');
  });

  it('rg and the Grep tool read it when told to, or when a path or glob names it', async () => {
    for (const command of [
      'rg --no-ignore token',
      'rg -u token',
      'rg -uu token',
      'rg --no-ignore-vcs token',
      'rg --no-ignore-parent token',
      'rg --no-require-git token',
      'rg --ignore-file other token',
      'rg -g "*.txt" token',
      'rg --some-future-option token',
      'rg token node_modules',
    ]) {
      const verdict = await sandbox.bash(command);
      expect(verdict.reason, command).toContain('secret.txt');
    }
    expect((await grepTool({ pattern: 'token', glob: '*.txt' })).reason).toContain('secret.txt');
    expect((await grepTool({ pattern: 'token', path: 'node_modules' })).reason).toContain('secret.txt');
  });

  it('asks when RIPGREP_CONFIG_PATH names a configuration rg would read', async () => {
    expect((await sandbox.bash('RIPGREP_CONFIG_PATH=/tmp/rgrc rg token')).decision).not.toBe('allow');
  });
});

describe('whole-folder reads and ignore files automode does not model', () => {
  for (const name of ['.ignore', '.rgignore', '../.ignore']) {
    describe(name, () => {
      const sandbox = useSandboxClassifier((box) => plant(box, { [name]: '!node_modules\n' }), settings);
      it('walks everything', async () => {
        expect((await sandbox.bash('rg token')).reason).toContain('secret.txt');
        const grep = await sandbox.classifier.classify({
          tool: 'Grep',
          input: { pattern: 'token' },
          cwd: sandbox.box.project,
        });
        expect(grep.reason).toContain('secret.txt');
      });
    });
  }

  describe('no git repository', () => {
    const sandbox = useSandboxClassifier(async (box) => {
      await mkdir(path.join(box.project, 'node_modules', 'pkg'), { recursive: true });
      await writeFile(path.join(box.project, '.gitignore'), 'node_modules\n');
      await writeFile(path.join(box.project, 'node_modules', 'pkg', 'secret.txt'), 'token\n');
    }, settings);
    it('walks everything', async () => {
      expect((await sandbox.bash('rg token')).reason).toContain('secret.txt');
    });
  });
});
