import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GIT_SPEC, gitLevel } from '../../src/bash/programs/git/spec.js';
import { lookupLong } from '../../src/bash/programs/options.js';
import { normalize } from '../../src/policy/normalize.js';
import { checkReadOnly } from '../../src/policy/readonly.js';

const words = (line: string) => line.split(' ');
const options = (line: string) => normalize(words(line)).options;
const positionals = (line: string) => normalize(words(line)).positionals;
const ro = (line: string) => checkReadOnly('git', words(line), true);

describe('git spellings deny and ask rules see', () => {
  it('reads unique prefixes of long options as git does', () => {
    expect(options('git push --force-w origin main')).toContain('force-with-lease');
    expect(options('git push --force-with origin main')).toContain('force-with-lease');
    expect(options('git push --force origin main')).toContain('f');
    expect(options('git push --del origin x')).toContain('d');
    expect(options('git reset --har')).toContain('hard');
    expect(options('git clean --for -d')).toContain('f');
    expect(options('git commit --no-verif -m x')).toContain('n');
    // git refuses an ambiguous prefix (`--forc`: --force-with-lease or --force-if-includes): it names no option.
    expect(options('git push --forc origin')).toEqual(new Set(['forc']));
  });

  it('reads clusters, attached values and options after operands', () => {
    for (const line of [
      'git commit -n -m x',
      'git commit -nm x',
      'git commit -anmx',
      'git commit -m x --no-verify',
    ])
      expect(options(line), line).toContain('n');
    for (const line of ['git clean -fd', 'git clean -df', 'git clean -xfd', 'git clean -d --force']) {
      const read = options(line);
      expect(read.has('f') && read.has('d'), line).toBe(true);
    }
  });

  it('reads what an option stands for', () => {
    for (const line of [
      'git branch -D x',
      'git branch -df x',
      'git branch --delete --force x',
      'git branch --del --forc x',
    ]) {
      const read = options(line);
      expect(read.has('d') && read.has('f'), line).toBe(true);
    }
    expect(options('git switch -f main')).toContain('discard-changes');
    expect(options('git push --mirror origin')).toContain('f');
    expect(options('git push --prune origin')).toContain('d');
  });

  it('reads refspecs that force or delete', () => {
    expect(options('git push origin +main')).toContain('f');
    expect(options('git push origin main:main +dev')).toContain('f');
    expect(options('git push origin :old')).toContain('d');
    expect(options('git push origin main')).not.toContain('f');
    expect(options('git push origin :')).not.toContain('d');
  });

  it('removes global options before the subcommand', () => {
    expect(normalize(words('git --no-pager -c a.b=c stash drop')).line).toBe('git stash drop');
    expect(positionals('git -C x stash clear')).toEqual(['stash', 'clear']);
  });

  it('reads git checkout operands that can only be paths as paths', () => {
    expect(positionals('git checkout .')).toEqual(['checkout', '--', '.']);
    expect(positionals('git checkout src/')).toEqual(['checkout', '--', 'src/']);
    expect(positionals('git checkout ./a.ts')).toEqual(['checkout', '--', './a.ts']);
    expect(positionals('git checkout HEAD a.ts')).toEqual(['checkout', '--', 'a.ts']);
    expect(positionals('git checkout HEAD -- a.ts')).toEqual(['checkout', '--', 'a.ts']);
    expect(positionals('git checkout --ours a.ts')).toEqual(['checkout', '--', 'a.ts']);
    expect(options('git checkout HEAD -- a.ts')).toContain('source');
    // A single name may be a branch: git decides by what exists.
    expect(positionals('git checkout main')).toEqual(['checkout', 'main']);
    expect(positionals('git checkout -b new main')).toEqual(['checkout', 'main']);
    expect(positionals('git checkout -')).toEqual(['checkout', '-']);
  });
});

describe('git read-only allow-lists', () => {
  it('allow reading forms', () => {
    for (const line of [
      'git status -sb',
      'git status --porcelain=v2 --untracked-files=no',
      'git --no-pager log --oneline -5',
      'git log -p --stat --since=2.weeks --author=me',
      'git log --format=%H -n 3',
      'git show HEAD --stat',
      'git diff --cached --name-only',
      'git diff HEAD~1 -- src',
      'git blame -L 1,5 README.md',
      'git ls-files -z',
      'git ls-tree -r HEAD',
      'git cat-file -p HEAD',
      'git rev-parse --show-toplevel',
      'git describe --tags --always',
      'git branch -a',
      'git branch --list feat*',
      'git branch --contains HEAD',
      'git tag -l v*',
      'git tag -n',
      'git remote -v',
      'git remote show -n origin',
      // Reads of a remote: which one is checked at decision time (policy/project-files/git-remotes.ts).
      'git remote show origin',
      'git fetch --prune origin',
      'git ls-remote --tags origin',
      'git verify-tag v1.0',
      'git stash list',
      'git stash show -p',
      'git worktree list',
      'git reflog -5',
      'git reflog show HEAD',
      'git config --get user.name',
      'git config user.name',
      'git config --list',
      'git grep -n foo',
      'git grep -3 foo',
      'git shortlog -sn',
      'git range-diff main..feature main..other',
      'git range-diff --stat --creation-factor=80 HEAD~3 HEAD~2 HEAD',
      'git merge-base HEAD main',
      'git count-objects -vH',
      'git version',
      'git --version',
    ]) {
      expect(ro(line).readOnly, `${line}: ${ro(line).reason}`).toBe(true);
    }
  });

  it('refuse options that write, run programs, read outside the repository or reach the network', () => {
    for (const [line, reason] of [
      ['git log --output=x', /--output writes a file/],
      ['git range-diff --output=x A..B C..D', /--output writes a file/],
      ['git diff --ext-diff', /--ext-diff runs the configured diff program/],
      ['git diff --no-index a b', /--no-index reads files outside the repository/],
      ['git grep --no-index foo', /--no-index reads files outside the repository/],
      ['git grep -O foo', /-O runs a pager program/],
      ['git grep --open-files-in-pager foo', /-O runs a pager program/],
      ['git grep --open foo', /-O runs a pager program/],
      ['git -p log', /-p is not a read-only option/],
      ['git -c core.pager=x log', /-c is not a read-only option/],
      ['git -C .. status', /-C is not a read-only option/],
      ['git log --show-signature', /not a read-only option/],
      ['git fetch --upload-pack=x origin', /--upload-pack runs a program on the remote side/],
      ['git fetch origin main:main', /may write a local branch or tag/],
      ['git fetch --prune-tags', /deletes local tags/],
      ['git fetch --recurse-submodules', /submodules/],
      ['git ls-remote --exec=x origin', /--exec runs a program on the remote side/],
      ['git cat-file --textconv HEAD:x', /--textconv runs the configured conversion program/],
    ] as const) {
      const verdict = ro(line);
      expect(verdict.readOnly, line).toBe(false);
      expect(verdict.reason, line).toMatch(reason);
    }
  });

  it('refuse forms that create, change or are unknown', () => {
    for (const line of [
      'git branch new',
      'git branch -v new',
      'git branch -d old',
      'git tag v1',
      'git tag --sort=refname v1',
      'git config user.name x',
      'git config --unset user.name',
      'git stash',
      'git stash drop',
      'git reflog expire --all',
      'git worktree add x',
      'git remote add o url',
      'git status --sh',
      'git log --sourc',
      'git status --no-such-option',
      'git frobnicate',
      'git commit -m x',
    ]) {
      expect(ro(line).readOnly, line).toBe(false);
    }
  });

  it('never read an option the spec does not know as read-only', () => {
    const readOnly = [
      'status',
      'log --oneline',
      'diff --stat',
      'show HEAD',
      'branch -a',
      'ls-files',
      'grep -n foo',
      'rev-parse HEAD',
      'stash list',
      'config --get a.b',
    ];
    const known = (sub: string, option: string): boolean => {
      const level = gitLevel(sub.split(' ')[0] === 'stash' ? 'stash list' : sub.split(' ')[0]!);
      const g = level!.grammar;
      if (option.startsWith('--')) {
        const name = option.slice(2).split('=')[0]!;
        return lookupLong(g, name) !== undefined || lookupLong(GIT_SPEC.grammar, name) !== undefined;
      }
      return [...option.slice(1)].some(
        (c) => `${g.flags}${g.values}${g.optional}`.includes(c) || /\d/.test(c),
      );
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...readOnly),
        fc.stringMatching(/^--[a-z][a-z-]{2,12}$|^-[A-Za-z]$/),
        fc.boolean(),
        (command, option, before) => {
          fc.pre(!known(command, option));
          const [sub, ...rest] = command.split(' ');
          const line = before ? ['git', sub!, option, ...rest] : ['git', sub!, ...rest, option];
          expect(checkReadOnly('git', line, true).readOnly, line.join(' ')).toBe(false);
        },
      ),
      { seed: 20_261_201, numRuns: 500 },
    );
  });
});

describe('every shipped git ask and deny rule sees every spelling git accepts', () => {
  const shipped = JSON.parse(
    readFileSync(new URL('../../defaults/settings.json', import.meta.url), 'utf8'),
  ) as {
    permissions: { ask: string[]; deny: string[] };
  };
  const rules = [...shipped.permissions.ask, ...shipped.permissions.deny]
    .map((rule) => /^Bash\((git .*)\)$/.exec(rule)?.[1])
    .filter((rule): rule is string => rule !== undefined);

  /** Every way git lets a user write the option the rule names: short, long, each unique prefix, negated. */
  function spellings(sub: string, option: string): string[] {
    const g = gitLevel(sub)!.grammar;
    const name = option.startsWith('--') ? option.slice(2) : undefined;
    const want = name ? (g.long.get(name)?.name ?? option) : option.slice(1);
    const out: string[] = [];
    for (const [key, named] of g.long) {
      if (named.name !== want) continue;
      for (let end = 2; end <= key.length; end++) {
        const prefix = key.slice(0, end);
        if (lookupLong(g, prefix)?.name === want) out.push(`--${prefix}`);
      }
    }
    if (want.length === 1) {
      out.push(`-${want}`);
      if (g.flags.includes('q') && want !== 'q') out.push(`-q${want}`, `-${want}q`);
    }
    return out;
  }

  it('checks a spelling of each option of each rule, before and after operands and past global options', () => {
    let checked = 0;
    for (const rule of rules) {
      const ruleWords = words(rule.replace(/ \*$/, ''));
      const sub = ruleWords[1]!;
      const option = ruleWords.find((word) => word.startsWith('-') && word !== '--');
      const want = normalize(ruleWords);
      const forms = option ? spellings(sub, option) : [''];
      expect(forms.length, rule).toBeGreaterThan(0);
      for (const form of forms) {
        const rest = ruleWords.slice(2).filter((word) => word !== option);
        for (const line of [
          ['git', sub, form, ...rest, 'x'],
          ['git', '--no-pager', '-c', 'a.b=c', sub, ...rest, form, 'x'],
        ]) {
          const read = normalize(line.filter(Boolean));
          checked++;
          for (const name of want.options)
            expect(read.options.has(name), `${rule}: ${line.join(' ')}`).toBe(true);
          const given = want.positionals.includes('--')
            ? read.positionals
            : read.positionals.filter((w) => w !== '--');
          expect(given.slice(0, want.positionals.length), `${rule}: ${line.join(' ')}`).toEqual(
            want.positionals,
          );
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
  });
});
