import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxClassifier } from './helpers.js';

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

const commit = (cwd: string, message: string) =>
  git(cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', message);

/**
 * A repository with a branch `feature`, a branch of the remote `origin` only (`topic`), a tracked file named
 * like no branch (`README.md`) and one named like a branch (`feature`), each edited and not committed.
 */
describe('an operand that may name a revision or a path is read as git reads it', () => {
  const box = useSandboxClassifier(
    async (b) => {
      const p = b.project;
      const upstream = path.join(b.root, 'upstream');
      await mkdir(upstream, { recursive: true });
      await writeFile(path.join(upstream, 'a.txt'), 'a\n');
      git(upstream, 'init', '-q', '-b', 'main');
      git(upstream, 'add', 'a.txt');
      commit(upstream, 'base');
      git(upstream, 'branch', 'topic');
      git(b.root, 'clone', '-q', upstream, p);
      await writeFile(path.join(p, 'README.md'), 'readme\n');
      await writeFile(path.join(p, 'feature'), 'a file named like the branch\n');
      git(p, 'add', 'README.md', 'feature');
      commit(p, 'files');
      git(p, 'branch', 'feature');
      await writeFile(path.join(p, 'README.md'), 'uncommitted work\n');
      await writeFile(path.join(p, 'feature'), 'uncommitted work\n');
    },
    { permissions: { allow: ['Bash(git *)'] } },
  );

  it('a path operand without -- discards changes as the -- form does, and asks', async () => {
    for (const command of [
      'git checkout README.md',
      'git checkout -- README.md',
      'git checkout a.txt',
      'git checkout HEAD README.md',
      'git checkout main README.md',
      'git restore README.md',
      'git -C . checkout README.md',
    ]) {
      const v = await box.bash(command);
      expect(v.decision, `${command}: ${v.reason}`).toBe('ask');
      expect(v.by, command).toBe('rule');
    }
  });

  it('an operand that names a commit, or one remote branch, switches and is left to the rule', async () => {
    for (const command of [
      'git checkout main',
      'git checkout feature',
      'git checkout HEAD~1',
      'git checkout topic',
      'git switch feature',
    ]) {
      const v = await box.bash(command);
      expect(v.decision, `${command}: ${v.reason}`).toBe('allow');
    }
  });

  it('an operand that names nothing yet, or that another command of the line may create, counts as a path', async () => {
    for (const command of [
      'git checkout nosuch',
      'git branch README.md && git checkout README.md',
      'cd "$D" && git checkout main',
    ]) {
      expect((await box.bash(command)).decision, command).toBe('ask');
    }
  });

  it('git reset of a path only unstages it, with or without --', async () => {
    const forms = ['git reset README.md', 'git reset -- README.md'];
    const answers = await Promise.all(forms.map((command) => box.bash(command)));
    expect(answers.map((v) => v.decision)).toEqual(['allow', 'allow']);
  });
});

describe("the project's own repository named by --git-dir or GIT_DIR is no other repository", () => {
  const box = useSandboxClassifier(
    async (b) => {
      const p = b.project;
      await mkdir(path.join(p, 'sub'), { recursive: true });
      await writeFile(path.join(p, 'README.md'), 'readme\n');
      git(p, 'init', '-q', '-b', 'main');
      git(p, 'add', 'README.md');
      commit(p, 'base');
      const other = path.join(b.root, 'other');
      await mkdir(other, { recursive: true });
      git(other, 'init', '-q');
    },
    { permissions: { allow: ['Bash(git *)'] } },
  );

  it('reads through the own .git are decided as without the option', async () => {
    for (const command of [
      'git --git-dir=.git status',
      'git --git-dir .git log --oneline',
      'git --git-dir=.git --work-tree=. status',
      'GIT_DIR=.git git status',
      'GIT_DIR=./.git GIT_WORK_TREE=. git log',
    ]) {
      const v = await box.bash(command);
      expect(v.decision, `${command}: ${v.reason}`).toBe('allow');
    }
  });

  it('another repository, another work tree, or the own .git from a subfolder still ask', async () => {
    for (const command of [
      'git --git-dir=../other/.git status',
      'GIT_DIR=../other/.git git status',
      'git --git-dir=.git --work-tree=sub status',
      'cd sub && git --git-dir=../.git status',
      'git --git-dir=.git checkout README.md',
    ]) {
      const v = await box.bash(command);
      expect(v.decision, `${command}: ${v.reason}`).toBe('ask');
    }
  });
});
