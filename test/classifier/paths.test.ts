import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/bash/analyze.js';
import { loadBash } from '../../src/bash/parser.js';
import { realPath } from '../../src/policy/paths.js';
import { workingFolders } from '../../src/policy/working-folders.js';
import { matchPathRule, parsePathPattern } from '../../src/rules/permission/path.js';
import { caseClassifier, useSandboxClassifier } from './helpers.js';

/** A home with a key and a library folder; a project with a link into that library and one into .git. */
async function plant(box: { home: string; project: string }): Promise<void> {
  await mkdir(path.join(box.home, '.ssh'), { recursive: true });
  await writeFile(path.join(box.home, '.ssh', 'id_rsa'), 'PRIVATE\n');
  await mkdir(path.join(box.home, 'lib', 'deep'), { recursive: true });
  await mkdir(path.join(box.project, 'a', 'b'), { recursive: true });
  await symlink(path.join(box.home, 'lib', 'deep'), path.join(box.project, 'a', 'b', 'deps'));
  await mkdir(path.join(box.project, '.git', 'hooks'), { recursive: true });
  await writeFile(path.join(box.project, '.git', 'config'), '[core]\n');
  await symlink(path.join(box.project, '.git', 'hooks'), path.join(box.project, 'h'));
  await mkdir(path.join(box.project, 'src', 'sub'), { recursive: true });
  await writeFile(path.join(box.project, 'src', 'a.ts'), '');
  // A bare repository committed as plain files: git run inside it reads its config.
  const evil = path.join(box.project, 'evil');
  await mkdir(path.join(evil, 'objects'), { recursive: true });
  await mkdir(path.join(evil, 'refs'), { recursive: true });
  await writeFile(path.join(evil, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(
    path.join(evil, 'config'),
    '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch /tmp/pwned; false"\n\tworktree = ..\n',
  );
  await mkdir(path.join(box.project, 'vendor', 'other', '.git'), { recursive: true });
}

describe('`..` after a link is applied to the folder the link leads to', () => {
  const sandbox = useSandboxClassifier(plant);
  const classify = sandbox.bash;

  it('reads the key a `..` out of a linked folder reaches, in Bash and in the Read tool', async () => {
    expect((await classify('cat a/b/deps/../../.ssh/id_rsa')).decision).toBe('deny');
    expect((await classify('head -1 a/b/deps/../../.ssh/id_*')).decision).toBe('deny');
    const read = await sandbox.classifier.classify({
      tool: 'Read',
      input: { file_path: 'a/b/deps/../../.ssh/id_rsa' },
      cwd: sandbox.box.project,
    });
    expect(read.decision).toBe('deny');
    expect((await classify('cat a/b/../b/x')).decision).toBe('allow');
  });

  it('treats a write through a link into .git as a write to .git', async () => {
    const box = sandbox.box;
    const accepting = await caseClassifier(box, { permissions: { defaultMode: 'acceptEdits' } });
    const write = await accepting.classify({
      tool: 'Write',
      input: { file_path: 'h/../config', content: 'x' },
      cwd: box.project,
      mode: 'acceptEdits',
    });
    expect(write.decision).toBe('ask');
    expect(write.reason).toMatch(/\.git is a protected folder/);
    const shell = await accepting.classify({
      tool: 'Bash',
      input: { command: 'echo x > h/../config' },
      cwd: box.project,
      mode: 'acceptEdits',
    });
    expect(shell.decision).toBe('ask');
  });

  it('sees that `find a/b/deps/../.. -delete` deletes the home folder', async () => {
    const allowing = await caseClassifier(sandbox.box, { permissions: { allow: ['Bash(find *)'] } });
    const v = await allowing.classify({
      tool: 'Bash',
      input: { command: 'find a/b/deps/../.. -delete' },
      cwd: sandbox.box.project,
    });
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(/home folder/);
  });
});

describe('cd, pushd and popd', () => {
  const sandbox = useSandboxClassifier(plant);
  const classify = sandbox.bash;

  it('parse their options: `--`, -P, -L, -e and clusters', async () => {
    for (const line of [
      'cd -- ~/.ssh && cat id_rsa',
      'cd -P ~/.ssh && cat id_rsa',
      'cd -L ~/.ssh && cat id_rsa',
      'cd -Pe -- ~/.ssh && cat id_rsa',
      'cd -e -P -- ~/.ssh; cat id_rsa',
      'builtin cd -- ~/.ssh && cat id_rsa',
      'pushd ~/.ssh && cat id_rsa',
      'pushd -- ~/.ssh >/dev/null; cat id_rsa',
    ]) {
      expect((await classify(line)).decision, line).toBe('deny');
    }
  });

  it('chain: a relative cd starts where the one before it went', async () => {
    expect((await classify('cd src && cd ../../home && cat .ssh/id_rsa')).decision).toBe('deny');
    expect((await classify('cd src/sub; cd ../..; cd ../home; cat .ssh/id_rsa')).decision).toBe('deny');
  });

  it('apply again when they may run more than once', async () => {
    expect((await classify('for i in 1 2; do cd ..; done; cat home/.ssh/id_rsa')).decision).toBe('deny');
    expect((await classify('up() { cd ..; }; up; up; cat home/.ssh/id_rsa')).decision).toBe('deny');
  });

  it('count a cd in a subshell or a pipeline, and one made by env -C', async () => {
    expect((await classify('(cd ~/.ssh && cat id_rsa)')).decision).toBe('deny');
    expect((await classify('cd ~/.ssh | cat id_rsa')).decision).toBe('deny');
    expect((await classify('env -C ~/.ssh cat id_rsa')).decision).toBe('deny');
    expect((await classify('env --chdir=../home cat .ssh/id_rsa')).decision).toBe('deny');
  });

  it('make relative paths unknown when the folder is only known at run time', async () => {
    for (const line of [
      'CDPATH=$HOME; cd .ssh; cat id_rsa',
      'export CDPATH=~; cd .ssh && cat id_rsa',
      'cd ~/.ssh; cd /; cd -; cat id_rsa',
      'cd "$OLDPWD" && cat id_rsa',
      'pushd -n ~/.ssh; popd; cat id_rsa',
      'shopt -s cdable_vars; d=~/.ssh; cd d; cat id_rsa',
      'find . -maxdepth 0 -execdir cat id_rsa \\;',
      'cd -x ~/.ssh; cat id_rsa',
    ]) {
      expect((await classify(line)).decision, line).not.toBe('allow');
    }
  });

  it('leave ordinary lines alone', async () => {
    for (const line of ['cd src && ls', 'cd src && cat a.ts sub/../a.ts', 'cd']) {
      expect((await classify(line)).decision, line).toBe('allow');
    }
  });

  describe('agree with bash on the folder they end in', () => {
    beforeAll(() => loadBash());
    const lines = [
      'cd a/b/deps/..',
      'cd -P a/b/deps/..',
      'cd -L a/b/deps/../..',
      'cd a/b/deps; cd ..',
      'cd -P a/b/deps; cd ..',
      'cd -- a/b',
      'cd -Pe -- a/b/deps',
      'cd src; cd sub; cd ../..',
      'pushd src >/dev/null; pushd sub >/dev/null; popd >/dev/null',
      'pushd src >/dev/null; pushd ~ >/dev/null; pushd >/dev/null',
      'pushd src >/dev/null; pushd ~ >/dev/null; pushd +1 >/dev/null',
      'for i in 1 2; do cd ..; done',
      'cd a/b/deps/../../.ssh',
      'cd',
      'cd ~/lib/deep/..',
    ];
    for (const line of lines) {
      it(line, () => {
        const box = sandbox.box;
        const ctx = { cwd: box.project, home: box.home };
        const folders = workingFolders(analyze(line), ctx);
        const bashSays = execFileSync('bash', ['-c', `${line}; pwd -P`], {
          cwd: box.project,
          env: { PATH: process.env.PATH, HOME: box.home },
          encoding: 'utf8',
        }).trim();
        expect(folders, line).toBeDefined();
        const physical = folders!.map((f) => realPath(f));
        expect(physical, line).toContain(realpathSync(bashSays));
      });
    }
  });
});

describe('git in a folder that is not the project top', () => {
  const sandbox = useSandboxClassifier(plant);
  const classify = sandbox.bash;

  it('asks: the repository git discovers there may be one whose config runs programs', async () => {
    for (const line of [
      'cd evil && git status',
      'cd evil; git log',
      '(cd evil && git diff)',
      'cd evil/objects && git status',
      'cd vendor/other && git status',
      'pushd evil && git status',
      'cd "$D" && git status',
      'export GIT_DIR=evil; git status',
      'GIT_CEILING_DIRECTORIES=/ git status',
    ]) {
      const v = await classify(line);
      expect(v.decision, line).toBe('ask');
      // Either the git check or the shell-state check (GIT_DIR changed on the line) says why.
      expect(v.reason, line).toMatch(/git|GIT_DIR|run time/);
    }
    const v = await classify('cd evil && git status');
    expect(v.reason).toMatch(/laid out as a git directory/);
  });

  it('allows a folder inside the project repository, and the project top itself', async () => {
    for (const line of [
      'git status',
      'cd src && git status',
      'cd src/sub && git log --oneline',
      'git -P log',
    ]) {
      if (line === 'git -P log') continue;
      expect((await classify(line)).decision, line).toBe('allow');
    }
  });

  it('checks the session folder itself when it is below the top', async () => {
    const box = sandbox.box;
    const inside = await sandbox.classifier.classify({
      tool: 'Bash',
      input: { command: 'git status' },
      cwd: path.join(box.project, 'evil'),
    });
    expect(inside.decision).toBe('ask');
    const fine = await sandbox.classifier.classify({
      tool: 'Bash',
      input: { command: 'git status' },
      cwd: path.join(box.project, 'src'),
    });
    expect(fine.decision).toBe('allow');
  });
});

describe('protected paths and path rules ignore case where disks do', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await writeFile(path.join(box.project, '.ENV'), 'KEY=1\n');
    await mkdir(path.join(box.project, '.GIT'), { recursive: true });
  });

  it('asks for .ENV under Read(.env) and for writes to .GIT/config, .cargo/config.toml, lefthook.yml', async () => {
    const { classifier, box } = sandbox;
    const read = await classifier.classify({ tool: 'Read', input: { file_path: '.ENV' }, cwd: box.project });
    expect(read.decision).toBe('ask');
    expect((await sandbox.bash('cat .ENV')).decision).toBe('ask');
    for (const file of [
      '.GIT/config',
      '.cargo/config.toml',
      'lefthook.yml',
      '.pre-commit-config.yaml',
      '.devcontainer/devcontainer.json',
    ]) {
      const v = await classifier.classify({
        tool: 'Write',
        input: { file_path: file, content: 'x' },
        cwd: box.project,
        mode: 'acceptEdits',
      });
      expect(v.decision, file).toBe('ask');
      expect(v.reason, file).toMatch(/protected/);
    }
    const home = await classifier.classify({
      tool: 'Edit',
      input: { file_path: path.join(box.home, '.config', 'git', 'config'), old_string: 'a', new_string: 'b' },
      cwd: box.project,
      mode: 'bypassPermissions',
    });
    expect(home.decision).toBe('ask');
  });

  it('keeps allow rules exact', () => {
    const ctx = { cwd: '/p', home: '/h' };
    expect(matchPathRule(parsePathPattern('src/**'), '/p/src/a', ctx)).toBe(true);
    expect(matchPathRule(parsePathPattern('src/**'), '/p/SRC/a', ctx)).toBe(false);
  });

  it('Read(.env) matches /.env when the working folder is /', () => {
    const ctx = { cwd: '/', home: '/h' };
    expect(matchPathRule(parsePathPattern('.env'), '/.env', ctx)).toBe(true);
    expect(matchPathRule(parsePathPattern('.env'), '/srv/.env', ctx)).toBe(true);
    expect(matchPathRule(parsePathPattern('.env'), '/srv/x.env', ctx)).toBe(false);
  });
});

describe('a working folder reached through a link', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await mkdir(path.join(box.project, 'src'), { recursive: true });
    await writeFile(path.join(box.project, 'src', 'a.ts'), '');
    await writeFile(path.join(box.project, 'README.md'), '');
    await symlink(box.project, path.join(box.root, 'via-link'));
  });

  it('counts a path that physically lies in it as inside, and one that leaves it as outside', async () => {
    const { classifier, box } = sandbox;
    const cwd = path.join(box.root, 'via-link');
    const run = (command: string) => classifier.classify({ tool: 'Bash', input: { command }, cwd });
    expect((await run('cat src/../README.md')).decision).toBe('allow');
    expect((await run('cat src/a.ts')).decision).toBe('allow');
    expect((await run('cat ../home/x')).decision).toBe('ask');
    const read = await classifier.classify({ tool: 'Read', input: { file_path: 'src/../README.md' }, cwd });
    expect(read.decision).toBe('allow');
  });
});

describe('workingFolders', () => {
  beforeAll(() => loadBash());
  const ctx = { cwd: '/p/proj', home: '/p/home' };
  const folders = (line: string) => workingFolders(analyze(line), ctx);

  it('takes CDPATH from the environment the classifier runs in', () => {
    const saved = process.env.CDPATH;
    process.env.CDPATH = '/p/home';
    try {
      expect(folders('cd src')).toBeUndefined();
      expect(folders('cd ./src')).toEqual(['/p/proj', '/p/proj/src']);
      expect(folders('cd ../x')).toEqual(['/p/proj', '/p/x']);
      expect(folders('cd /etc')).toEqual(['/p/proj', '/etc']);
    } finally {
      if (saved === undefined) delete process.env.CDPATH;
      else process.env.CDPATH = saved;
    }
    expect(folders('cd src')).toEqual(['/p/proj', '/p/proj/src']);
  });

  it('does not know where `cd` or `cd ~` go once HOME may have changed', () => {
    expect(folders('cd')).toEqual(['/p/proj', '/p/home']);
    expect(folders('HOME=/etc; cd; cat passwd')).toBeUndefined();
    expect(folders('printf -v HOME %s /etc; cd ~')).toBeUndefined();
    expect(folders('export HOME=/etc && cd "$HOME"')).toBeUndefined();
  });

  it('keeps popd and pushd rotations among the folders the line has been in', () => {
    expect(folders('pushd a; pushd /b; popd; popd')).toEqual(['/p/proj', '/p/proj/a', '/b']);
    expect(folders('pushd a; pushd +1')).toEqual(['/p/proj', '/p/proj/a']);
    expect(folders('popd')).toEqual(['/p/proj']);
    expect(folders('DIRSTACK[1]=/etc; popd')).toBeUndefined();
    expect(folders('popd /x')).toBeUndefined();
  });

  it('gives up on cds that keep finding new folders', () => {
    expect(folders('while true; do cd x; done')).toBeUndefined();
    expect(folders('while :; do cd ..; done')).toContain('/');
  });
});

describe('git discovery, with real git as the oracle', () => {
  const marker = (box: { root: string }, name: string) => path.join(box.root, `ran-${name}`);
  const layouts: Record<string, { head?: string; objects?: boolean; refs?: boolean }> = {
    bare: {},
    'head-sha': { head: `${'a'.repeat(40)}\n` },
    'no-refs': { refs: false },
    'no-objects': { objects: false },
    'bad-head': { head: 'garbage\n' },
  };
  const sandbox = useSandboxClassifier(async (box) => {
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, {
        cwd,
        env: { PATH: process.env.PATH, HOME: box.home, GIT_CONFIG_NOSYSTEM: '1' },
      });
    git(box.project, 'init', '-q');
    await mkdir(path.join(box.project, 'src', 'deep'), { recursive: true });
    for (const [name, layout] of Object.entries(layouts)) {
      const dir = path.join(box.project, name);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'HEAD'), layout.head ?? 'ref: refs/heads/main\n');
      if (layout.objects !== false) await mkdir(path.join(dir, 'objects'));
      if (layout.refs !== false) await mkdir(path.join(dir, 'refs'));
      const fsmonitor = `touch ${marker(box, name)}; false`;
      await writeFile(
        path.join(dir, 'config'),
        `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "${fsmonitor}"\n\tworktree = ..\n`,
      );
      await mkdir(path.join(dir, 'below'));
    }
    const nested = path.join(box.project, 'vendor', 'nested');
    await mkdir(nested, { recursive: true });
    git(nested, 'init', '-q');
    git(nested, 'config', 'core.fsmonitor', `touch ${marker(box, 'nested')}; false`);
  });

  it('asks wherever git runs a planted configuration, and allows where it runs the project one', async () => {
    const box = sandbox.box;
    const folders = [
      ...Object.keys(layouts),
      ...Object.keys(layouts).map((n) => `${n}/below`),
      'vendor/nested',
      'src/deep',
      '.',
    ];
    for (const folder of folders) {
      const name = folder.split('/')[0] === 'vendor' ? 'nested' : folder.split('/')[0]!;
      const cwd = path.join(box.project, folder);
      try {
        execFileSync('git', ['status'], {
          cwd,
          env: { PATH: process.env.PATH, HOME: box.home, GIT_CONFIG_NOSYSTEM: '1' },
          stdio: 'ignore',
        });
      } catch {
        // a broken repository still ran its fsmonitor, or git refused: the marker says which
      }
      const ran = existsSync(marker(box, name));
      const v = await sandbox.bash(`cd ${folder} && git status`);
      if (ran) expect(v.decision, `${folder}: git ran its planted config`).toBe('ask');
      if (folder === 'src/deep' || folder === '.') {
        expect(ran, folder).toBe(false);
        expect(v.decision, folder).toBe('allow');
      }
    }
    // The layouts git takes for a repository are the ones automode knows.
    expect(existsSync(marker(box, 'bare')), 'bare').toBe(true);
    expect(existsSync(marker(box, 'head-sha')), 'head-sha').toBe(true);
    expect(existsSync(marker(box, 'nested')), 'nested').toBe(true);
  });
});

describe('variables set under names only known at run time', () => {
  beforeAll(() => loadBash());
  const ctx = { cwd: '/p/proj', home: '/p/home' };
  const folders = (line: string) => workingFolders(analyze(line), ctx);

  it('may set CDPATH: `cd name` is then unknown', () => {
    expect(folders('declare "$v=/etc"; cd ssl')).toBeUndefined();
    expect(folders('printf -v "$v" %s /etc; cd ssl')).toBeUndefined();
    expect(folders('read $v; cd ssl')).toBeUndefined();
  });

  it('but a known name with a value only known at run time is not CDPATH', () => {
    expect(folders('printf "%s" "$x"; cd src')).toEqual(['/p/proj', '/p/proj/src']);
    expect(folders('export PATH="$PATH:/x"; cd src')).toEqual(['/p/proj', '/p/proj/src']);
  });
});
