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
