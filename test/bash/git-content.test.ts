import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { GIT_MODULE } from '../../src/bash/programs/git/index.js';
import type { SubcommandSpec } from '../../src/bash/programs/program.js';
import { type Classifier, createClassifier } from '../../src/classifier/index.js';
import { builtinOptions } from '../../src/rules/settings/builtin.js';
import type { CliRules } from '../../src/rules/settings/load.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { gitInstalled } from '../support/git-help.js';

const CANARY = 'canary7f3a9';

interface Repository {
  root: string;
  cwd: string;
  home: string;
  env: NodeJS.ProcessEnv;
  blob: string;
  tree: string;
}

/**
 * A repository whose committed `.env` holds a canary in both of its commits (and a staged change), beside a
 * source file, with a tag naming its blob; the home folder holds an SSH key with the canary too.
 */
function repository(): Repository {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-git-content-')));
  const home = join(root, 'home');
  const cwd = join(home, 'proj');
  mkdirSync(join(cwd, 'src'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_rsa'), `key ${CANARY}\n`);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_SSH_COMMAND: 'false',
    GIT_AUTHOR_NAME: 'a',
    GIT_AUTHOR_EMAIL: 'a@b',
    GIT_COMMITTER_NAME: 'a',
    GIT_COMMITTER_EMAIL: 'a@b',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8' });
  git('init', '-q');
  writeFileSync(join(cwd, '.env'), `SECRET=${CANARY}-old\n`);
  writeFileSync(join(cwd, 'src', 'a.txt'), 'hello\n');
  writeFileSync(join(cwd, 'README.md'), 'readme\n');
  git('add', '-A');
  git('commit', '-qm', 'init: first');
  writeFileSync(join(cwd, '.env'), `SECRET=${CANARY}-new\n`);
  git('commit', '-qam', 'fix: second');
  const blob = git('rev-parse', 'HEAD:.env').trim();
  const tree = git('rev-parse', 'HEAD^{tree}').trim();
  git('tag', 'blobtag', blob);
  writeFileSync(join(cwd, '.env'), `SECRET=${CANARY}-staged\n`);
  git('add', '.env');
  writeFileSync(join(cwd, '.env'), `SECRET=${CANARY}-worktree\n`);
  return { root, cwd, home, env, blob, tree };
}

/** What each command printed, by repository, folder and command: a test asks twice of the same command. */
const printed = new WeakMap<Repository, Map<string, boolean>>();

/**
 * The commands that real git, run by bash in the repository (or a folder in it), prints the canary for. Each
 * runs in a subshell of one bash (`eval COMMAND`) in that folder with the repository's environment, stdin empty and
 * 10 s of CPU at most; one bash runs them all, since a fork of the test worker costs in proportion to its memory
 * and there are some two thousand commands, and a subshell saves each the start of another bash.
 */
function printCanary(repo: Repository, commands: readonly string[], cwd = repo.cwd): Set<string> {
  const seen = printed.get(repo) ?? new Map<string, boolean>();
  printed.set(repo, seen);
  const key = (command: string) => `${cwd}\0${command}`;
  const unknown = [...new Set(commands)].filter((command) => !seen.has(key(command)));
  if (unknown.length > 0) {
    const out = mkdtempSync(join(repo.root, 'out-'));
    writeFileSync(join(out, 'commands'), unknown.map((c) => `${c}\0`).join(''));
    const run = spawnSync(
      'bash',
      [
        '-c',
        'i=0; while IFS= read -r -d "" c; do (ulimit -t 10; eval "$c") </dev/null >"$1/$i" 2>/dev/null; i=$((i+1)); done <"$1/commands"',
        'batch',
        out,
      ],
      // Every form of a listed subcommand runs, its writes too: `git replace HEAD~1 HEAD` must not rewrite the
      // history the later commands read.
      { cwd, env: { ...repo.env, GIT_NO_REPLACE_OBJECTS: '1' }, encoding: 'utf8', timeout: 600_000 },
    );
    if (run.status !== 0) throw new Error(`the commands did not all run: ${run.status} ${run.stderr}`);
    unknown.forEach((command, i) => {
      seen.set(key(command), readFileSync(join(out, String(i)), 'utf8').includes(CANARY));
    });
    rmSync(out, { recursive: true, force: true });
  }
  return new Set(commands.filter((command) => seen.get(key(command))));
}

/** Every git command on the read-only allow-list, nested ones written `stash show`. */
function readOnlyCommands(): string[] {
  const out: string[] = [];
  const walk = (prefix: string, level: SubcommandSpec) => {
    for (const [name, sub] of Object.entries(level.subcommands ?? {})) {
      const full = prefix ? `${prefix} ${name}` : name;
      if (sub.readOnly) out.push(full);
      walk(full, sub);
    }
  };
  walk('', GIT_MODULE.spec!);
  return out;
}

/** Commands that print contents but are not read-only: a rule that allows them still meets the Read rules. */
const CONTENT_COMMANDS = ['annotate', 'format-patch --stdout', 'archive', 'range-diff', 'whatchanged'];

/** Options that make the revision walkers and diffs print contents. */
const CONTENT_OPTIONS = [
  '',
  '-p',
  '--cc',
  '-S SECRET',
  '-G SECRET',
  '-v',
  '--check',
  '-U1',
  '--stat --no-stat',
  '-s -p',
];

const installed = gitInstalled();
/** Every subcommand with every operand form and every content option with every operand (`npm run oracle`). */
const FULL = process.env.GIT_CONTENT_FULL === '1';

describe.skipIf(!installed)('git commands that print a committed secret', () => {
  let repo: Repository;
  const classifiers: Record<string, Classifier> = {};

  beforeAll(async () => {
    await loadBash();
    repo = repository();
    const settings = async (cli: CliRules) =>
      createClassifier(
        await loadSettings({
          cwd: repo.cwd,
          home: repo.home,
          managedPath: join(repo.root, 'none.json'),
          env: {},
          cli,
          ...builtinOptions(),
        }),
      );
    const deny = ['Read(./.env)', 'Read(~/.ssh/**)'];
    classifiers.shipped = await settings({});
    classifiers.team = await settings({
      allow: ['Bash(git diff *)', 'Bash(git log *)', 'Bash(git show *)', 'Bash(grep *)', 'Read(./**)'],
      deny,
    });
    classifiers.everything = await settings({ allow: ['Bash(git *)', 'Read(./**)'], deny });
  }, 60_000);

  /** The commands that print the canary and are allowed under some settings. */
  async function allowed(commands: readonly string[]): Promise<string[]> {
    const through: string[] = [];
    const printing = printCanary(repo, commands);
    for (const command of new Set(commands)) {
      if (!printing.has(command)) continue;
      for (const [name, classifier] of Object.entries(classifiers)) {
        const verdict = await classifier.classify({
          tool: 'Bash',
          input: { command },
          mode: 'default',
          cwd: repo.cwd,
        });
        if (verdict.decision === 'allow') through.push(`${name}: ${command}`);
      }
    }
    return through;
  }

  it('the module oracle cases are not allowed when they print it', { timeout: 120_000 }, async () => {
    const cases = GIT_MODULE.oracle?.cases ?? [];
    const printing = printCanary(repo, cases);
    expect(cases.filter((command) => printing.has(command)).length).toBeGreaterThan(cases.length / 2);
    expect(await allowed(cases)).toEqual([]);
  });

  it('every read-only command with every operand form is not allowed when it prints it', {
    timeout: 600_000,
  }, async () => {
    const operands = [
      ...(GIT_MODULE.oracle?.operands ?? []),
      repo.blob,
      repo.tree,
      `${repo.tree}:.env`,
      'blobtag',
    ];
    // The suite's share: every subcommand bare and with two operand forms in turn, every content option with
    // one; `npm run oracle` (GIT_CONTENT_FULL=1) runs every pairing.
    let turn = 0;
    const some = <T>(items: readonly T[], n: number): T[] =>
      FULL
        ? [...items]
        : Array.from({ length: Math.min(n, items.length) }, () => items[turn++ % items.length]!);
    const commands: string[] = [];
    for (const sub of [...readOnlyCommands(), ...CONTENT_COMMANDS]) {
      commands.push(`git ${sub}`);
      for (const operand of some(operands, 2)) commands.push(`git ${sub} ${operand}`);
    }
    for (const sub of [
      'log',
      'show',
      'diff',
      'whatchanged',
      'reflog',
      'stash list',
      'stash show',
      'diff-tree',
    ]) {
      for (const option of CONTENT_OPTIONS) {
        for (const operand of some(['', 'HEAD', 'HEAD~1 HEAD', '-- .env', 'HEAD~1..HEAD'], 1)) {
          commands.push(`git ${sub} ${option} ${operand}`.trim());
        }
      }
    }
    const printing = printCanary(repo, commands);
    expect(commands.filter((command) => printing.has(command)).length).toBeGreaterThan(FULL ? 100 : 30);
    expect(await allowed(commands)).toEqual([]);
  });

  it('reads `REV:PATH` and whole-repository forms from the top of the repository, not the working folder', {
    timeout: 120_000,
  }, async () => {
    const cwd = join(repo.cwd, 'src');
    const shipped = createClassifier(
      await loadSettings({
        cwd,
        home: repo.home,
        managedPath: join(repo.root, 'none.json'),
        env: {},
        cli: {},
        ...builtinOptions(),
      }),
    );
    const commands = [
      'git diff --cached',
      'git log -p',
      'git show',
      'git status -v',
      `git show ${repo.blob}`,
    ];
    for (const sub of ['show', 'diff', 'log -p', 'cat-file -p', 'grep SECRET']) {
      for (const operand of GIT_MODULE.oracle?.operands ?? []) commands.push(`git ${sub} ${operand}`);
    }
    const printing = [...printCanary(repo, commands, cwd)];
    expect(printing).toContain('git show HEAD:.env');
    const through: string[] = [];
    for (const command of printing) {
      const verdict = await shipped.classify({ tool: 'Bash', input: { command }, mode: 'default', cwd });
      if (verdict.decision === 'allow') through.push(command);
    }
    expect(through).toEqual([]);
  });

  it('still allows what prints no contents', async () => {
    const quiet = [
      'git status',
      'git log --oneline',
      'git log --stat',
      'git show --stat',
      'git show -s HEAD',
      'git diff --stat',
      'git diff --name-only HEAD~1',
      'git ls-files',
      'git ls-tree HEAD',
      'git cat-file -t HEAD:.env',
      'git rev-parse HEAD:.env',
    ];
    expect([...printCanary(repo, quiet)]).toEqual([]);
    const verdicts = await Promise.all(
      quiet.map((command) =>
        classifiers.shipped!.classify({ tool: 'Bash', input: { command }, mode: 'default', cwd: repo.cwd }),
      ),
    );
    expect(verdicts.map((v, i) => `${quiet[i]}: ${v.decision}`)).toEqual(quiet.map((c) => `${c}: allow`));
  });
});

describe.skipIf(!installed)('git commands that print a secret only the history holds', () => {
  it('are not allowed under a Read deny on its path, while the working tree alone stays allowed', {
    timeout: 120_000,
  }, async () => {
    await loadBash();
    const repo = repository();
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repo.cwd, env: repo.env, encoding: 'utf8' });
    writeFileSync(join(repo.cwd, '.secret'), `TOKEN=${CANARY}-history\n`);
    git('add', '.secret');
    git('commit', '-qm', 'add: secret');
    git('rm', '-q', '.secret');
    git('commit', '-qm', 'remove: secret');
    git('rm', '-q', '-f', '.env');
    git('commit', '-qm', 'remove: env');
    const classifier = createClassifier(
      await loadSettings({
        cwd: repo.cwd,
        home: repo.home,
        managedPath: join(repo.root, 'none.json'),
        env: {},
        cli: { allow: ['Bash(git *)', 'Read(./**)'], deny: ['Read(./.secret)'] },
        ...builtinOptions(),
      }),
    );
    const decide = async (command: string) =>
      (await classifier.classify({ tool: 'Bash', input: { command }, mode: 'default', cwd: repo.cwd }))
        .decision;
    const printing = [
      'git log -p',
      'git log -p --all -- .secret',
      'git show HEAD~2',
      'git show HEAD~2:.secret',
      'git diff HEAD~3 HEAD~2',
      'git grep -h TOKEN HEAD~2',
      'git cat-file --batch-all-objects --batch',
      'git archive HEAD~2',
      'git format-patch --stdout HEAD~3',
    ];
    for (const command of printing) {
      expect(
        spawnSync('bash', ['-c', command], { cwd: repo.cwd, env: repo.env, encoding: 'utf8' }).stdout,
      ).toContain(`${CANARY}-history`);
      expect(await decide(command), command).not.toBe('allow');
    }
    for (const command of ['git log --oneline', 'git grep -h TOKEN', 'git status']) {
      expect(await decide(command), command).toBe('allow');
    }
  });
});

describe('what git commands declare they read', () => {
  beforeAll(async () => {
    await loadBash();
  });

  /** `read PATH`, `read PATH (top)` for a path from the top of the repository; `?` when not all are listed. */
  function reads(command: string): string[] {
    const cmd = analyze(command).commands.at(-1)!;
    return [
      ...cmd.effects.map((e) => `${e.access} ${e.path.value}${e.fromRepositoryRoot ? ' (top)' : ''}`),
      ...(cmd.effectsKnown ? [] : ['?']),
    ];
  }

  it.each([
    ['git blame src/../.env', ['read src/../.env']],
    ['git blame -- src/../.env', ['read src/../.env']],
    ['git diff --no-index ../.ssh/id_rsa README.md', ['read ../.ssh/id_rsa', 'read README.md']],
    ['git show HEAD@{0}:.env', ['read .env (top)']],
    ["git show 'HEAD^{/init}:.env'", ['read .env (top)']],
    ["git show 'HEAD^{/fix: a:b}:.env'", ['read .env (top)']],
    ['git show -s HEAD:.env', ['read .env (top)']],
    ['git show HEAD:./.env', ['read ./.env']],
    ['git show HEAD:../x', ['read ../x', 'read . (top)']],
    ['git show :0:.env', ['read .env (top)']],
    ['git show :.env', ['read .env (top)']],
    ['git show @:.env', ['read .env (top)']],
    ["git show 'v1.0^{tree}:.env'", ['read .env (top)']],
    ['git show HEAD~2:.env', ['read .env (top)']],
    ['git show ":/init"', ['read . (top)']],
    ['git show 0123abcd', ['read 0123abcd', 'read . (top)']],
    ['git show', ['read . (top)']],
    ['git show HEAD^!', ['read . (top)']],
    ['git show -s HEAD', []],
    ['git show --stat HEAD~1', []],
    ['git grep SECRET', ['read .']],
    ["git grep -e . -- '*.env*'", ['read *.env*', 'read .', 'read . (top)']],
    ["git grep SECRET -- ':(glob)**/.env'", ['read .', 'read . (top)']],
    ['git grep SECRET -- src', ['read src']],
    ['git grep -f pats', ['read pats', 'read .']],
    ['git grep SECRET HEAD:', ['read .', 'read . (top)']],
    ['git cat-file --batch', ['read . (top)']],
    ['git cat-file -p HEAD:.env', ['read .env (top)']],
    ['git cat-file blob HEAD:.env', ['read .env (top)']],
    ['git cat-file -p 0123abcd', ['read 0123abcd', 'read . (top)']],
    ['git cat-file -t 0123abcd', []],
    ['git log -L1,1:.env', ['read .env']],
    ['git log -p', ['read . (top)']],
    ['git log -p -- .env', ['read .env']],
    ['git log -S SECRET', ['read . (top)']],
    ['git log --cc', ['read . (top)']],
    ['git log --oneline --stat', []],
    ['git diff', ['read . (top)']],
    ['git diff --stat', []],
    ['git diff --stat --no-stat', ['read . (top)', '?']],
    ['git log --oneline --no-such-option', ['read . (top)', '?']],
    ['git diff HEAD~1..HEAD:.env', ['read .env (top)']],
    ['git status -v', ['read . (top)']],
    ['git status', []],
    ['git --icase-pathspecs log -p -- .ENV', ['read .ENV', 'read . (top)']],
    ['git -C sub show HEAD:.env', ['read .env (top)', 'read sub/.env', '?']],
    ['git config --blob=HEAD:.env --list', ['read .env (top)']],
  ])('%s', (command, expected) => {
    expect(reads(command)).toEqual(expected);
  });
});
