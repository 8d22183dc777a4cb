import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { trackedPaths } from '../../src/policy/git-index.js';
import { builtinOptions, loadSettings } from '../../src/rules/index.js';

const root = mkdtempSync(join(tmpdir(), 'automode-git-index-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });

/** A repository whose paths share long prefixes (what version 4 compresses) and have names of every length. */
function repository(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src/deep/er'), { recursive: true });
  git(dir, 'init', '-q', '.');
  const files = [
    '.env',
    'a',
    'ab',
    'abcdefg',
    'abcdefgh',
    'src/x.ts',
    'src/deep/er/y.ts',
    'src/deep/z',
    'é ü.txt',
  ];
  for (const f of files) writeFileSync(join(dir, f), f);
  writeFileSync(join(dir, 'untracked'), 'u');
  git(dir, 'add', ...files);
  git(dir, 'commit', '-qm', 'init');
  return dir;
}

describe('trackedPaths reads the index as git does', () => {
  for (const version of ['2', '3', '4']) {
    it(`version ${version}: the same paths as git ls-files`, () => {
      const dir = repository(`v${version}`);
      git(dir, 'update-index', '--index-version', version);
      // Version 3 writes extended flags only for entries that need them.
      if (version === '3') git(dir, 'update-index', '--skip-worktree', 'src/x.ts');
      const listed = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8' }).split('\0');
      expect(trackedPaths(join(dir, '.git'))).toEqual(listed.filter(Boolean));
    });
  }

  it('answers undefined for what it cannot read: no index, a foreign file', () => {
    const dir = join(root, 'empty');
    mkdirSync(join(dir, '.git'), { recursive: true });
    expect(trackedPaths(join(dir, '.git'))).toBeUndefined();
    writeFileSync(join(dir, '.git', 'index'), 'not an index');
    expect(trackedPaths(join(dir, '.git'))).toBeUndefined();
  });

  it('follows a change to the index', () => {
    const dir = repository('change');
    expect(trackedPaths(join(dir, '.git'))).not.toContain('untracked');
    git(dir, 'add', 'untracked');
    expect(trackedPaths(join(dir, '.git'))).toContain('untracked');
  });
});

describe('git commands read the files git tracks, not every file of the folder', () => {
  it('a git-ignored .env does not stop git diff or git grep; once tracked it does', async () => {
    await loadBash();
    const dir = join(root, 'ignored');
    const home = join(root, 'ignored-home');
    mkdirSync(join(dir, 'src'), { recursive: true });
    mkdirSync(home, { recursive: true });
    git(dir, 'init', '-q', '.');
    writeFileSync(join(dir, '.gitignore'), '.env\n');
    writeFileSync(join(dir, 'src/a.ts'), 'a');
    writeFileSync(join(dir, '.env'), 'SECRET');
    git(dir, 'add', '.gitignore', 'src/a.ts');
    git(dir, 'commit', '-qm', 'init');
    const classifier = createClassifier(
      await loadSettings({
        cwd: dir,
        home,
        managedPath: join(root, 'none.json'),
        env: {},
        cli: {},
        ...builtinOptions(),
      }),
    );
    const decide = async (command: string) =>
      (await classifier.classify({ tool: 'Bash', input: { command }, mode: 'default', cwd: dir })).decision;
    for (const command of ['git diff', 'git grep foo', 'git show HEAD', 'git log -p']) {
      expect(await decide(command), command).toBe('allow');
    }
    expect(await decide('git grep --untracked foo')).not.toBe('allow');
    git(dir, 'add', '-f', '.env');
    for (const command of ['git diff', 'git grep foo', 'git diff --cached']) {
      expect(await decide(command), command).not.toBe('allow');
    }
  });
});
