import { mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../src/policy/normalize.js';
import { criticalRemoval, isInside, protectedReason, realPath, resolvePath } from '../../src/policy/paths.js';
import { checkReadOnly } from '../../src/policy/readonly.js';

describe('normalize', () => {
  it('removes global options between a program and its subcommand', () => {
    expect(normalize(['git', '-C', '.', 'clean', '-fd']).line).toBe('git clean -fd');
    expect(normalize(['git', '--no-pager', 'push', '--force']).positionals).toEqual(['push']);
    expect(normalize(['git', '-c', 'core.pager=less', 'log']).positionals).toEqual(['log']);
    expect(normalize(['/usr/bin/git', '--git-dir=/x', 'status']).line).toBe('git status');
  });

  it('reads options as a set, whatever their order, grouping or spelling', () => {
    const want = new Set(['r', 'f']);
    for (const argv of [
      ['rm', '-rf', '/'],
      ['rm', '-fr', '/'],
      ['rm', '-r', '-f', '/'],
      ['rm', '--recursive', '--force', '/'],
      ['rm', '-R', '--force', '/'],
    ]) {
      const n = normalize(argv);
      expect(n.options, argv.join(' ')).toEqual(want);
      expect(n.positionals).toEqual(['/']);
    }
  });

  it('stops reading options after --', () => {
    expect(normalize(['rm', '--', '-rf']).positionals).toEqual(['--', '-rf']);
  });

  it('reads abbreviations as the program does', () => {
    expect(normalize(['chown', '--rec', 'u', 'f']).options).toEqual(new Set(['R']));
    expect(normalize(['rm', '--rec', '--fo', 'x']).options).toEqual(new Set(['r', 'f']));
    expect(normalize(['tar', '--to-com=sh', '-xf', 'a']).options).toContain('to-command');
    expect(normalize(['tar', '--checkpoint-act=exec=sh', '-cf', 'a']).options).toContain('checkpoint-action');
    expect(normalize(['sort', '--compress-prog=sh', 'x']).options).toEqual(new Set(['compress-program']));
  });

  it('resolves subcommand aliases, nested ones included', () => {
    for (const alias of ['delete', 'del', 'un', 'uninstall'])
      expect(normalize(['helm', alias, 'web']).line).toBe('helm uninstall web');
    expect(normalize(['docker', 'rm', '-f', 'x']).positionals).toEqual(['container', 'rm', 'x']);
    expect(normalize(['docker', 'container', 'remove', 'x']).positionals).toEqual(['container', 'rm', 'x']);
    expect(normalize(['docker', 'rmi', 'x']).line).toBe('docker image rm x');
    expect(normalize(['npm', 'un', 'x']).positionals).toEqual(['uninstall', 'x']);
    expect(normalize(['npm', 'pub']).positionals).toEqual(['publish']);
  });

  it('reads dotted variants as their family', () => {
    expect(normalize(['mkfs.ext4', '/dev/sda']).family).toBe('mkfs');
    expect(normalize(['/sbin/mkfs.vfat', '/dev/sdb']).family).toBe('mkfs');
    expect(normalize(['cat.sh']).family).toBe('cat.sh');
  });
});

describe('read-only defaults', () => {
  const ro = (line: string) => checkReadOnly(line.split(' ')[0]!, line.split(' '), true).readOnly;

  it('refuse recursive readers that follow every link below their folders', () => {
    for (const line of [
      'grep -R x .',
      'grep -nR x .',
      'grep --dereference-recursive x .',
      'rg -L x',
      'rg --follow x',
    ]) {
      expect(ro(line), line).toBe(false);
      expect(checkReadOnly(line.split(' ')[0]!, line.split(' '), true).reason, line).toMatch(/follows links/);
    }
    for (const line of ['grep -r x .', 'grep -rn x .', 'grep -L x f', 'rg -l x'])
      expect(ro(line), line).toBe(true);
  });

  it('accepts reading commands', () => {
    for (const line of [
      'ls -la',
      'cat README.md',
      'grep -rn foo src',
      'git status',
      'git log --oneline -5',
      'git diff HEAD~1',
      'git branch --list',
      'git branch -a',
      'git stash list',
      'git config --get user.name',
      'sed -n 1,5p file',
      'find . -name x',
      'rg foo',
      'sort file',
    ]) {
      expect(ro(line), line).toBe(true);
    }
  });

  it('refuses options and subcommands that write or run programs', () => {
    for (const line of [
      'sed -i s/a/b/ f',
      'sed -ni p f',
      'sed --in-place=.bak s/a/b/ f',
      // find's -exec is read-only as far as find goes: the program it runs is decided on its own (a nested command).
      'find . -exec echo {} ; -delete',
      'find . -delete',
      'find . -fprint out',
      'rg --pre cat foo',
      'rg --pre=cat foo',
      'sort -o out in',
      'sort -oout in',
      'git -c core.pager=sh log',
      'git -C /tmp status',
      'git -p log',
      'git log --output=x',
      'git diff --ext-diff',
      'git branch newbranch',
      'git branch -D main',
      'git tag v1',
      'git stash',
      'git stash push -m list',
      'git stash drop',
      'git config user.name x',
      'git push',
      'git commit -m x',
      'git reflog expire --all',
      'uniq in out',
      'hostname evil',
      'date -s 2020-01-01',
      'awk -f prog.awk f',
      'xxd -r dump bin',
      'rm x',
    ]) {
      expect(ro(line), line).toBe(false);
    }
  });

  it('refuses the rarer features that run code, read other files or change the system', () => {
    for (const line of [
      'strings @opts.txt',
      'sort --compress-program=sh x',
      'sort --compress-prog=sh x',
      'sort -T /tmp x',
      'date --set 2020-01-01',
      'date --se=2020-01-01',
      'date 010101012020',
      'hostname --file x',
      'hostname -F x',
      'test -v a[$(touch)]',
      "[ -v 'a[1]' ]",
      'printf -v PATH %s x',
      'find -L . -name x',
      'diff -r a b',
      'jq -n env',
      'awk -W exec x',
      'ls -LR',
    ]) {
      expect(ro(line), line).toBe(false);
    }
    for (const line of [
      'date +%s',
      'hostname -f',
      'diff -r --no-dereference a b',
      'find . -newermt 2020 -ls',
      // A plain variable name evaluates nothing; a subscript is refused (and the analysis is opaque).
      '[ -v x ]',
    ])
      expect(ro(line), line).toBe(true);
  });

  it('says which option made a command not read-only', () => {
    const reason = (line: string) => checkReadOnly(line.split(' ')[0]!, line.split(' '), true).reason;
    expect(reason('sort --compress-prog=sh x')).toBe('sort --compress-program runs a program');
    expect(reason('date --set 2020')).toBe('date -s sets the clock');
    expect(reason('sed -i s/a/b/ f')).toBe('sed -i can write or run programs');
    expect(reason('strings @x')).toBe('@x reads more arguments from a file');
  });

  it('needs static arguments unless the command cannot touch files', () => {
    expect(checkReadOnly('cat', ['cat', '⟨$⟩'], false).readOnly).toBe(false);
    expect(checkReadOnly('echo', ['echo', '⟨$⟩'], false).readOnly).toBe(true);
    expect(checkReadOnly('cd', ['cd', '/home/⟨$⟩'], false).readOnly).toBe(false);
    expect(checkReadOnly('printf', ['printf', '%s', '⟨$⟩'], false).readOnly).toBe(true);
    expect(checkReadOnly('printf', ['printf', '⟨$⟩', 'x'], false).readOnly).toBe(false);
  });

  it('is not fooled by prototype names', () => {
    expect(checkReadOnly('constructor', ['constructor'], true).readOnly).toBe(false);
    expect(checkReadOnly('git', ['git', 'constructor'], true).readOnly).toBe(false);
  });
});

describe('paths', () => {
  const ctx = { cwd: '/work/proj', home: '/home/u' };

  it('resolves ~, relative paths and ..', () => {
    expect(resolvePath('~/.ssh/id_rsa', ctx)).toBe('/home/u/.ssh/id_rsa');
    expect(resolvePath('src/../.env', ctx)).toBe('/work/proj/.env');
    expect(resolvePath('/etc//passwd', ctx)).toBe('/etc/passwd');
  });

  it('does not confuse a sibling folder that shares a prefix', () => {
    expect(isInside('/work/proj-evil/x', '/work/proj')).toBe(false);
    expect(isInside('/work/proj/x', '/work/proj')).toBe(true);
    expect(isInside('/work/proj', '/work/proj')).toBe(true);
  });

  it('knows protected paths', () => {
    expect(protectedReason('/work/proj/.git/hooks/pre-commit')).toMatch(/\.git/);
    expect(protectedReason('/work/proj/.claude/settings.json')).toMatch(/\.claude/);
    expect(protectedReason('/work/proj/.claude/worktrees/a/file.ts')).toBeUndefined();
    expect(protectedReason('/home/u/.bashrc')).toMatch(/bashrc/);
    expect(protectedReason('/work/proj/src/index.ts')).toBeUndefined();
  });

  it('knows critical removal targets', () => {
    expect(criticalRemoval('/', ctx)).toBeDefined();
    expect(criticalRemoval('/usr', ctx)).toBeDefined();
    expect(criticalRemoval('/home/u', ctx)).toBeDefined();
    expect(criticalRemoval('/home', ctx)).toBeDefined();
    expect(criticalRemoval('/work/proj', ctx)).toBeDefined();
    expect(criticalRemoval('/work', ctx)).toBeDefined();
    expect(criticalRemoval('/work/proj/build', ctx)).toBeUndefined();
  });

  it('follows symlinks, also for files that do not exist yet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-paths-'));
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(realPath(join(dir, 'link', 'new.txt'))).toBe(join(realpathSync(dir), 'real', 'new.txt'));
  });

  it('follows a dangling link to the target that writing through it would create', () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-paths-'));
    symlinkSync(join(dir, 'home', '.bashrc'), join(dir, 'innocent.txt'));
    symlinkSync(join(dir, 'missing-dir'), join(dir, 'dirlink'));
    expect(realPath(join(dir, 'innocent.txt'))).toBe(join(realpathSync(dir), 'home', '.bashrc'));
    expect(realPath(join(dir, 'dirlink', 'a', 'b'))).toBe(join(realpathSync(dir), 'missing-dir', 'a', 'b'));
  });
});
