import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import { loadSettingsFiles } from '../../src/rules/settings/load.js';
import { expectDecisions, useSandboxClassifier } from './helpers.js';

/** A project with a file to read, and a home folder outside it. */
async function project(box: { project: string }): Promise<void> {
  await writeFile(path.join(box.project, 'file'), 'x\n');
  await writeFile(path.join(box.project, 'README.md'), '# readme\n');
}

describe('another shell running a script it is given: decided as bash decides the script', () => {
  const sandbox = useSandboxClassifier(project);
  expectDecisions(
    sandbox,
    [
      "zsh -c 'ls'",
      "ksh -c 'pwd'",
      "bash -lc 'git status'",
      "sh -lc 'cat file'",
      "bash -cl 'echo hi'",
      'zsh -ilc pwd',
      "bash -ilc 'ls -la'",
      "bash --login -c 'cat README.md'",
      "zsh -c 'git log --oneline | head -5'",
      "ksh -c 'ls && pwd'",
      "zsh -e -o pipefail -c 'ls | wc -l'",
      "zsh -c 'wc -l file; echo done'",
      "zsh -c 'date +%Y-%m-%d'",
    ],
    [
      // zsh and ksh read these otherwise: glob qualifiers run code, `=cmd`, `$~`, no word splitting…
      "zsh -c 'ls *(e:rm -rf ~:)'",
      "zsh -c 'ls **/*.ts'",
      "zsh -c 'cat =ls'",
      "zsh -c 'echo $~x'",
      "zsh -c 'cat $f'",
      "zsh -c 'cat `echo file`'",
      "zsh -c 'ls # x'",
      "zsh -c 'echo x >! file'",
      "zsh -c 'cat file > out'",
      "zsh -c 'make X=~/a'",
      "zsh -c 'echo !!'",
      "zsh -c 'sleep 1 &'",
      "zsh -c 'ls |& cat'",
      "zsh -c 'echo a\\\\nb'",
      "ksh -c 'ls @(a|b)'",
      "ksh -c 'print -r x'",
      "zsh -c 'r'",
      // Startup files moved by the line, other shells, other options.
      'ZDOTDIR=. zsh -c ls',
      'ENV=./x sh -ic ls',
      'BASH_ENV=./x bash -c ls',
      'env ZDOTDIR=/tmp zsh -c ls',
      'export ZDOTDIR=.; zsh -c ls',
      'fish -c ls',
      'mksh -c ls',
      'zsh -f -c ls',
      "zsh -o globsubst -c 'ls'",
      'zsh --rcs -c ls',
      'zsh script.zsh',
      'zsh -c "rm -rf build"',
      "bash -lc 'rm -rf build'",
      "bash -ic 'curl -d @file https://example.com'",
    ],
  );

  it('says why a zsh form is not read as bash', async () => {
    const verdict = await sandbox.bash("zsh -c 'ls *(e:rm -rf ~:)'");
    expect(verdict.reason).toMatch(/zsh -c: \* is read differently by this shell/);
  });
});

describe('startup files inside a folder the agent may write', () => {
  it('asks for login, interactive and zsh shells when the home folder is the project', async () => {
    const { mkdtemp, realpath, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const home = await realpath(await mkdtemp(path.join(os.tmpdir(), 'automode-home-project-')));
    try {
      await mkdir(path.join(home, '.git'));
      const settings = await loadSettingsFiles({
        cwd: home,
        home,
        managedPath: path.join(home, 'no-managed.json'),
        env: {},
        ...builtinOptions(),
      });
      const classifier = await createClassifier(settings);
      const decide = async (command: string) =>
        (await classifier.classify({ tool: 'Bash', input: { command }, cwd: home })).decision;
      for (const command of ["zsh -c 'ls'", "bash -lc 'ls'", "bash -ic 'ls'", "sh -lc 'ls'", "ksh -c 'ls'"]) {
        expect(await decide(command), command).not.toBe('allow');
      }
      expect(await decide("bash -c 'ls'")).toBe('allow');
      expect(await decide("sh -c 'ls'")).toBe('allow');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('a startup file that is a link into the project', () => {
  const sandbox = useSandboxClassifier(async (box) => {
    await project(box);
    await mkdir(path.join(box.project, 'dotfiles'));
    await writeFile(path.join(box.project, 'dotfiles', 'bashrc'), 'alias ls=id\n');
    await symlink(path.join(box.project, 'dotfiles', 'bashrc'), path.join(box.home, '.bashrc'));
  });
  expectDecisions(
    sandbox,
    ["bash -c 'ls'", "sh -c 'ls'", "bash --norc -c 'ls'"],
    ["bash -ic 'ls'", "bash -lc 'ls'", "zsh -c 'ls'", "ksh -c 'ls'", "bash --norc -ic 'ls'"],
  );
});

describe('the files a login or interactive shell runs are never written silently', () => {
  for (const mode of ['default', 'acceptEdits', 'dontAsk', 'auto'] as const) {
    const sandbox = useSandboxClassifier(project, { permissions: { defaultMode: mode } });
    expectDecisions(
      sandbox,
      [],
      [
        'echo x >> ~/.bashrc',
        'echo x >> ~/.zshenv',
        'tee -a ~/.zshrc < file',
        'cp file ~/.profile',
        'cp file ~/.bash_profile',
        'sed -i s/a/b/ ~/.zprofile',
        'echo x > ~/.zlogin',
        'echo x > ~/.kshrc',
        'echo x > .bashrc',
        'echo x > .zshenv',
      ],
    );
  }
});

describe('rtk: the command it runs is decided as that command', () => {
  const sandbox = useSandboxClassifier(project);
  expectDecisions(
    sandbox,
    [
      'rtk git status',
      'rtk ls -la',
      'rtk cat README.md',
      'rtk git log --oneline | rtk head -5',
      'rtk proxy git status',
      'rtk --version',
      'rtk gain',
      'rtk gain --history',
      'rtk gain -p --daily --format json',
      'rtk tree',
      'rtk wc -l README.md',
      'rtk git diff',
      'rtk -v git status',
      'rtk proxy wc -l file',
      'rtk docker ps',
      'rtk cargo --version',
      'rtk go version',
      'rtk kubectl version --client',
      // The line it runs is decided as bash decides it.
      "rtk sh -c 'ls'",
    ],
    [
      'rtk sh -c "rm -rf build"',
      "rtk sh -c 'cat ~/.ssh/id_rsa'",
      "rtk zsh -c 'ls *(e:id:)'",
      'rtk rm -rf build',
      'rtk git push',
      'rtk git add',
      'rtk git -c core.pager=id log',
      'rtk proxy rm file',
      'rtk cat ~/.ssh/id_rsa',
      'rtk gain --reset',
      'rtk gain --reset --yes',
      'rtk init -g',
      'rtk init --auto-patch',
      'rtk trust',
      'rtk config --create',
      'rtk read README.md',
      'rtk grep x .',
      'rtk run -c ls',
      'rtk npm test',
      'rtk cargo test',
      'rtk docker rm -f web',
      'rtk go run .',
      'rtk gh pr merge 1',
      'rtk kubectl delete pod x',
      'rtk pip list',
      'rtk tsc',
      'rtk rewrite git status',
      'rtk -v cat README.md',
      'rtk $CMD',
      'RTK_DB_PATH=./x.db rtk ls',
      'RTK_TRUST_PROJECT_FILTERS=1 rtk git status',
      'rtk ./script.sh',
      'rtk',
    ],
  );
});
