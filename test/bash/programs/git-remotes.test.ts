import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { remoteRead } from '../../../src/bash/programs/git/remotes.js';
import { shown } from './support.js';

beforeAll(loadBash);

function read(line: string) {
  const found = remoteRead(analyze(line).commands[0]!.argv);
  return found && { ...found, remotes: found.remotes.map((w) => w.value) };
}

describe('git: which remotes a line reads', () => {
  test.each([
    ['git fetch', { command: 'fetch', remotes: [], all: false, runsHooks: true, submodules: true }],
    [
      'git fetch origin main',
      { command: 'fetch', remotes: ['origin'], all: false, runsHooks: true, submodules: true },
    ],
    ['git fetch --all -p', { command: 'fetch', remotes: [], all: true, runsHooks: true, submodules: true }],
    [
      'git fetch --multiple origin mirror',
      { command: 'fetch', remotes: ['origin', 'mirror'], all: false, runsHooks: true, submodules: true },
    ],
    [
      'git fetch --no-recurse-submodules origin',
      { command: 'fetch', remotes: ['origin'], all: false, runsHooks: true, submodules: false },
    ],
    [
      'git -C sub fetch https://example.com/x.git',
      {
        command: 'fetch',
        remotes: ['https://example.com/x.git'],
        all: false,
        runsHooks: true,
        submodules: true,
      },
    ],
    [
      'git ls-remote --tags origin "v*"',
      { command: 'ls-remote', remotes: ['origin'], all: false, runsHooks: false, submodules: false },
    ],
    [
      'git remote show origin mirror',
      {
        command: 'remote show',
        remotes: ['origin', 'mirror'],
        all: false,
        runsHooks: false,
        submodules: false,
      },
    ],
    [
      'git remote update',
      { command: 'remote update', remotes: [], all: true, runsHooks: true, submodules: true },
    ],
    [
      'git remote update -p origin',
      { command: 'remote update', remotes: ['origin'], all: false, runsHooks: true, submodules: true },
    ],
    [
      'git remote prune origin',
      { command: 'remote prune', remotes: ['origin'], all: false, runsHooks: true, submodules: false },
    ],
    [
      'git remote prune -n origin',
      { command: 'remote prune', remotes: ['origin'], all: false, runsHooks: false, submodules: false },
    ],
  ])('%s', (line, expected) => {
    expect(read(line)).toEqual(expected);
  });

  test.each(['git remote show -n origin', 'git remote show', 'git status', 'git remote -v', 'git pull'])(
    '%s reads no remote here',
    (line) => {
      expect(read(line)).toBeUndefined();
    },
  );
});

describe("git: commands that write the repository's configuration", () => {
  test.each([
    'git remote add evil https://example.com/x.git',
    'git remote set-url origin https://example.com/x.git',
    'git remote rename origin old',
    'git remote rm origin',
    'git remote set-branches origin main',
    'git branch --edit-description',
  ])('%s writes .git/config', (line) => {
    expect(shown(line).effects).toContain('write .git/config');
  });

  // The upstream a branch tracks is no write that counts: a fetch checks every tracked remote when decided.
  test.each([
    'git branch -u origin/main',
    'git branch --set-upstream-to=origin/main feature',
    'git branch --unset-upstream',
    'git push -u origin main',
    'git push --set-upstream origin main',
    'git fetch --set-upstream origin main',
  ])('%s does not count its upstream as a write of .git/config', (line) => {
    expect(shown(line).effects).not.toContain('write .git/config');
  });

  test.each([
    'git fetch',
    'git ls-remote origin',
    'git remote show origin',
    'git verify-commit HEAD',
    'git branch -vv',
  ])('%s touches no file', (line) => {
    expect(shown(line)).toEqual({ known: true, effects: [], code: [] });
  });
});
