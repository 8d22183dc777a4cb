import { describe, expect, test } from 'vitest';
import { effectsOf } from '../../src/bash/effects.js';
import type { Word } from '../../src/bash/types.js';
import { command, dyn } from '../support/words.js';

type Item = string | Word;

interface Shown {
  known: boolean;
  effects: string[];
}

/** `write out` for an argument, `write out (option)` for an option value; `(tree)` for a folder written with entries the line does not name. */
function effects(...items: Item[]): Shown {
  const result = effectsOf(command(items));
  return {
    known: result.known,
    effects: result.effects.map(
      (e) => `${e.access} ${e.path.value}${e.via === 'option' ? ' (option)' : ''}${e.tree ? ' (tree)' : ''}`,
    ),
  };
}

function label(items: Item[]): string {
  return items.map((item) => (typeof item === 'string' ? item : item.text)).join(' ');
}

function table(rows: [Item[], boolean, string[]][]): void {
  test.each(rows.map(([items, known, expected]) => [label(items), items, known, expected] as const))(
    '%s',
    (_, items, known, expected) => {
      expect(effects(...items)).toEqual({ known, effects: expected });
    },
  );
}

describe('copying, moving, deleting', () => {
  table([
    [['cp', 'a', 'b'], true, ['read a', 'write b', 'write b/a']],
    [
      ['cp', '-r', 'a', 'b', 'dir/'],
      false,
      // One tree write per folder copied: its entries, read at decision time, go below dir/.
      ['read a', 'read b', 'write dir/ (tree)', 'write dir/ (tree)', 'write dir/a', 'write dir/b'],
    ],
    [
      ['cp', '-t', 'dir', 'a', 'b'],
      true,
      ['write dir (option)', 'read a', 'read b', 'write dir/a', 'write dir/b'],
    ],
    [['cp', '--target-directory=dir', 'a'], true, ['write dir (option)', 'read a', 'write dir/a']],
    [['cp', '-S', '.bak', '--backup', 'a', 'b'], true, ['read a', 'write b', 'write b/a']],
    [['cp', 'a', '-v', 'b'], true, ['read a', 'write b', 'write b/a']],
    [['cp', 'a'], true, []],
    [['cp', '--bogus', 'a', 'b'], false, ['read a', 'write b', 'write b/a']],
    [['cp', dyn('"$x"'), 'dst'], false, ['read ⟨$⟩', 'write dst', 'write dst (tree)']],
    [['cp', '--', dyn('"$x"'), 'dst'], true, ['read ⟨$⟩', 'write dst', 'write dst (tree)']],
    [
      ['cp', dyn('*.txt', '*.txt', ['glob']), 'dst/'],
      false,
      ['read *.txt', 'write dst/', 'write dst/ (tree)'],
    ],
    [
      ['cp', dyn('src/*.txt', 'src/*.txt', ['glob']), 'dst/'],
      true,
      ['read src/*.txt', 'write dst/', 'write dst/ (tree)'],
    ],
    [['mv', 'a', 'b'], true, ['read a', 'delete a', 'write b', 'write b/a']],
    [
      ['mv', 'a', 'b', 'dir'],
      true,
      ['read a', 'delete a', 'read b', 'delete b', 'write dir', 'write dir/a', 'write dir/b'],
    ],
    [['mv', '-t', 'dir', 'a'], true, ['write dir (option)', 'read a', 'delete a', 'write dir/a']],
    [['mv', '-f', 'a', 'b'], true, ['read a', 'delete a', 'write b', 'write b/a']],
    [
      ['install', '-m', '755', 'a', '/usr/local/bin/a'],
      true,
      ['read a', 'write /usr/local/bin/a', 'write /usr/local/bin/a/a'],
    ],
    [['install', '-d', 'dir1', 'dir2'], true, ['create dir1', 'create dir2']],
    [['install', '-t', 'dir', 'a'], true, ['write dir (option)', 'read a', 'write dir/a']],
    [['rm', '-rf', 'x', 'y'], true, ['delete x', 'delete y']],
    [['rm', '--', '-x'], true, ['delete -x']],
    [['rm', '-i', '--one-file-system', 'a'], true, ['delete a']],
    [['rm', dyn('"$f"')], true, ['delete ⟨$⟩']],
    [['rm', dyn('$files')], true, ['delete ⟨$⟩']],
    [['rmdir', '-p', 'a/b'], true, ['delete a/b']],
    [['unlink', 'f'], true, ['delete f']],
    [['shred', '-u', '-n', '3', 'f'], true, ['delete f']],
    [['shred', '--random-source=r', 'f'], true, ['read r (option)', 'delete f']],
  ]);
});

describe('writing and creating', () => {
  table([
    [['tee', 'f'], true, ['write f']],
    [['tee', '-a', 'f', 'g'], true, ['write f', 'write g']],
    [['tee'], true, []],
    [['dd', 'if=a', 'of=b', 'bs=1M'], true, ['read a', 'write b']],
    [['dd', 'if=/dev/zero', 'of=disk.img', 'count=1'], true, ['read /dev/zero', 'write disk.img']],
    [['dd', 'of=out'], true, ['write out']],
    [['dd', dyn('"$x"')], false, []],
    [['truncate', '-s', '0', 'f'], true, ['write f']],
    [['truncate', '-r', 'ref', 'f'], true, ['read ref (option)', 'write f']],
    [['touch', 'a', 'b'], true, ['create a', 'create b']],
    [['touch', '-d', '2020-01-01', 'f'], true, ['create f']],
    [['touch', '-r', 'ref', 'f'], true, ['read ref (option)', 'create f']],
    [['touch', dyn('"$x"'), 'f'], false, ['create ⟨$⟩', 'create f']],
    // -p makes the missing folders leading to it.
    [['mkdir', '-p', 'a/b', 'c'], true, ['create a', 'create a/b', 'create c']],
    [['mkdir', '-p', '../x/y', './z'], true, ['create ../x', 'create ../x/y', 'create ./z']],
    [['mkdir', 'a/b'], true, ['create a/b']],
    [['mkdir', '-m', '755', 'd'], true, ['create d']],
    [['mkdir', dyn('"$d"')], true, ['create ⟨$⟩']],
    [['ln', '-s', 'target', 'link'], true, ['read target', 'create link']],
    [['ln', 'a', 'b', 'dir'], true, ['read a', 'read b', 'create dir']],
    [['ln', '-t', 'dir', 'a'], true, ['create dir (option)', 'read a']],
    [['ln', '-s', 'target'], false, ['read target']],
  ]);
});

describe('sed', () => {
  table([
    [['sed', '-i', 's/a/b/', 'f'], true, ['write f']],
    [['sed', '-i.bak', 's/a/b/', 'f', 'g'], true, ['write f', 'write g', 'create f.bak', 'create g.bak']],
    [['sed', '--in-place=.orig', '-e', 's/a/b/', 'f'], true, ['write f', 'create f.orig']],
    [['sed', '-n', 'p', 'f'], true, ['read f']],
    [['sed', '-n', '1,5p', 'f', 'g'], true, ['read f', 'read g']],
    [['sed', 's/a/b/w out', 'f'], true, ['write out (option)', 'read f']],
    [['sed', '-n', '/x/w out.txt', 'f'], true, ['write out.txt (option)', 'read f']],
    [['sed', '1r header.txt', 'f'], true, ['read header.txt (option)', 'read f']],
    [['sed', 's/a/b/w /dev/stdout', 'f'], true, ['read f']],
    [['sed', '-f', 's.sed', 'f'], false, ['read s.sed (option)', 'read f']],
    [['sed', dyn('"s/$a/b/"', 's/⟨$⟩/b/'), 'f'], false, ['read f']],
    [['sed', '-i', 's/a/b/', dyn('"$f"')], false, ['write ⟨$⟩']],
    [['sed', '-i', '-e', 's/a/b/', '--', dyn('"$f"')], true, ['write ⟨$⟩']],
    [['sed', '-f', '-', 'f'], false, ['read f']],
    // BSD sed -I EXTENSION edits in place too.
    [['sed', '-I', '', 's/a/b/', 'f'], true, ['write f']],
    [['sed', '-I', '.bak', 's/a/b/', 'f'], true, ['write f', 'create f.bak']],
    [['sed', '--fi=/dev/stdin', 'f'], false, ['read f']],
    [['sed', '-n', 'W out', 'f'], true, ['write out (option)', 'read f']],
    [['sed', 's|a|b|gpw out', 'f'], true, ['write out (option)', 'read f']],
    [['sed', '0r .env', 'f'], true, ['read .env (option)', 'read f']],
    [['sed', '1R .env', 'f'], true, ['read .env (option)', 'read f']],
    // sed opens w files as it compiles the script, before --help stops it.
    [['sed', '-e', 'w out', '--help'], true, ['write out (option)']],
    [['sed', 's/a/b/e', 'f'], false, ['read f']],
    [['sed', '--bogus', 'p', 'f'], false, ['read f']],
  ]);

  test("BSD `sed -i '' SCRIPT FILE` still reports FILE as written", () => {
    expect(effects('sed', '-i', '', 's/a/b/', 'f').effects).toContain('write f');
  });
});

describe('metadata', () => {
  table([
    [['chmod', '755', 'f', 'g'], true, ['metadata f', 'metadata g']],
    [['chmod', '-x', 'f'], true, ['metadata f']],
    [['chmod', '-R', 'u+x', 'd'], true, ['metadata d']],
    [['chmod', '-Rv', 'go-w', 'd'], true, ['metadata d']],
    [['chmod', '--reference=r', 'f'], true, ['read r (option)', 'metadata f']],
    [['chmod', '--reference', 'r', 'f'], true, ['read r (option)', 'metadata f']],
    [['chmod', '--', '-w', 'f'], true, ['metadata f']],
    [['chmod', dyn('"$mode"'), 'f'], false, ['metadata f']],
    [['chown', 'root:root', 'f'], true, ['metadata f']],
    [['chown', '-Rh', 'user', 'd'], true, ['metadata d']],
    [['chown', '--from=a', 'b', 'f'], true, ['metadata f']],
    [['chgrp', 'staff', 'f'], true, ['metadata f']],
  ]);
});

describe('readers', () => {
  table([
    [['cat', 'a', 'b'], true, ['read a', 'read b']],
    [['cat', '-n', '--', '-weird'], true, ['read -weird']],
    [['cat'], true, []],
    [['head', '-n', '5', 'f'], true, ['read f']],
    [['head', '-5', 'f'], true, ['read f']],
    [['head', '-c100', 'f'], true, ['read f']],
    [['tail', '-f', 'log'], true, ['read log']],
    [['tail', '-n', '+3', 'f'], true, ['read f']],
    [['less', '-R', 'f'], true, ['read f']],
    [['less', '+G', 'f'], true, ['read f']],
    [['less', '-o', 'log', 'f'], true, ['write log (option)', 'read f']],
    [['more', 'f'], true, ['read f']],
    [['grep', 'pat', 'f'], true, ['read f']],
    [['grep', '-r', 'pat', 'dir'], true, ['read dir']],
    [['grep', '-e', 'a', '-e', 'b', 'f'], true, ['read f']],
    [['grep', '-f', 'pats.txt', 'f'], true, ['read pats.txt (option)', 'read f']],
    [['grep', '-A', '3', '-i', 'pat', 'f'], true, ['read f']],
    [['grep', '-C2', 'pat', 'f'], true, ['read f']],
    [['grep', 'pat'], true, []],
    [['grep', '-rn', 'pat', 'src'], true, ['read src']],
    [['egrep', 'a|b', 'f'], true, ['read f']],
    [['fgrep', 'x', 'f'], true, ['read f']],
    [['grep', '--frobnicate', 'x', 'f'], false, ['read f']],
    [['grep', 'pat', dyn('"$f"')], false, ['read ⟨$⟩']],
    [['rg', 'pat', 'src'], true, ['read src']],
    [['rg', '-e', 'pat', 'src', 'lib'], true, ['read src', 'read lib']],
    [['rg', '--files', 'src'], true, ['read src']],
    [['rg', '-g', '*.ts', '-t', 'js', 'pat'], true, ['read .']],
    [['grep', '-r', 'pat'], true, ['read .']],
    [['rg', '--type-list'], true, []],
    [['wc', '-l', 'f'], true, ['read f']],
    [['wc', '--files0-from=list'], false, ['read list (option)', 'read ⟨$⟩ (option)']],
    [['sort', 'f', '-o', 'out'], true, ['write out (option)', 'read f']],
    [['sort', '-k', '2', '-t', ',', 'f'], true, ['read f']],
    [['sort', '-u', dyn('"$f"')], false, ['read ⟨$⟩']],
    [['uniq', 'in', 'out'], true, ['read in', 'write out']],
    [['uniq', '-c', 'in'], true, ['read in']],
    // A folder operand is read entry by entry, as its links lead.
    [
      ['diff', '-u', 'a', 'b'],
      true,
      [
        'read a',
        'read b',
        'read a/*',
        'read a/.[!.]*',
        'read a/..?*',
        'read b/*',
        'read b/.[!.]*',
        'read b/..?*',
      ],
    ],
    [
      ['diff', '-r', '-x', '*.o', 'd1', 'd2'],
      true,
      [
        'read d1',
        'read d2',
        'read d1/*',
        'read d1/.[!.]*',
        'read d1/..?*',
        'read d2/*',
        'read d2/.[!.]*',
        'read d2/..?*',
      ],
    ],
    [['cmp', 'a', 'b', '10'], true, ['read a', 'read b']],
    [['file', 'f'], true, ['read f']],
    [['file', '-f', 'names'], false, ['read names (option)', 'read ⟨$⟩ (option)']],
    [['stat', '-c', '%s', 'f'], true, ['read f']],
    [['md5sum', 'f'], true, ['read f']],
    [['sha256sum', '-c', 'sums'], false, ['read ⟨$⟩ (option)', 'read sums']],
    [['base64', '-d', 'f'], true, ['read f']],
    [['xxd', 'f'], true, ['read f']],
    [['xxd', '-r', '-p', 'hex', 'bin'], true, ['read hex', 'write bin']],
    [['od', '-An', '-tx1', 'f'], true, ['read f']],
    [['strings', '-n', '8', 'bin'], true, ['read bin']],
    [['cut', '-d,', '-f1', 'f'], true, ['read f']],
    [['tr', 'a', 'b'], true, []],
    [['nl', 'f'], true, ['read f']],
    [['tac', 'f'], true, ['read f']],
    [['rev', 'f'], true, ['read f']],
    [['column', '-t', '-s', ',', 'f'], true, ['read f']],
    [['comm', '-12', 'a', 'b'], true, ['read a', 'read b']],
    [['paste', '-d', ',', 'a', 'b'], true, ['read a', 'read b']],
    [['source', 'env.sh', 'arg'], true, ['read env.sh']],
    [['.', './env.sh'], true, ['read ./env.sh']],
  ]);
});

describe('jq, yq, awk', () => {
  table([
    [['jq', '.a', 'f', 'g'], true, ['read f', 'read g']],
    [['jq', '-r', '.', 'f'], true, ['read f']],
    [['jq', '-n', '{}'], true, []],
    [['jq', '--arg', 'x', '1', '.a', 'f'], true, ['read f']],
    [['jq', '--slurpfile', 's', 'other.json', '.a', 'f'], true, ['read other.json (option)', 'read f']],
    [['jq', '-f', 'prog.jq', 'f'], true, ['read prog.jq (option)', 'read f']],
    [['jq', '-n', '--args', '$ARGS', 'x', 'y'], true, []],
    [['jq', '.', dyn('"$f"')], false, ['read ⟨$⟩']],
    [['yq', '.a', 'f.yaml'], true, ['read f.yaml']],
    [['yq', '-i', '.a = 1', 'f.yaml'], true, ['write f.yaml']],
    [['yq', 'e', '.a', 'f.yaml'], true, ['read f.yaml']],
    [['awk', '{print $1}', 'f'], true, ['read f']],
    [['awk', '-F:', '{print $1}', '/etc/passwd'], true, ['read /etc/passwd']],
    [['awk', '{print x}', 'x=1', 'f'], true, ['read f']],
    [['awk', '-f', 'prog.awk', 'f'], false, ['read prog.awk (option)', 'read f']],
    [['awk', '{print > "out"}', 'f'], false, ['write out (option)', 'read f']],
    [['awk', 'BEGIN { getline l < ".env" }'], false, ['read .env (option)']],
    [['gawk', '-i', 'inplace', '{sub(/a/, "b")} 1', 'f'], false, ['write f']],
    [['awk', dyn('"{print $n}"', '{print ⟨$⟩}'), 'f'], false, ['read f']],
    [['awk', '-f', '-', 'f'], false, ['read f']],
    [['gawk', '-E', '/dev/stdin', 'x=1'], false, ['read x=1']],
    [['gawk', '-i', 'lib', '{ print }', 'f'], false, ['read lib (option)', 'read f']],
    [['gawk', '-l', 'filefuncs', '{ print }', 'f'], false, ['read f']],
    [['gawk', '-d', '{ print }', 'f'], true, ['write awkvars.out (option)', 'read f']],
    [['gawk', '--profile=prof.out', '{ print }', 'f'], true, ['write prof.out (option)', 'read f']],
    [['awk', '-v', 'ARGC=3', '{ print }', 'f'], false, ['read f']],
    [['awk', '{ print }', 'ARGV=x', 'f'], false, ['read f']],
    [['awk', '-W', 'interactive', '{ print }', 'f'], true, ['read f']],
    // mawk -W exec makes the next word the program file; gawk -W reads its own long options.
    [['mawk', '-W', 'exec', 'x.awk', 'f'], false, ['read x.awk', 'read f']],
    [['gawk', '-Wsource={ print }', 'f'], false, ['read f']],
    [['awk', '{ print > "/dev/stderr" }', 'f'], true, ['read f']],
  ]);
});

describe('listing and find', () => {
  table([
    [['ls', '-la', 'dir'], true, ['read dir']],
    [['ls'], true, ['read .']],
    [['du', '-sh'], true, ['read .']],
    [['ls', '--color=auto', '-I', '*.o', 'd'], true, ['read d']],
    [['du', '-sh', 'dir'], true, ['read dir']],
    [['tree', '-L', '2', 'dir'], true, ['read dir']],
    [['tree', '-o', 'out.txt'], true, ['read .', 'write out.txt (option)']],
    [['find', '.', '-name', 'x'], true, ['read .']],
    [['find', 'a', 'b', '-type', 'f'], true, ['read a', 'read b']],
    [['find', 'src', '-name', '*.o', '-delete'], true, ['read src', 'delete src']],
    [['find', '-name', '*.o', '-delete'], true, ['read .', 'delete .']],
    [['find', '-type', 'f'], true, ['read .']],
    [['find', '.', '-fprint', 'out'], true, ['read .', 'write out (option)']],
    [['find', '.', '-newer', 'ref'], true, ['read .', 'read ref (option)']],
    [['find', '.', '-exec', 'rm', '{}', ';'], true, ['read .']],
    [['find', dyn('"$d"'), '-name', 'x'], false, ['read ⟨$⟩']],
    [['find', '.', '-frobnicate'], false, ['read .']],
  ]);
});

describe('git', () => {
  table([
    [['git', 'add', 'a', 'b'], true, ['read a', 'read b']],
    [['git', 'add', '-A'], true, []],
    [['git', 'rm', 'a'], true, ['delete a']],
    [['git', 'rm', '-r', '--cached', 'a'], true, []],
    [['git', 'rm', '-n', 'a'], true, []],
    [['git', 'mv', 'a', 'b'], true, ['read a', 'delete a', 'write b']],
    // The files restored below the named paths are read from the index and the revision at decision time.
    [['git', 'checkout', '--', 'a'], false, ['write . (tree)']],
    [['git', 'checkout', 'HEAD~1', '--', 'a', 'b'], false, ['write . (tree)']],
    [['git', 'checkout', 'main'], false, ['write . (tree)']],
    [['git', 'switch', '-c', 'feature/x'], false, []],
    [['git', 'switch', '--create=x'], false, []],
    [['git', 'checkout', '-q', '-b', 'x'], false, []],
    [['git', 'switch', '-c', 'x', 'origin/main'], false, ['write . (tree)']],
    [['git', 'checkout', '-b', 'x', 'main'], false, ['write . (tree)']],
    [['git', 'checkout', '--orphan', 'x'], false, ['write . (tree)']],
    [['git', 'switch', '-f', '-c', 'x'], false, ['write . (tree)']],
    [['git', 'restore', 'a'], true, ['write a (tree)']],
    [['git', 'restore', '--staged', 'a'], true, []],
    [['git', 'restore', '--source=HEAD', '--staged', '--worktree', 'a'], true, ['write a (tree)']],
    [['git', 'status'], true, []],
    [['git', 'log', '--oneline'], true, []],
    [['git', 'diff', '--output=out.patch'], true, ['write out.patch (option)', 'read .']],
    [['git', 'show', '--output', 'o', 'HEAD'], true, ['write o (option)', 'read .']],
    [['git', 'blame', '.env'], true, ['read .env']],
    [['git', 'blame', '-L', '1,5', 'HEAD~1', '--', 'src/a.ts'], true, ['read src/a.ts']],
    [['git', 'grep', 'KEY', '--', '.env'], true, ['read .env']],
    [['git', 'grep', '-e', 'KEY', 'src'], true, ['read src', 'read .']],
    [['git', 'diff', '--', '.env'], true, ['read .env']],
    [['git', 'diff', '.env'], true, ['read .env']],
    [['git', 'diff', '--no-index', '/etc/passwd', '/dev/null'], true, ['read /etc/passwd', 'read /dev/null']],
    [['git', 'show', 'HEAD:.env'], true, ['read .env']],
    [['git', 'show', ':0:.env'], true, ['read .env']],
    [['git', 'cat-file', '-p', 'main:src/a.ts'], true, ['read src/a.ts']],
    [['git', 'diff', 'HEAD~1', 'HEAD'], true, ['read .']],
    [['git', 'log', '-n', '5', '--author', 'x', 'main..feature'], true, []],
    [['git', 'show', 'a1b2c3d'], true, ['read a1b2c3d', 'read .']],
    [['git', 'log', '-p', '-S', 'secret', '-C', 'HEAD'], true, ['read .']],
    [['git', 'blame', '--ignore-revs-file', 'revs', 'f'], true, ['read revs (option)', 'read f']],
    [['git', 'grep', '-f', 'pats', 'HEAD'], true, ['read pats (option)', 'read .']],
    [['git', 'log', '-p', dyn('"$f"')], false, ['read ⟨$⟩', 'read .']],
    [['git', 'branch'], true, []],
    [['git', 'branch', '-D', 'x'], false, []],
    [['git', 'stash', 'list'], true, []],
    [['git', 'config', '--get', 'user.name'], true, []],
    [['git', 'config', 'user.name', 'x'], true, ['write .git/config (option)']],
    [['git', 'config', 'core.fsmonitor', 'touch p'], true, ['write .git/config (option)']],
    [['git', 'config', '--global', 'core.pager', 'less'], true, ['write ~/.gitconfig (option)']],
    [['git', 'config', '--system', '--unset', 'a.b'], true, ['write /etc/gitconfig (option)']],
    [['git', 'config', '--worktree', 'a.b', 'c'], true, ['write .git/config.worktree (option)']],
    [['git', 'config', '--fil', 'f.cfg', 'a.b', 'c'], true, ['read f.cfg (option)', 'write f.cfg (option)']],
    [['git', 'config', '-f', '.env', '--list'], true, ['read .env (option)']],
    [['git', 'config', 'set', 'a.b', 'c'], true, ['write .git/config (option)']],
    [['git', 'config', 'user.name'], true, []],
    [['git', 'config', '--list'], true, []],
    [['git', 'config', '--add', 'a.b', 'c'], true, ['write .git/config (option)']],
    [['git', '-C', 'other', 'config', 'a.b', 'c'], false, ['write other/⟨$⟩ (option)']],
    [['git', 'commit', '-m', 'x'], false, []],
    [['git', 'commit', '-F', 'msg.txt'], false, ['read msg.txt (option)']],
    [['git', 'commit', '--file=msg.txt'], false, ['read msg.txt (option)']],
    [['git', 'commit', '--fil', 'msg.txt'], false, ['read msg.txt (option)']],
    [['git', 'commit', '-t', 'tpl'], false, ['read tpl (option)']],
    [['git', 'commit', '-aF', 'msg'], false, ['read msg (option)']],
    [['git', 'commit', '-F', '-'], false, []],
    [['git', 'tag', '-a', 'v1', '-F', 'notes'], false, ['read notes (option)']],
    [['git', 'merge', '-F', 'm', 'topic'], false, ['read m (option)', 'write . (tree)']],
    [['git', 'apply', 'fix.patch'], false, ['read fix.patch', 'write . (tree)']],
    [['git', 'am', 'a.mbox'], false, ['read a.mbox', 'write . (tree)']],
    [['git', 'format-patch', '-o', 'out', 'HEAD~1'], false, ['write out (option)', 'read .']],
    [
      ['git', 'archive', '--add-file=.env', '-o', 'o.tgz', 'HEAD'],
      false,
      ['read .env (option)', 'write o.tgz (option)', 'read .'],
    ],
    [['git', 'notes', 'add', '-F', 'n.txt'], false, ['read n.txt (option)']],
    [['git', 'hash-object', '-t', 'blob', '-w', 'f'], false, ['read f']],
    [['git', '-C', 'other', 'add', 'a'], false, ['read other/a']],
    [['git', '-C', 'other', 'commit', '-F', '/abs/m'], false, ['read /abs/m (option)']],
    [['git', '--version'], true, []],
  ]);
});

describe('network tools', () => {
  table([
    [['curl', 'https://x'], true, []],
    [['curl', '-sSL', 'https://x'], true, []],
    [['curl', '-o', 'out', 'https://x'], true, ['write out (option)']],
    [['curl', '--output', 'out', 'https://x'], true, ['write out (option)']],
    [['curl', '-so', 'out', 'https://x'], true, ['write out (option)']],
    [['curl', '-O', 'https://x/f'], false, ['write f (option)']],
    [['curl', '-O', '--output-dir', '/tmp', 'https://x/a/.envrc?x=1'], false, ['write /tmp/.envrc (option)']],
    [['curl', '-OJ', 'https://x/f'], false, ['write ⟨$⟩ (option)']],
    [['curl', '--remote-name', 'https://x/f'], false, ['write f (option)']],
    [['curl', '-d', '@data.json', 'https://x'], true, ['read data.json (option)']],
    [['curl', '-d', 'a=1', 'https://x'], true, []],
    [['curl', '--data-binary', '@-', 'https://x'], true, []],
    [['curl', '-F', 'file=@up.bin;type=x', 'https://x'], true, ['read up.bin (option)']],
    [['curl', '-T', 'up', 'https://x'], true, ['read up (option)']],
    [['curl', '-c', 'jar', '-b', 'jar', 'https://x'], true, ['write jar (option)', 'read jar (option)']],
    [['curl', '-b', 'a=1', 'https://x'], true, []],
    [['curl', '-D', '-', 'https://x'], true, []],
    [
      ['curl', '-K', 'cfg', 'https://x'],
      false,
      ['read cfg (option)', 'read ⟨$⟩ (option)', 'write ⟨$⟩ (option)'],
    ],
    [['curl', '--frobnicate', 'https://x'], false, []],
    [['wget', '-O', 'out', 'https://x'], true, ['write out (option)']],
    [['wget', '-qO-', 'https://x'], true, []],
    [['wget', 'https://x/f'], false, ['write f (option)']],
    [['wget', 'https://x/'], false, ['write index.html (option)']],
    [
      ['wget', '-P', '.git/hooks', 'https://x/post-checkout'],
      false,
      ['write .git/hooks/post-checkout (option)'],
    ],
    [['wget', '-r', 'https://x/'], false, ['write . (option)']],
    [['wget', '-i', 'urls.txt', '-O', 'all'], true, ['write all (option)', 'read urls.txt (option)']],
    [['wget', '-r', '-O', 'x', 'https://x'], false, ['write x (option)']],
    [['rsync', '-av', 'src/', 'dst/'], true, ['read src/', 'write dst/ (tree)']],
    [['rsync', '--remove-source-files', 'a', 'h:b'], true, ['read a', 'delete a', 'write h:b']],
    [['rsync', '-a', '--delete', 'a/', 'b/'], true, ['read a/', 'write b/ (tree)', 'delete b/']],
    [['rsync', '--exclude-from=ex', 'a', 'b'], true, ['read ex (option)', 'read a', 'write b']],
    [['scp', '-i', 'key', 'a', 'host:b'], true, ['read key (option)', 'read a', 'write host:b']],
  ]);
});

describe('tar', () => {
  table([
    [['tar', '-czf', 'out.tgz', 'dir'], true, ['write out.tgz (option)', 'read dir']],
    [['tar', 'czf', 'out.tgz', 'a', 'b'], true, ['write out.tgz (option)', 'read a', 'read b']],
    [['tar', '--create', '--file=out.tar', 'dir'], true, ['write out.tar (option)', 'read dir']],
    [['tar', 'cf', '-', 'dir'], true, ['read dir']],
    [['tar', '--remove-files', '-cf', 'a.tar', 'd'], true, ['write a.tar (option)', 'read d', 'delete d']],
    [['tar', '-rf', 'a.tar', 'f'], true, ['write a.tar (option)', 'read f']],
    [['tar', 'xzf', 'a.tgz'], false, ['read a.tgz (option)', 'write . (tree)']],
    [['tar', '-xf', 'a.tar', '-C', '/tmp'], false, ['read a.tar (option)', 'write /tmp (option) (tree)']],
    [['tar', '-xOf', 'a.tgz', 'member'], true, ['read a.tgz (option)']],
    [['tar', '-tf', 'a.tar'], true, ['read a.tar (option)']],
    [['tar', '-C', '/src', '-cf', 'a.tar', 'd'], true, ['write a.tar (option)', 'read /src/d']],
    [
      ['tar', '-cf', 'a.tar', 'a', '-C', '~', '.ssh'],
      true,
      ['write a.tar (option)', 'read a', 'read ~/.ssh'],
    ],
    [
      ['tar', '-cf', 'a.tar', '-T', 'list'],
      false,
      ['read list (option)', 'read ⟨$⟩ (option)', 'write a.tar (option)'],
    ],
    [['tar', '-f', 'a.tar'], false, []],
  ]);
});

describe('commands with no file effects', () => {
  test.each([
    'echo',
    'printf',
    'true',
    'false',
    'pwd',
    'cd',
    'exit',
    'export',
    'printenv',
    'date',
    'whoami',
    'id',
    'uname',
    'hostname',
    'which',
    'type',
  ])('%s', (program) => {
    expect(effects(program, 'arg')).toEqual({ known: true, effects: [] });
  });

  table([
    [['date', '-r', 'file'], true, ['read file (option)']],
    [['echo', '>', 'not-a-redirect'], true, []],
  ]);
});

describe('wrappers, shells and interpreters', () => {
  table([
    [['timeout', '5', 'rm', 'x'], true, []],
    [['sudo', '-u', 'root', 'rm', 'x'], true, []],
    [['env', 'A=1', 'cmd'], true, []],
    [['xargs', 'rm'], true, []],
    [['xargs', '-a', 'list', 'rm'], true, ['read list (option)']],
    [['xargs', '--max-args=2', '--arg-file=list', 'rm'], true, ['read list (option)']],
    [['time', '-o', 'out', 'cmd'], true, ['write out (option)']],
    [['strace', '-o', 'trace.txt', 'cmd'], true, ['write trace.txt (option)']],
    [['flock', '/tmp/lock', 'cmd'], true, ['create /tmp/lock']],
    [['flock', '9'], true, []],
    [['script', '-c', 'make', 'log.txt'], true, ['write log.txt']],
    [['script', '-c', 'make'], false, []],
    [['bash', '-c', 'rm x'], true, []],
    [['bash', 'script.sh'], false, ['read script.sh']],
    [['bash'], false, []],
    [['python3', 'x.py'], false, ['read x.py']],
    [['python3', '-c', 'open("f","w")'], false, []],
    [['node', '-e', 'x'], false, []],
    [['npm', 'test'], false, []],
    [['sudo', dyn('"$cmd"')], false, []],
  ]);
});

test('an unknown command has unknown effects', () => {
  expect(effects('frobnicate', 'a', 'b')).toEqual({ known: false, effects: [] });
  expect(effects(dyn('$cmd'), 'a')).toEqual({ known: false, effects: [] });
});

test('effect paths are the command words themselves, spans included', () => {
  const cmd = command(['cp', 'a', 'b']);
  const result = effectsOf(cmd);
  expect(result.effects.map((e) => e.path).slice(0, 2)).toEqual([cmd.argv[1], cmd.argv[2]]);
});

test('an attached option value keeps its place in the source', () => {
  const cmd = command(['cp', '--target-directory=dir', 'a']);
  const [target] = effectsOf(cmd).effects;
  const start = cmd.argv[1]!.span.start + '--target-directory='.length;
  expect(target?.path).toMatchObject({
    value: 'dir',
    text: 'dir',
    span: { start, end: cmd.argv[1]!.span.end },
  });
});

describe('archives and compressors', () => {
  table([
    [['patch', '-p1', '-i', 'x.patch'], false, ['read x.patch (option)', 'write . (tree)']],
    [['patch', '--dry-run', '-p1', '-i', 'x.patch'], false, ['read x.patch (option)']],
    [['patch', 'a.txt', 'x.patch'], true, ['read x.patch', 'write a.txt']],
    [['cpio', '-idum', '-D', 'out'], false, ['write out (option) (tree)']],
    [['cpio', '-it'], false, []],
    [['zip', '-r', 'o.zip', '~/.ssh'], true, ['read o.zip', 'write o.zip', 'read ~/.ssh']],
    [['zip', 'o', '.env'], true, ['read o.zip', 'write o.zip', 'read .env']],
    [['zip', 'o.zip', '-r', 'docs', '-x', '*.tmp'], true, ['read o.zip', 'write o.zip', 'read docs']],
    [['zip', '-m', 'o.zip', 'a'], true, ['read o.zip', 'write o.zip', 'read a', 'delete a']],
    [['zip', '-d', 'o.zip', 'member'], true, ['read o.zip', 'write o.zip']],
    [
      ['zip', '-O', 'new.zip', 'o.zip', 'a'],
      true,
      ['write new.zip (option)', 'read o.zip', 'write o.zip', 'read a'],
    ],
    [['zip', '-@', 'o.zip'], false, ['read ⟨$⟩ (option)', 'read o.zip', 'write o.zip']],
    [['zip', '--recurse-paths', 'o.zip', 'd'], true, ['read o.zip', 'write o.zip', 'read d']],
    [['zip', '--frobnicate', 'o.zip', 'd'], false, ['read o.zip', 'write o.zip', 'read d']],
    [['unzip', '-l', 'o.zip'], true, ['read o.zip']],
    [['unzip', 'o.zip', '-d', 'out'], false, ['read o.zip', 'write out (option) (tree)']],
    [['unzip', '-o', 'o.zip'], false, ['read o.zip', 'write . (tree)']],
    [['7z', 'a', 'o.7z', '~/.ssh'], true, ['read o.7z', 'write o.7z', 'read ~/.ssh']],
    [['7z', 'x', 'o.7z', '-oout'], false, ['read o.7z', 'write out (option) (tree)']],
    [['7z', 'l', 'o.7z'], true, ['read o.7z']],
    [['7z', 'a', 'o.7z', '@list'], false, ['read list', 'read ⟨$⟩ (option)', 'read o.7z', 'write o.7z']],
    [['gzip', 'a'], true, ['read a', 'delete a', 'create a.gz']],
    [['gzip', '-k', 'a'], true, ['read a', 'create a.gz']],
    [['gzip', '-c', 'a'], true, ['read a']],
    [['gunzip', 'a.gz'], true, ['read a.gz', 'delete a.gz', 'create a']],
    [['gzip', '-d', 'a.gz'], true, ['read a.gz', 'delete a.gz', 'create a']],
    [['xz', '--files=list'], false, ['read list (option)', 'read ⟨$⟩ (option)']],
    [['zstd', 'a', '-o', 'b.zst'], true, ['write b.zst (option)', 'read a', 'delete a', 'create a.zst']],
    [['gzip', '--help'], true, []],
  ]);
});

describe('keys and certificates', () => {
  table([
    [['ssh', '-i', '~/.ssh/id_rsa', 'host'], true, ['read ~/.ssh/id_rsa (option)']],
    [['ssh', 'host', '-F', 'cfg'], true, ['read cfg (option)']],
    [['ssh', '-E', 'log', 'host', 'ls'], true, ['write log (option)']],
    [['ssh', '-o', 'IdentityFile=.env', 'host'], true, ['read .env (option)']],
    [['ssh', '-o', 'UserKnownHostsFile /tmp/k', 'host'], true, ['write /tmp/k (option)']],
    [['ssh-keygen', '-y', '-f', 'key'], true, ['read key (option)']],
    [
      ['ssh-keygen', '-t', 'ed25519', '-f', 'k'],
      true,
      ['read k (option)', 'write k (option)', 'write k.pub (option)'],
    ],
    [['openssl', 'enc', '-in', '.env', '-out', 'x'], true, ['read .env (option)', 'write x (option)']],
    [['openssl', 'rsa', '-passin', 'file:pw', '-in', 'k'], true, ['read pw (option)', 'read k (option)']],
    [['openssl', 'dgst', '-sha256', 'file'], true, ['read file']],
  ]);
});

describe('configuration commands', () => {
  table([
    [['npm', 'config', 'set', 'script-shell', '/tmp/x'], true, ['write ~/.npmrc (option)']],
    [['npm', 'set', 'script-shell=/tmp/x'], true, ['write ~/.npmrc (option)']],
    [['npm', 'config', 'set', 'a=b', '--location', 'project'], true, ['write .npmrc (option)']],
    [['npm', 'config', 'set', 'a=b', '--location=project'], true, ['write .npmrc (option)']],
    [['npm', 'config', 'delete', 'a'], true, ['write ~/.npmrc (option)']],
    [['npm', 'config', 'edit'], true, ['write ~/.npmrc (option)']],
    [['npm', 'config', 'set', 'a=b', '--userconfig', 'u.rc'], true, ['write u.rc (option)']],
    [['npm', 'config', 'get', 'registry'], true, []],
    [['npm', 'config', 'list'], true, []],
    [
      ['pnpm', 'config', 'set', 'a', 'b'],
      true,
      ['write ~/.config/pnpm/rc (option)', 'write ~/.npmrc (option)'],
    ],
    [['yarn', 'config', 'set', 'a', 'b'], true, ['write .yarnrc.yml (option)', 'write ~/.yarnrc (option)']],
    [
      ['pip', 'config', 'set', 'global.index-url', 'x'],
      true,
      ['write ~/.config/pip/pip.conf (option)', 'write ~/.pip/pip.conf (option)'],
    ],
    [['pip', 'config', '--site', 'set', 'a', 'b'], true, ['write ⟨$⟩ (option)']],
  ]);
});

describe('git makes the folders leading to the one it creates', () => {
  test.each([
    [
      ['git', 'init', '--object-format', '1', 'c:/x'],
      ['write c:', 'write c:/x'],
    ],
    [
      ['git', 'clone', '.', 'sub/dir/copy'],
      ['write sub', 'write sub/dir', 'write sub/dir/copy (tree)'],
    ],
    [
      ['git', 'init', '../x/y'],
      ['write ../x', 'write ../x/y'],
    ],
  ])('%j', (items, expected) => {
    expect(effects(...items).effects).toEqual(expected);
  });
});
