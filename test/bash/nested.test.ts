import { describe, expect, test } from 'vitest';
import { nestedOf } from '../../src/bash/nested.js';
import type { CommandView, NestedSpec, Word } from '../../src/bash/types.js';
import { assignment, command, dyn, word } from '../support/words.js';

type Item = string | Word;

function show(spec: NestedSpec): string {
  switch (spec.kind) {
    case 'argv': {
      const env = spec.assignments?.map((a) => `${a.name}=${a.value.value}`).join(' ');
      const extra = spec.link.extraArgs ? ' +args' : '';
      return `${spec.link.kind} ${spec.link.via}${extra}: ${env ? `${env} ` : ''}${spec.words.map((w) => w.value).join(' ')}`;
    }
    case 'shell':
      return `shell ${spec.via}${spec.extraArgs ? ' +args' : ''}: ${spec.script.value}${spec.script.static ? '' : ' (dynamic)'}`;
    case 'code':
      return `${spec.exec.kind} ${spec.exec.via}: ${spec.exec.code ?? '?'}`;
    case 'unresolved':
      return 'unresolved';
  }
}

function run(...items: Item[]): string[] {
  return nestedOf(command(items)).map(show);
}

function label(items: Item[]): string {
  return items.map((item) => (typeof item === 'string' ? item : item.text)).join(' ');
}

function table(rows: [Item[], string[]][]): void {
  test.each(rows.map(([items, expected]) => [label(items), items, expected] as const))(
    '%s',
    (_, items, expected) => {
      expect(run(...items)).toEqual(expected);
    },
  );
}

/** The view the analyzer builds for an argv spec, to follow a chain of wrappers. */
function inner(spec: NestedSpec | undefined): CommandView {
  if (spec?.kind !== 'argv') throw new Error(`expected an argv spec, got ${spec?.kind}`);
  const first = spec.words[0]!;
  return { argv: spec.words, assignments: spec.assignments ?? [], program: first.value.split('/').at(-1)! };
}

describe('wrappers', () => {
  test('each call returns one level: sudo → timeout → nice → rm', () => {
    const sudo = nestedOf(command(['sudo', '-u', 'root', 'timeout', '5', 'nice', 'rm', 'x']));
    expect(sudo.map(show)).toEqual(['wrapper sudo: timeout 5 nice rm x']);
    const timeout = nestedOf(inner(sudo[0]));
    expect(timeout.map(show)).toEqual(['wrapper timeout: nice rm x']);
    const nice = nestedOf(inner(timeout[0]));
    expect(nice.map(show)).toEqual(['wrapper nice: rm x']);
    expect(nestedOf(inner(nice[0]))).toEqual([]);
  });

  test('the nested words are the original words, spans included', () => {
    const cmd = command(['timeout', '5', 'rm', 'x']);
    const [spec] = nestedOf(cmd);
    expect(spec?.kind === 'argv' && spec.words[0]).toBe(cmd.argv[2]);
  });

  describe('sudo', () => {
    table([
      [['sudo', '-u', 'x', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '-ux', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '-u#1000', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '--user=root', '--preserve-env=PATH', 'cmd', '-u', 'y'], ['wrapper sudo: cmd -u y']],
      [['sudo', '--preserve-env', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '-E', '-H', '-g', 'wheel', '--', 'cmd', 'a'], ['wrapper sudo: cmd a']],
      [['sudo', '-nEH', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '-D', '/tmp', '-C', '3', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '-k', 'rm', 'x'], ['wrapper sudo: rm x']],
      [['sudo', '-hhost', 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', 'A=1', 'B=2', 'cmd'], ['wrapper sudo: A=1 B=2 cmd']],
      [['sudo', '-s', 'ls', '-l'], ['shell sudo -s: ls -l']],
      [['sudo', '-i', 'make', 'install'], ['shell sudo -i: make install']],
      [['sudo', '-iu', 'root'], ['unresolved']],
      [['sudo', '-s'], ['unresolved']],
      [['sudo', '-e', '/etc/hosts'], ['program-option -e: ?']],
      [['sudoedit', '/etc/hosts'], ['program-option sudoedit: ?']],
      [['sudo', '-l'], []],
      [['sudo', '-l', 'rm', 'x'], []],
      [['sudo', '-v'], []],
      [['sudo', '-K'], []],
      [['sudo', '-V'], []],
      [['sudo', '-h'], []],
      [['sudo'], []],
      [['sudo', '-Z', 'cmd'], ['unresolved']],
      [['sudo', dyn('$cmd')], ['unresolved']],
      [['sudo', dyn('"$cmd"')], ['unresolved']],
      [['sudo', '-u', dyn('$U'), 'cmd'], ['unresolved']],
      [['sudo', '-u', dyn('"$U"'), 'cmd'], ['wrapper sudo: cmd']],
      [['sudo', '--', dyn('"$cmd"'), 'a'], ['unresolved']],
      [['nice', '--', dyn('"$cmd"'), 'a'], ['wrapper nice: ⟨$⟩ a']],
      [['sudo', dyn('$X=1', '⟨$⟩=1'), 'cmd'], ['unresolved']],
    ]);

    test('sudo NAME=value: the assignment reaches the nested command', () => {
      const [spec] = nestedOf(command(['sudo', 'PAGER=evil', 'git', 'log']));
      expect(show(spec!)).toBe('wrapper sudo: PAGER=evil git log');
      expect(nestedOf(inner(spec)).map(show)).toEqual(['shell PAGER: evil']);
    });
  });

  describe('timeout', () => {
    table([
      [['timeout', '5', 'cmd', 'a'], ['wrapper timeout: cmd a']],
      [['timeout', '-s', 'KILL', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '-sKILL', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '-k', '5', '10', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '-k5', '10', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '--signal=KILL', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '--signal', 'KILL', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '--sig=TERM', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '--foreground', '--preserve-status', '-v', '5', 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '5', 'cmd', '-s', 'x'], ['wrapper timeout: cmd -s x']],
      [['timeout', '5'], []],
      [['timeout', '--help'], []],
      [['timeout', dyn('$T'), 'cmd'], ['unresolved']],
      [['timeout', dyn('"$T"'), 'cmd'], ['unresolved']],
      [['timeout', '--', dyn('"$T"'), 'cmd'], ['wrapper timeout: cmd']],
      [['timeout', '5', dyn('"$cmd"')], ['wrapper timeout: ⟨$⟩']],
      [['timeout', '-s', dyn('$S'), '5', 'cmd'], ['unresolved']],
      [['timeout', '--bogus', '5', 'cmd'], ['unresolved']],
    ]);
  });

  describe('nice, nohup, stdbuf, time, setsid, ionice', () => {
    table([
      [['nice', 'cmd'], ['wrapper nice: cmd']],
      [['nice', '-n', '5', 'cmd'], ['wrapper nice: cmd']],
      [['nice', '-n5', 'cmd'], ['wrapper nice: cmd']],
      [['nice', '-5', 'cmd'], ['wrapper nice: cmd']],
      [['nice', '--adjustment=5', 'cmd'], ['wrapper nice: cmd']],
      [['nice'], []],
      [['nohup', 'cmd', '-x'], ['wrapper nohup: cmd -x']],
      [['nohup', '--', 'cmd'], ['wrapper nohup: cmd']],
      [['nohup'], []],
      [['stdbuf', '-o0', '-eL', 'cmd'], ['wrapper stdbuf: cmd']],
      [['stdbuf', '-i', '0', 'cmd'], ['wrapper stdbuf: cmd']],
      [['stdbuf', '--output=L', 'cmd'], ['wrapper stdbuf: cmd']],
      [['time', '-p', 'cmd'], ['wrapper time: cmd']],
      [['time', '-o', 'out', '-f', '%e', 'cmd'], ['wrapper time: cmd']],
      [['setsid', '-f', 'cmd'], ['wrapper setsid: cmd']],
      [['setsid', '-w', '--', 'cmd'], ['wrapper setsid: cmd']],
      [['ionice', '-c', '3', 'cmd'], ['wrapper ionice: cmd']],
      [['ionice', '-c3', '-n7', '-t', 'cmd'], ['wrapper ionice: cmd']],
      [['ionice', '-p', '123'], []],
      [['ionice'], []],
    ]);
  });

  describe('command, builtin, exec', () => {
    table([
      [['command', 'ls', '-l'], ['wrapper command: ls -l']],
      [['command', '-p', 'ls'], ['wrapper command: ls']],
      [['command', '-v', 'git'], []],
      [['command', '-V', 'git'], []],
      [['command', '-pv', 'git'], []],
      [['command'], []],
      [['builtin', 'echo', 'x'], ['wrapper builtin: echo x']],
      [['exec', 'cmd', 'a'], ['wrapper exec: cmd a']],
      [['exec', '-a', 'name', 'cmd'], ['wrapper exec: cmd']],
      [['exec', '-cl', 'cmd'], ['wrapper exec: cmd']],
      [['exec'], []],
    ]);
  });

  describe('env', () => {
    table([
      [['env', '-i', 'X=1', 'cmd', 'a'], ['wrapper env: X=1 cmd a']],
      [['env', 'X=1', 'Y=', 'cmd'], ['wrapper env: X=1 Y= cmd']],
      [['env', '-u', 'HOME', 'cmd'], ['wrapper env: cmd']],
      [['env', '--unset=HOME', '-0', 'cmd'], ['wrapper env: cmd']],
      [['env', '-C', '/tmp', 'cmd'], ['wrapper env: cmd']],
      [['env', '-', 'X=1', 'cmd'], ['wrapper env: X=1 cmd']],
      [['env', '--', 'X=1', 'cmd'], ['wrapper env: X=1 cmd']],
      [['env'], []],
      [['env', '-i'], []],
      [['env', 'X=1'], []],
      [['env', '-S', 'python3 -u', 'x.py'], ['shell env -S: env python3 -u x.py']],
      [['env', '-S', 'A=1 cmd', 'an arg'], ["shell env -S: env A=1 cmd 'an arg'"]],
      [['env', '-Sperl -w'], ['shell env -S: env perl -w']],
      [['env', '-S', 'rm\\_-rf'], ['unresolved']],
      [['env', '-S', dyn('"$s"')], ['unresolved']],
      [['env', dyn('$X'), 'cmd'], ['unresolved']],
      [['env', dyn('X=$y', 'X=⟨$⟩'), 'cmd'], ['unresolved']],
      [['env', dyn('"X=$y"', 'X=⟨$⟩'), 'cmd'], ['wrapper env: X=⟨$⟩ cmd']],
      [['env', 'X=1', dyn('"$cmd"')], ['unresolved']],
      [['env', '--bogus', 'cmd'], ['unresolved']],
    ]);

    test('the NAME=value words become Assignments with the value after `=`', () => {
      const [spec] = nestedOf(command(['env', 'GIT_SSH_COMMAND=ssh -v', 'git', 'fetch']));
      expect(spec?.kind === 'argv' && spec.assignments?.[0]).toMatchObject({
        name: 'GIT_SSH_COMMAND',
        value: { value: 'ssh -v', static: true },
      });
      expect(nestedOf(inner(spec)).map(show)).toEqual(['shell GIT_SSH_COMMAND: ssh -v']);
    });
  });

  describe('doas, su, runuser', () => {
    table([
      [['doas', 'cmd'], ['wrapper doas: cmd']],
      [['doas', '-u', 'root', '-n', 'cmd', 'a'], ['wrapper doas: cmd a']],
      [['doas', '-s'], ['unresolved']],
      [['doas', '-C', '/etc/doas.conf', 'cmd'], []],
      [['su', '-c', 'id', 'root'], ['shell su -c: id']],
      [['su', 'root', '-c', 'id'], ['shell su -c: id']],
      [['su', '-', 'root', '-c', 'id'], ['shell su -c: id']],
      [['su', '-l', 'postgres', '--command=psql'], ['shell su -c: psql']],
      [['su', '-s', '/bin/bash', '-c', 'id'], ['shell su -c: id']],
      [['su', '-s', '/usr/bin/python3', '-c', 'print(1)'], ['interpreter-code -c: print(1)']],
      [['su'], ['unresolved']],
      [['su', '-', 'root'], ['unresolved']],
      [['su', 'root', 'script.sh'], ['unresolved']],
      [['su', '-c', dyn('"$cmd"')], ['shell su -c: ⟨$⟩ (dynamic)']],
      [['runuser', '-u', 'nobody', '--', 'ls', '-la'], ['wrapper runuser: ls -la']],
      [['runuser', '-l', 'user', '-c', 'make'], ['shell runuser -c: make']],
      [['runuser', '-u', 'nobody'], ['unresolved']],
    ]);
  });

  describe('xargs', () => {
    table([
      [['xargs', 'rm'], ['wrapper xargs +args: rm']],
      [['xargs', '-I{}', 'rm', '{}'], ['wrapper xargs +args: rm {}']],
      [['xargs', '-I', '{}', 'mv', '{}', '{}.bak'], ['wrapper xargs +args: mv {} {}.bak']],
      [['xargs', '-i', 'rm', '{}'], ['wrapper xargs +args: rm {}']],
      [['xargs', '-n', '1', '-P', '4', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-n1', '-P4', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-0', '-r', '-t', '-x', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-0rt', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-d', '\\n', '-L', '1', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-a', 'list.txt', '-s', '100', '-E', 'END', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '--max-args=2', '--null', 'cmd'], ['wrapper xargs +args: cmd']],
      [['xargs', '-I{}', 'sh', '-c', 'echo {}'], ['wrapper xargs +args: sh -c echo {}']],
      // -I writes each input line wherever a word holds its string, the program's name too.
      [['xargs', '-I', 'echo', 'echo', 'hi'], ['wrapper xargs +args: ⟨$⟩ hi']],
      [['xargs'], ['wrapper xargs +args: echo']],
      [['xargs', '-0', '-n', '1'], ['wrapper xargs +args: echo']],
      [['xargs', '-n', dyn('$N'), 'cmd'], ['unresolved']],
    ]);
  });

  describe('parallel, watch', () => {
    table([
      [['parallel', 'gzip', ':::', 'a', 'b'], ['shell parallel +args: gzip']],
      [['parallel', 'echo {}; rm {}', ':::', 'a'], ['shell parallel +args: echo {}; rm {}']],
      [['parallel', '-j', '4', '-k', 'rm', '-f', '::::', 'files.txt'], ['shell parallel +args: rm -f']],
      [
        ['parallel', ':::', 'rm x', 'ls'],
        ['shell parallel: rm x', 'shell parallel: ls'],
      ],
      [['parallel', '::::', 'cmds.txt'], ['script-file ::::: cmds.txt']],
      [['parallel'], ['stdin input lines: ?']],
      [
        ['parallel', '--ssh', 'ssh -p 2', 'cmd', ':::', 'a'],
        ['shell parallel --ssh: ssh -p 2', 'shell parallel +args: cmd'],
      ],
      [['watch', '-n', '1', 'ls -l'], ['shell watch: ls -l']],
      [['watch', '-d', 'ls', '-l', '; rm x'], ['shell watch: ls -l ; rm x']],
      [['watch', '--interval=2', 'date'], ['shell watch: date']],
      [['watch', '-x', 'ls', '-l'], ['wrapper watch: ls -l']],
      [['watch'], []],
    ]);
  });

  describe('flock, chroot, nsenter, unshare, script, busybox and others', () => {
    table([
      [['flock', '-x', '-w', '5', '/tmp/lock', 'cmd', 'a'], ['wrapper flock: cmd a']],
      [['flock', '/tmp/lock', '-c', 'make all'], ['shell flock -c: make all']],
      [['flock', '-n', '/tmp/lock', '--command', 'x'], ['shell flock -c: x']],
      [['flock', '-s', '/tmp/lock'], []],
      [['chroot', '/mnt', 'ls', '-l'], ['wrapper chroot: ls -l']],
      [['chroot', '--userspec=u:g', '/mnt', 'cmd'], ['wrapper chroot: cmd']],
      [['chroot', '/mnt'], ['unresolved']],
      [['nsenter', '-t', '1', '-m', '-u', '-i', '-n', '-p', 'cmd'], ['wrapper nsenter: cmd']],
      [['nsenter', '--target=1', '--mount', 'cmd'], ['wrapper nsenter: cmd']],
      [['nsenter', '-t', '1', '-a'], ['unresolved']],
      [['unshare', '-r', '-n', 'cmd'], ['wrapper unshare: cmd']],
      [['unshare', '--fork', '--pid', '--mount-proc', 'cmd'], ['wrapper unshare: cmd']],
      [['unshare', '-f'], ['unresolved']],
      [['script', '-q', '-c', 'make', '/dev/null'], ['shell script -c: make']],
      [['script', '/dev/null', '-qc', 'make'], ['shell script -c: make']],
      [['script'], ['unresolved']],
      [['script', '-q', '/dev/null', 'ls', '-la'], ['wrapper script: ls -la']],
      [['script', '-aq', 'out.log', 'git', 'status'], ['wrapper script: git status']],
      [['script', '-q', '/dev/null', '-c', 'make'], ['shell script -c: make']],
      [['script', '-q', 'out.log', 'ls', '-c', 'make'], ['wrapper script: ls -c make']],
      [['caffeinate', '-i', 'make', '-j4'], ['wrapper caffeinate: make -j4']],
      [['caffeinate', '-t', '60'], []],
      [['arch', '-x86_64', 'make'], ['wrapper arch: make']],
      [['arch', '-arch', 'arm64', 'make'], ['wrapper arch: make']],
      [['arch', '-e', 'X=1', 'make'], ['unresolved']],
      [['busybox', 'sh', '-c', 'x'], ['wrapper busybox: sh -c x']],
      [['busybox', '--list'], []],
      [['pkexec', 'cmd'], ['wrapper pkexec: cmd']],
      [['pkexec'], ['unresolved']],
      [['taskset', '0x1', 'cmd'], ['wrapper taskset: cmd']],
      [['taskset', '-c', '0-3', 'cmd'], ['wrapper taskset: cmd']],
      [['taskset', '-p', '123'], []],
      [['chrt', '-f', '10', 'cmd'], ['wrapper chrt: cmd']],
      [['strace', '-f', '-o', 'out', 'cmd'], ['wrapper strace: cmd']],
      [['strace', '-p', '123'], []],
      [['entr', '-s', 'make test'], ['shell entr -s: make test']],
      [['entr', 'rm', '/_'], ['wrapper entr +args: rm /_']],
      [['sg', 'wheel', '-c', 'id'], ['shell sg: id']],
      [['fakeroot', 'cmd'], ['wrapper fakeroot: cmd']],
      [
        ['fakeroot', '--lib', '/tmp/x.so', 'cmd'],
        ['environment --lib: /tmp/x.so', 'wrapper fakeroot: cmd'],
      ],
      [
        ['strace', '-E', 'LD_PRELOAD=/tmp/x.so', 'cmd'],
        ['environment LD_PRELOAD: /tmp/x.so', 'wrapper strace: cmd'],
      ],
      [['unbuffer', 'cmd'], ['wrapper unbuffer: cmd']],
    ]);
  });
});

describe('shells', () => {
  table([
    [['bash', '-c', 'echo hi'], ['shell bash -c: echo hi']],
    [['sh', '-c', 'x'], ['shell sh -c: x']],
    [['zsh', '-c', 'x'], ['shell zsh -c: x']],
    [['dash', '-c', 'x'], ['shell dash -c: x']],
    [['ksh', '-c', 'x'], ['shell ksh -c: x']],
    [['bash', '-o', 'pipefail', '-c', 'x'], ['shell bash -c: x']],
    [['bash', '-xc', 'x'], ['shell bash -c: x']],
    [['bash', '-lc', 'x'], ['shell bash -c: x']],
    [['bash', '-ec', 'x'], ['shell bash -c: x']],
    [['bash', '-euxo', 'pipefail', '-c', 'x'], ['shell bash -c: x']],
    [['sh', '+x', '-c', 'x'], ['shell sh -c: x']],
    [['bash', '+o', 'history', '-c', 'x'], ['shell bash -c: x']],
    [['bash', '--norc', '--noprofile', '-c', 'x'], ['shell bash -c: x']],
    [['bash', '-O', 'extglob', '-c', 'x'], ['shell bash -c: x']],
    [['bash', '-c', '-x', 'x'], ['shell bash -c: x']],
    [['bash', '-c', 'x', 'name', 'a', 'b'], ['shell bash -c: x']],
    [['bash', '-c', '--', dyn('"$s"')], ['shell bash -c: ⟨$⟩ (dynamic)']],
    [['bash', '-c', dyn('"$s"')], ['shell bash -c: ⟨$⟩ (dynamic)']],
    [['bash', '-c', dyn('$s'), 'x'], ['shell bash -c: ⟨$⟩ (dynamic)']],
    [['bash', '-o', dyn('$o'), '-c', 'x'], ['unresolved']],
    [['bash', dyn('"$o"'), '-c', 'x'], ['shell bash -c: ⟨$⟩ (dynamic)']],
    [['bash', '-c'], []],
    [['bash', 'script.sh', 'a'], ['script-file script: script.sh']],
    [['bash', '-x', 'script.sh'], ['script-file script: script.sh']],
    [['bash', '--', 'script.sh'], ['script-file script: script.sh']],
    [['bash', '-'], ['stdin stdin: ?']],
    [['bash', '-', 'script.sh'], ['script-file script: script.sh']],
    [['bash'], ['stdin stdin: ?']],
    [['bash', '-s', 'a', 'b'], ['stdin stdin: ?']],
    [['bash', '-i'], ['stdin stdin: ?']],
    [
      ['bash', '--rcfile', 'rc.sh', '-i'],
      ['source-file --rcfile: rc.sh', 'stdin stdin: ?'],
    ],
    [['bash', '--version'], []],
    [['bash', dyn('"$x"')], ['unresolved']],
    [['fish', '-c', 'echo hi'], ['interpreter-code -c: echo hi']],
    [['fish', 'x.fish'], ['script-file script: x.fish']],
    [['eval', 'echo', 'hi'], ['shell eval: echo hi']],
    [['eval', 'echo hi; rm x'], ['shell eval: echo hi; rm x']],
    [['eval', '--', 'x'], ['shell eval: x']],
    [['eval', 'echo', dyn('"$x"')], ['shell eval: echo ⟨$⟩ (dynamic)']],
    [['eval'], []],
    [['trap', 'rm -f /tmp/x', 'EXIT'], ['shell trap: rm -f /tmp/x']],
    [['trap', '--', 'cleanup', 'INT', 'TERM'], ['shell trap: cleanup']],
    [['trap', '-l'], []],
    [['trap', '-p'], []],
    [['trap', '-p', 'INT'], []],
    [['trap', '-', 'INT'], []],
    [['trap', 'INT'], []],
    [['trap', '', 'INT'], []],
    [['source', 'x.sh', 'a'], ['source-file source: x.sh']],
    [['.', './env.sh'], ['source-file .: ./env.sh']],
    [['source'], []],
    [['mapfile', '-t', '-C', 'handle', '-c', '10', 'arr'], ['shell mapfile -C +args: handle']],
    [['readarray', 'arr'], []],
    [['compgen', '-C', 'rm x', 'w'], ['shell compgen -C +args: rm x']],
    [['hash', '-p', '/tmp/evil', 'ls'], ['environment hash -p: /tmp/evil']],
    [['enable', '-f', './lib.so', 'x'], ['environment enable -f: ./lib.so']],
    [['fc', '-s'], ['program-option history: ?']],
    [['fc', '-l'], []],
  ]);

  test('eval joins its words into one word spanning them', () => {
    const cmd = command(['eval', 'echo', 'hi']);
    const [spec] = nestedOf(cmd);
    expect(spec).toMatchObject({
      kind: 'shell',
      script: {
        value: 'echo hi',
        static: true,
        span: { start: cmd.argv[1]!.span.start, end: cmd.argv[2]!.span.end },
      },
    });
  });
});

describe('interpreters', () => {
  table([
    [['python', '-c', 'print(1)'], ['interpreter-code -c: print(1)']],
    [['python3', '-c', 'print(1)', 'arg'], ['interpreter-code -c: print(1)']],
    [['python3.12', '-u', '-c', 'x'], ['interpreter-code -c: x']],
    [['python', '-Ic', 'x'], ['interpreter-code -c: x']],
    [['python', '-cprint(1)'], ['interpreter-code -c: print(1)']],
    [['python', '-W', 'ignore', '-X', 'dev', 'x.py'], ['script-file script: x.py']],
    [['python2', 'script.py', '-c', 'x'], ['script-file script: script.py']],
    [['python', '-m', 'http.server', '8000'], ['script-file -m: http.server']],
    [['python', '-mpytest'], ['script-file -m: pytest']],
    [['python', '-'], ['stdin stdin: ?']],
    [['python'], ['stdin stdin: ?']],
    [['python', '-i'], ['stdin stdin: ?']],
    [['python', '-V'], []],
    [['python', '--version'], []],
    [['python', '-c', dyn('"$code"')], ['interpreter-code -c: ?']],
    [['node', '-e', 'x'], ['interpreter-code -e: x']],
    [['node', '-p', 'x'], ['interpreter-code -p: x']],
    [['node', '-pe', 'x'], ['interpreter-code -e: x']],
    [['node', '--eval', 'x'], ['interpreter-code -e: x']],
    [['node', '--print=x'], ['interpreter-code -p: x']],
    [['node', 'app.js', '--port', '3'], ['script-file script: app.js']],
    [['node', '--no-warnings', '--max-old-space-size=4096', 'app.js'], ['script-file script: app.js']],
    [
      ['node', '-r', 'ts-node/register', 'x.ts'],
      ['script-file -r: ts-node/register', 'script-file script: x.ts'],
    ],
    [['node', '--run', 'build'], ['script-file --run: build']],
    [['node'], ['stdin stdin: ?']],
    [['node', '-'], ['stdin stdin: ?']],
    [['node', '-v'], []],
    [['node', '-c', 'app.js'], []],
    [['node', '--unknown-thing', 'app.js'], ['unresolved']],
    [['perl', '-e', 'x'], ['interpreter-code -e: x']],
    [['perl', '-E', 'say 1'], ['interpreter-code -E: say 1']],
    [['perl', '-ne', 'print', 'f'], ['interpreter-code -e: print']],
    [['perl', '-i.bak', '-pe', 's/a/b/', 'f'], ['interpreter-code -e: s/a/b/']],
    [['perl', '-MPOSIX', '-e', 'x'], ['interpreter-code -e: x']],
    [['perl', '-w', 'script.pl'], ['script-file script: script.pl']],
    [['perl', '-v'], []],
    [['ruby', '-e', 'x'], ['interpreter-code -e: x']],
    [
      ['ruby', '-rjson', 'x.rb'],
      ['script-file -r: json', 'script-file script: x.rb'],
    ],
    [['php', '-r', 'echo 1;'], ['interpreter-code -r: echo 1;']],
    [['php', 'artisan', 'migrate'], ['script-file script: artisan']],
    [['php', '-f', 'x.php'], ['script-file -f: x.php']],
    [['php', '-S', 'localhost:8000'], ['program-option -S: localhost:8000']],
    [['php', '-l', 'x.php'], []],
    [['lua', '-e', 'x'], ['interpreter-code -e: x']],
    [['lua', 'x.lua'], ['script-file script: x.lua']],
    [['Rscript', '-e', 'x'], ['interpreter-code -e: x']],
    [['Rscript', '--vanilla', 'x.R'], ['script-file script: x.R']],
    [['osascript', '-e', 'display dialog "x"'], ['interpreter-code -e: display dialog "x"']],
    [['osascript', 'x.scpt'], ['script-file script: x.scpt']],
    [['pwsh', '-NoProfile', '-Command', 'Get-Item', 'x'], ['interpreter-code -Command: Get-Item x']],
    [['pwsh', '-c', 'x'], ['interpreter-code -Command: x']],
    [['pwsh', '-nop', '-ExecutionPolicy', 'Bypass', '-File', 'x.ps1'], ['script-file -File: x.ps1']],
    [['pwsh', 'x.ps1'], ['script-file -File: x.ps1']],
    [['powershell', 'Get-Date'], ['interpreter-code -Command: Get-Date']],
    [['powershell', '-EncodedCommand', 'ZQBjAGgAbwA='], ['interpreter-code -EncodedCommand: ZQBjAGgAbwA=']],
    [['pwsh', '-Command', '-'], ['stdin -Command: ?']],
    [['pwsh'], ['stdin stdin: ?']],
    [['pwsh', '-Bogus'], ['unresolved']],
    [['deno', 'eval', 'console.log(1)'], ['interpreter-code eval: console.log(1)']],
    [['deno', 'run', '-A', 'main.ts'], ['script-file deno run: main.ts']],
    [['deno', 'task', 'dev'], ['script-file deno task: dev']],
    [['deno', 'fmt'], []],
    [['deno'], ['stdin repl: ?']],
    [['bun', '-e', 'x'], ['interpreter-code -e: x']],
    [['bun', 'run', 'build'], ['script-file bun run: build']],
    [['bun', 'index.ts'], ['script-file bun run: index.ts']],
    [['bun', 'install'], ['script-file bun install: ?']],
    [['bun', 'x', 'cowsay'], ['wrapper bunx: cowsay']],
    [['bun', 'x', 'rm', '-rf', 'x'], ['wrapper bunx: rm -rf x']],
  ]);
});

describe('project and package runners', () => {
  table([
    [['npx', 'cowsay', 'hi'], ['wrapper npx: cowsay hi']],
    [['npx', 'rm', '-rf', 'x'], ['wrapper npx: rm -rf x']],
    [['npx', 'cowsay@1.2'], ['script-file npx: cowsay@1.2']],
    [['npx', '-y', 'prettier', '--write', '.'], ['wrapper npx: prettier --write .']],
    [['npx', '-p', 'typescript', 'tsc'], ['wrapper npx: tsc']],
    [['npx', '-c', 'echo $npm_package_name'], ['shell npx -c: echo $npm_package_name']],
    [['bunx', 'cowsay'], ['wrapper bunx: cowsay']],
    [['uvx', '--from', 'ruff', 'ruff', 'check'], ['script-file uvx: ruff']],
    [['pipx', 'run', 'black', '.'], ['script-file pipx run: black']],
    [['pnpx', 'x'], ['wrapper pnpx: x']],
    [['npm', 'run', 'build'], ['script-file npm run: build']],
    [['npm', 'run-script', 'lint'], ['script-file npm run: lint']],
    [['npm', '--prefix', 'web', 'run', 'dev'], ['script-file npm run: dev']],
    [['npm', 'test'], ['script-file npm test: test']],
    [['npm', 't'], ['script-file npm test: test']],
    [['npm', 'start'], ['script-file npm start: start']],
    [['npm', 'install'], ['script-file npm install: ?']],
    [['npm', 'ci'], ['script-file npm ci: ?']],
    [['npm', 'exec', '--', 'eslint', '.'], ['wrapper npm exec: eslint .']],
    [['npm', 'explore', 'pkg', '--', 'ls', '-l'], ['shell npm explore: ls -l']],
    [['npm', 'run'], []],
    [['npm', 'view', 'react'], []],
    [['npm', '--version'], []],
    [['yarn'], ['script-file yarn install: ?']],
    [['yarn', 'build'], ['script-file yarn run: build']],
    [['yarn', 'run', 'test'], ['script-file yarn run: test']],
    [['yarn', 'add', 'react'], ['script-file yarn install: ?']],
    [['yarn', 'why', 'react'], []],
    [['yarn', 'exec', 'tsc', '-b'], ['wrapper yarn exec: tsc -b']],
    [['yarn', 'dlx', 'create-x'], ['script-file yarn dlx: create-x']],
    [['pnpm', 'run', 'build'], ['script-file pnpm run: build']],
    [['pnpm', 'lint'], ['script-file pnpm run: lint']],
    [['pnpm', '-r', '--filter', 'web', 'run', 'dev'], ['script-file pnpm run: dev']],
    [['pnpm', 'exec', 'vitest'], ['wrapper pnpm exec: vitest']],
    [['pnpm', 'install'], ['script-file pnpm install: ?']],
    [['pnpm', 'list'], []],
    [['make'], ['script-file make: ?']],
    [['make', 'test'], ['script-file make: test']],
    [
      ['make', '-j', '4', '-C', 'sub', 'all', 'CC=clang'],
      ['script-file make -C: sub', 'script-file make: all'],
    ],
    [
      ['make', '-C', 'sub'],
      ['script-file make -C: sub', 'script-file make: ?'],
    ],
    [['make', '-f', 'other.mk'], ['script-file make: other.mk']],
    [['make', '--version'], []],
    [['cargo', 'run', '--release'], ['script-file cargo run: ?']],
    [['cargo', 'build'], ['script-file cargo build: ?']],
    [['cargo', 'fmt'], []],
    [
      ['cargo', '--config', 'build.rustc-wrapper="x"', 'check'],
      ['environment --config: build.rustc-wrapper="x"', 'script-file cargo check: ?'],
    ],
    [['go', 'run', 'main.go'], ['script-file go run: main.go']],
    [['go', 'test', './...'], ['script-file go test: ?']],
    [['go', 'build'], []],
    [['uv', 'run', 'pytest', '-x'], ['wrapper uv run: pytest -x']],
    [['poetry', 'run', 'python', 'x.py'], ['wrapper poetry run: python x.py']],
    [['bundle', 'exec', 'rake'], ['wrapper bundle exec: rake']],
    [['pytest', '-x'], ['script-file pytest: ?']],
    [['pytest', '--version'], []],
  ]);
});

describe('options that run programs', () => {
  describe('find', () => {
    table([
      [['find', '.', '-name', 'x', '-exec', 'rm', '{}', ';'], ['option -exec +args: rm {}']],
      [['find', '.', '-execdir', 'chmod', '644', '{}', '+'], ['option -execdir +args: chmod 644 {}']],
      [['find', '.', '-ok', 'rm', '{}', ';'], ['option -ok +args: rm {}']],
      [['find', '.', '-okdir', 'rm', '{}', ';'], ['option -okdir +args: rm {}']],
      [['find', '.', '-exec', 'date', ';'], ['option -exec: date']],
      [
        ['find', '.', '-exec', 'sh', '-c', 'echo "$1"', 'sh', '{}', ';'],
        ['option -exec +args: sh -c echo "$1" sh {}'],
      ],
      [
        [
          'find',
          '-L',
          '/src',
          '-type',
          'f',
          '-exec',
          'grep',
          '-l',
          'x',
          '{}',
          '+',
          '-o',
          '-exec',
          'echo',
          '{}',
          ';',
        ],
        ['option -exec +args: grep -l x {}', 'option -exec +args: echo {}'],
      ],
      [['find', '.', '-exec', 'echo', '+', ';'], ['option -exec: echo +']],
      [['find', '.', '-name', '-exec', '-print'], []],
      [['find', '.', '-newer', 'f', '-fprintf', 'out', '%p', '-exec', 'ls', ';'], ['option -exec: ls']],
      [['find', '.', '-name', 'x'], []],
      [['find', '.', '-exec', 'rm', '{}'], []],
      [['find', '.', '-delete'], []],
      [['find', dyn('$dir'), '-name', 'x'], ['unresolved']],
      [['find', dyn('"$dir"'), '-name', 'x'], []],
      [['find', dyn('"$d"'), 'rm', '-rf', '/', ';'], ['unresolved']],
      [['find', '.', '-exec', 'echo', dyn('"$x"'), '-delete', ';'], ['unresolved']],
      [['find', '.', '-exec', 'cp', '{}', dyn('"$dest"'), ';'], ['option -exec +args: cp {} ⟨$⟩']],
      [['find', '.', '-name', dyn('*.py', '*.py', ['glob'])], ['unresolved']],
    ]);
  });

  describe('git', () => {
    table([
      [['git', '-c', 'core.pager=less -R', 'log'], ['shell core.pager: less -R']],
      [['git', '-c', 'core.sshCommand=ssh -i key', 'fetch'], ['shell core.sshcommand: ssh -i key']],
      [['git', '-c', 'core.fsmonitor=./hook', 'status'], ['shell core.fsmonitor: ./hook']],
      [['git', '-c', 'core.fsmonitor=true', 'status'], []],
      [['git', '-c', 'core.editor=vim', 'commit'], ['shell core.editor: vim']],
      [['git', '-c', 'core.hooksPath=/tmp/h', 'commit'], ['environment core.hookspath: /tmp/h']],
      [
        ['git', '-c', 'sequence.editor=sed -i x', 'rebase', '-i', 'HEAD~2'],
        ['shell sequence.editor: sed -i x', 'program-option git rebase -i: ?'],
      ],
      [['git', '-c', 'diff.external=./d', 'diff'], ['shell diff.external: ./d']],
      [['git', '-c', 'pager.log=cat', 'log'], ['shell pager.log: cat']],
      [['git', '-c', 'pager.log=false', 'log'], []],
      [['git', '-c', 'filter.x.smudge=./s', 'checkout', '.'], ['shell filter.x.smudge: ./s']],
      [
        ['git', '-c', 'credential.helper=!f() { echo x; }; f', 'push'],
        ['shell credential.helper: f() { echo x; }; f'],
      ],
      [['git', '-c', 'credential.helper=store', 'push'], ['shell credential.helper: git credential-store']],
      [['git', '-c', 'include.path=/tmp/cfg', 'log'], ['environment include.path: /tmp/cfg']],
      [['git', '-c', 'alias.x=!rm -rf /', 'x'], ['shell alias.x: rm -rf /']],
      [['git', '-c', 'alias.x=!echo', 'status'], ['shell alias.x: echo']],
      [['git', '-c', 'alias.d=difftool -x evil', 'd', 'HEAD'], ['shell alias.d: git difftool -x evil HEAD']],
      [['git', '-c', 'alias.l=log --oneline', 'status'], []],
      [['git', '-c', 'user.name=x', 'commit'], []],
      [['git', '-c', 'color.ui'], []],
      [['git', '-c', dyn('"$kv"'), 'log'], ['unresolved']],
      [['git', '--config-env=core.pager=PAGER_CMD', 'log'], ['shell core.pager: ⟨$⟩ (dynamic)']],
      [['git', 'fetch', '--upload-pack=evil', 'origin'], ['shell git fetch --upload-pack: evil']],
      [['git', 'clone', '-u', 'evil', 'url'], ['shell git clone -u: evil']],
      [['git', 'clone', '--upload-pack', 'evil', 'url'], ['shell git clone -u: evil']],
      [['git', 'clone', '-c', 'core.sshCommand=x', 'url'], ['shell core.sshcommand: x']],
      [['git', 'clone', '--template=/tmp/t', 'url'], ['environment git clone --template: /tmp/t']],
      // git ls-remote has no -u (git: unknown switch `u'); --upload-pack and --exec name the program.
      [['git', 'ls-remote', '--upload-pack', 'evil', 'url'], ['shell git ls-remote --upload-pack: evil']],
      [['git', 'ls-remote', '--exec=evil', 'url'], ['shell git ls-remote --exec: evil']],
      [['git', 'ls-remote', '--upl=evil', 'url'], ['shell git ls-remote --upload-pack: evil']],
      [['git', 'pull', '--upload-pack=evil'], ['shell git pull --upload-pack: evil']],
      [['git', 'fetch', '-u', 'origin'], []],
      [['git', 'push', '--receive-pack=evil', 'origin'], ['shell git push --receive-pack: evil']],
      [['git', 'push', '--exec=evil', 'origin'], ['shell git push --exec: evil']],
      [['git', '--exec-path=/tmp/x', 'status'], ['environment --exec-path: /tmp/x']],
      [['git', '--exec-path'], []],
      [['git', '--git-dir=/other/.git', 'log'], ['environment --git-dir: /other/.git']],
      [['git', '--work-tree', '/w', 'status'], ['environment --work-tree: /w']],
      [['git', '-C', '/other', 'status'], []],
      [['git', '-p', 'log'], ['program-option --paginate: ?']],
      [['git', '--paginate', 'log'], ['program-option --paginate: ?']],
      [['git', 'diff', '--ext-diff'], ['program-option git diff --ext-diff: ?']],
      [['git', 'grep', '-O', 'x'], ['program-option git grep -O: ?']],
      [['git', 'grep', '--open-files-in-pager=vim', 'x'], ['program-option git grep -O: vim']],
      [['git', 'difftool', '-x', 'evil', 'HEAD'], ['shell git difftool -x: evil']],
      [['git', 'difftool', '--extcmd=evil'], ['shell git difftool -x: evil']],
      [['git', 'difftool', 'HEAD'], ['program-option git difftool: ?']],
      [['git', 'rebase', '-x', 'make test', 'main'], ['shell git rebase -x: make test']],
      [['git', 'rebase', '--exec=make', 'main'], ['shell git rebase -x: make']],
      [['git', 'bisect', 'run', 'make', 'test'], ['option git bisect run: make test']],
      [['git', 'submodule', 'foreach', '--recursive', 'git pull'], ['shell git submodule foreach: git pull']],
      [
        ['git', 'filter-branch', '--tree-filter', 'rm x', 'HEAD'],
        ['shell git filter-branch --tree-filter: rm x'],
      ],
      [['git', 'config', '--edit'], ['program-option git config -e: ?']],
      [['git', 'diff', '--output=out.patch'], []],
      [['git', 'lg'], ['program-option alias or git-* program: lg']],
      [['git', 'log', '--oneline', dyn('"$branch"')], []],
      [['git', 'fetch', dyn('"$remote"')], ['unresolved']],
      [['git', dyn('"$sub"')], ['unresolved']],
      [['git', 'status'], []],
      [['git', '--version'], []],
      [['git', '--bogus', 'status'], ['unresolved']],
    ]);
  });

  describe('rg, sed, awk', () => {
    table([
      [['rg', '--pre', 'pdftotext', 'foo'], ['option --pre +args: pdftotext']],
      [['rg', '--pre=./pre.sh', '-z', 'foo', 'dir'], ['option --pre +args: ./pre.sh']],
      [['rg', '--hostname-bin', './host', 'x'], ['option --hostname-bin: ./host']],
      [['rg', '-e', '--pre', 'x'], []],
      [['rg', 'foo', '--', '--pre=x'], []],
      [['rg', 'foo', 'src'], []],
      [['rg', dyn('"$pattern"')], ['unresolved']],
      [['rg', '-e', dyn('"$pattern"')], []],
      [['sed', '-e', '1e rm x', 'f'], ['shell sed e: rm x']],
      [['sed', 's/a/b/e', 'f'], ['program-option s///e: ?']],
      [['sed', '-n', '/x/e', 'f'], ['program-option e: ?']],
      [['sed', '--expression=e date', 'f'], ['shell sed e: date']],
      [['sed', '-i', '', 's/a/b/;e rm x', 'f'], ['shell sed e: rm x']],
      [['sed', '-f', 'script.sed', 'f'], ['script-file -f: script.sed']],
      // A script read from a stream is in no file a rule could name.
      [['sed', '-f', '-', 'f'], ['stdin -f: -']],
      [['sed', '-nf-', 'f'], ['stdin -f: -']],
      [['sed', '--file=/dev/stdin', 'f'], ['stdin -f: /dev/stdin']],
      [['sed', '--fi', '/dev/fd/0', 'f'], ['stdin -f: /dev/fd/0']],
      [['sed', '-f', '/proc/self/fd/0', 'f'], ['stdin -f: /proc/self/fd/0']],
      [['sed', '-f', '../../../../../../dev/stdin', 'f'], ['stdin -f: ../../../../../../dev/stdin']],
      [['sed', '-f', dyn('<(echo p)'), 'f'], ['stdin -f: ?']],
      [['sed', 'p', 'f', '-f', '-'], ['stdin -f: -']],
      [['sed', '--sandbox', '-f', '-', 'f'], ['stdin -f: -']],
      [['sed', '-e', 'w out', '--help'], []],
      [['sed', '--bogus', 'p', 'f'], ['program-option unknown option: ?']],
      // Several -e scripts are one script joined by newlines: a trailing `a\` takes the next one as its text.
      [['sed', '-e', 'a\\', '-e', 'e rm x', 'f'], []],
      [['sed', '-e', 's/a/b/', '-e', 'e rm x', 'f'], ['shell sed e: rm x']],
      [['sed', 's/[/]/x/;e rm x', 'f'], ['shell sed e: rm x']],
      [['sed', 's/[/]/x/g', 'f'], []],
      [['sed', dyn('"s/a/$b/"', 's/a/⟨$⟩/'), 'f'], ['program-option sed script: ?']],
      [['sed', '--sandbox', 's/a/b/e', 'f'], []],
      [['sed', '-n', 'p', 'f'], []],
      [['sed', 's/a/b/w out', 'f'], []],
      [['sed', '-i', 's/a/b/', dyn('"$f"')], ['unresolved']],
      [['awk', '{system("rm x")}', 'f'], ['program-option system(: {system("rm x")}']],
      [['awk', '{ print | "sort" }'], ['program-option print |: { print | "sort" }']],
      [['awk', '{ "date" | getline d }'], ['program-option | getline: { "date" | getline d }']],
      [['awk', '{ print > "out" }'], ['program-option print >: { print > "out" }']],
      [
        ['gawk', 'BEGIN { while ((getline line < "f") > 0) n++ }'],
        ['program-option getline <: BEGIN { while ((getline line < "f") > 0) n++ }'],
      ],
      [['awk', '-F:', '{print $1 " -> " $2}', '/etc/passwd'], []],
      [['awk', '/a|b/ { print $0 }', 'f'], []],
      [['awk', '{print $1}', 'f'], []],
      [['awk', '-v', 'x=1', 'NR > 1 { n++ }', 'f'], []],
      [['awk', '-f', 'prog.awk', 'f'], ['script-file -f: prog.awk']],
      [['awk', '-f', '-'], ['stdin -f: -']],
      [['awk', '-f', '/dev/stdin', 'f'], ['stdin -f: /dev/stdin']],
      [['gawk', '--file=/proc/self/fd/0'], ['stdin -f: /proc/self/fd/0']],
      [['gawk', '--ex', '-', 'f'], ['stdin -E: -']],
      [['gawk', '-i', '/dev/fd/3', '{ print }'], ['stdin -i: /dev/fd/3']],
      [['gawk', '-i', 'lib', '{ print }'], ['script-file -i: lib']],
      // gawk looks inplace up on AWKPATH, whose first folder is the working folder.
      [['gawk', '-i', 'inplace', '{ print }', 'f'], ['script-file -i: inplace']],
      [
        ['gawk', '-e', 'BEGIN { system("x") }', '-f', '-'],
        ['stdin -f: -', 'program-option system(: BEGIN { system("x") }'],
      ],
      // After `--`, -f is the program: the pattern `-f`, which prints nothing.
      [['awk', '--', '-f', '-'], []],
      [['mawk', '-Wexec=-'], ['program-option -W: exec=-']],
      [['awk', dyn('"{print $n}"', '{print ⟨$⟩}'), 'f'], ['program-option awk program: ?']],
      [['gawk', '--sandbox', '{system("x")}'], []],
      [['gawk', '--sandbox', 'BEGIN { ARGV[1] = ".env"; ARGC = 2; print "x" > "f" }'], []],
      [
        ['gawk', '--sandbox', 'BEGIN { print ENVIRON["HOME"] }'],
        ['program-option ENVIRON: BEGIN { print ENVIRON["HOME"] }'],
      ],
      [['awk', '-v', 'ARGC=3', '{ print }'], ['program-option assignment: ARGC=3']],
      [['awk', '{ print }', 'ARGV=x', 'f'], ['program-option assignment: ARGV=x']],
      // mawk -W exec names a program file; the name is also read as program text, which does not parse.
      [
        ['awk', '-W', 'exec', 'x.awk'],
        ['program-option -W: exec', 'program-option awk program: x.awk'],
      ],
      [['awk', '-W', 'interactive', '{ print }'], []],
      [['gawk', '--dump-variables=out', '{ print }'], ['program-option -d: ?']],
      [['gawk', '--bogus', '{ print }'], ['program-option unknown option: --bogus']],
      [['jq', '-r', '.items[] | {name, id}', 'f.json'], []],
      [['jq', '-n', '--args', '$ARGS', 'a', 'b'], []],
      [['jq', '-n', '$ENV.TOKEN'], ['program-option $ENV: $ENV.TOKEN']],
      [['jq', '--arg', 'x', 'env', '.a', 'f'], []],
      [['jq', '-n', 'env'], ['program-option env: env']],
      [['jq', '-f', 'prog.jq', 'f'], ['script-file -f: prog.jq']],
      [['jq', dyn('"$filter"'), 'f'], ['program-option jq filter: ?']],
    ]);
  });

  describe('tar, ssh, rsync, less, vim, man, zip', () => {
    table([
      [['tar', '--to-command=sh -c x', '-xf', 'a.tar'], ['shell tar --to-command: sh -c x']],
      [
        ['tar', '-xf', 'a.tar', '--checkpoint=1', '--checkpoint-action=exec=sh x.sh'],
        ['shell tar --checkpoint-action: sh x.sh'],
      ],
      [['tar', '--checkpoint-action=dot', '-cf', 'a.tar', 'd'], []],
      [['tar', '--use-compress-program=zstd -19', '-cf', 'a.tar', 'd'], ['shell tar -I: zstd -19']],
      [['tar', '-I', 'pigz', '-cf', 'a.tgz', 'd'], ['shell tar -I: pigz']],
      [['tar', 'cfI', 'a.tar', 'evil', 'd'], ['shell tar -I: evil']],
      [
        ['tar', '--rsh-command=/tmp/x', '-tf', 'h:a.tar'],
        ['shell tar --rsh-command: /tmp/x', 'program-option remote archive: h:a.tar'],
      ],
      [['tar', '-F', 'next.sh', '-cf', 'a.tar', 'd'], ['shell tar -F: next.sh']],
      [['tar', 'xzf', 'a.tgz'], []],
      [['tar', '-tf', 'host:a.tar', '--force-local'], []],
      [['tar', '-czf', 'a.tgz', dyn('"$dir"')], ['unresolved']],
      [
        ['ssh', '-o', 'ProxyCommand=nc %h %p', 'host'],
        ['shell ProxyCommand: nc %h %p', 'program-option ssh remote shell: ?'],
      ],
      [['ssh', '-oProxyCommand=nc x', '-N', 'host'], ['shell ProxyCommand: nc x']],
      [['ssh', '-o', 'ProxyCommand none', '-N', 'host'], []],
      [
        ['ssh', '-o', 'LocalCommand=touch x', '-o', 'PermitLocalCommand=yes', '-N', 'host'],
        ['shell LocalCommand: touch x'],
      ],
      [['ssh', 'host', 'ls', '-la'], ['program-option ssh remote command: ls -la']],
      [
        ['ssh', '-p', '22', 'host', '-o', 'ProxyCommand=x', 'uptime'],
        ['shell ProxyCommand: x', 'program-option ssh remote command: uptime'],
      ],
      [['ssh', '-F', 'cfg', '-N', 'host'], ['environment -F: cfg']],
      [['ssh', dyn('"$host"')], ['unresolved']],
      [['scp', '-o', 'ProxyCommand=x', 'a', 'h:b'], ['shell ProxyCommand: x']],
      [['scp', '-S', './prog', 'a', 'h:b'], ['shell scp -S: ./prog']],
      [['rsync', '-e', 'ssh -p 2', 'a', 'h:b'], ['shell rsync -e: ssh -p 2']],
      [['rsync', '-avze', 'ssh', 'a', 'h:b'], ['shell rsync -e: ssh']],
      [['rsync', '--rsh=ssh -i k', 'a', 'h:b'], ['shell rsync -e: ssh -i k']],
      [['rsync', '--rsync-path=sudo rsync', 'a', 'h:b'], ['program-option --rsync-path: sudo rsync']],
      [['rsync', '-av', 'a/', 'b/'], []],
      [['less', '+!rm x', 'file'], ['shell less +!: rm x']],
      [['less', '+G', 'file'], []],
      [['less', '-R', 'file'], []],
      [['vim', '-c', '!rm x', 'f'], ['shell vim -c :!: rm x']],
      [
        ['vim', '-c', ':!rm -rf build', '-c', ':q', 'README.md'],
        ['shell vim -c :!: rm -rf build', 'program-option -c: :q'],
      ],
      [['vim', '-c', ':silent !make', 'f'], ['shell vim -c :!: make']],
      [['vim', '+!ls', 'f'], ['shell vim + :!: ls']],
      [['vim', '-c', 'call system("x")', 'f'], ['program-option -c: call system("x")']],
      [
        ['vim', '+%s/a/b/g', '+wq', 'f'],
        ['program-option +: %s/a/b/g', 'program-option +: wq'],
      ],
      [['nvim', '--cmd', 'x', 'f'], ['program-option --cmd: x']],
      [['vi', '+10', 'f'], []],
      [['vim', '-S', 'session.vim'], ['script-file -S: session.vim']],
      [['vim', '-u', 'NONE', 'f'], []],
      [['vim', '-es', 'f'], ['stdin ex mode: ?']],
      [['vim', 'f'], []],
      [['emacs', '--batch', '--eval', '(x)'], ['interpreter-code --eval: (x)']],
      [['man', '-P', 'cat', 'ls'], ['shell man -P: cat']],
      [['man', '--pager=less -s', 'ls'], ['shell man -P: less -s']],
      [['man', '-Pcat', 'ls'], ['shell man -P: cat']],
      [['man', '-Hfirefox', 'ls'], ['shell man -H: firefox']],
      [['man', 'ls'], []],
      [['zip', '-T', '-TT', 'unzip -t', 'a.zip', 'f'], ['shell zip -TT: unzip -t']],
      [['zip', '--unzip-command', 'x', 'a.zip'], ['shell zip -TT: x']],
      [['zip', '-TT=x', 'a.zip'], ['shell zip -TT: x']],
      [['zip', '-r', 'a.zip', 'dir'], []],
      [['sort', '--compress-program=gzip', 'f'], ['shell sort --compress-program: gzip']],
      [
        ['docker', 'run', '--rm', '-v', '/a:/b', 'alpine', 'sh', '-c', 'x'],
        ['program-option docker run: sh -c x'],
      ],
      [['docker', 'run', '-it', 'ubuntu'], ['program-option docker run: ?']],
      [['docker', 'exec', '-it', 'c1', 'bash'], ['program-option docker exec: bash']],
      [['docker', 'ps'], []],
      [['podman', 'run', 'img', 'ls'], ['program-option podman run: ls']],
      [['kubectl', 'exec', '-it', 'pod', '--', 'ls', '/'], ['program-option kubectl exec: ls /']],
      [['kubectl', 'get', 'pods'], []],
    ]);
  });
});

describe('environment variables that make programs run others', () => {
  const shellVariables = [
    'PAGER',
    'GIT_PAGER',
    'MANPAGER',
    'EDITOR',
    'VISUAL',
    'GIT_EDITOR',
    'GIT_SSH_COMMAND',
    'GIT_SSH',
    'GIT_EXTERNAL_DIFF',
    'GIT_ASKPASS',
    'SSH_ASKPASS',
    'LESSOPEN',
    'LESSCLOSE',
    'PROMPT_COMMAND',
    'BROWSER',
  ];
  const loaderVariables = [
    'LD_PRELOAD',
    'LD_LIBRARY_PATH',
    'DYLD_INSERT_LIBRARIES',
    'BASH_ENV',
    'ENV',
    'PATH',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'NODE_OPTIONS',
    'PERL5OPT',
    'RUBYOPT',
    'GIT_CONFIG',
    'GIT_CONFIG_GLOBAL',
    'GIT_CONFIG_COUNT',
    'GIT_CONFIG_PARAMETERS',
    'GIT_DIR',
    'GIT_EXEC_PATH',
  ];

  test.each(shellVariables)('%s=value runs the value through a shell', (name) => {
    const specs = nestedOf(command(['git', 'log'], [assignment(name, 'evil --flag')]));
    expect(specs.map(show)).toEqual([`shell ${name}: evil --flag`]);
  });

  test.each(loaderVariables)('%s=value changes what the program loads', (name) => {
    const specs = nestedOf(command(['ls'], [assignment(name, '/tmp/x')]));
    expect(specs).toEqual([
      {
        kind: 'code',
        exec: { kind: 'environment', program: 'ls', via: name, code: '/tmp/x', span: expect.any(Object) },
      },
    ]);
  });

  table([
    [['export', 'PAGER=evil'], ['shell PAGER: evil']],
    [['export', 'PATH=/tmp:/bin', 'X=1'], ['environment PATH: /tmp:/bin']],
    [['export', 'PATH+=:/tmp'], ['environment PATH: :/tmp']],
    [['declare', '-x', 'LD_PRELOAD=/tmp/x.so'], ['environment LD_PRELOAD: /tmp/x.so']],
    [['readonly', 'EDITOR=vim'], ['shell EDITOR: vim']],
    [['local', 'BASH_ENV=x'], ['environment BASH_ENV: x']],
    [['export', dyn('"$x"')], ['unresolved']],
    [['export', 'HOME=/tmp', 'LANG=C'], []],
    [['export', '-n', 'PATH'], []],
  ]);

  test('a bare assignment (no argv) is checked too', () => {
    const specs = nestedOf({ argv: [], assignments: [assignment('PROMPT_COMMAND', 'rm x')], program: '' });
    expect(specs.map(show)).toEqual(['shell PROMPT_COMMAND: rm x']);
  });

  test('a dynamic value is passed on as dynamic', () => {
    const specs = nestedOf(command(['git', 'log'], [assignment('GIT_PAGER', dyn('"$p"'))]));
    expect(specs.map(show)).toEqual(['shell GIT_PAGER: ⟨$⟩ (dynamic)']);
  });

  test('other variables run nothing', () => {
    expect(nestedOf(command(['make'], [assignment('CFLAGS', '-O2')])).map(show)).toEqual([
      'script-file make: ?',
    ]);
    expect(nestedOf(command(['ls'], [assignment('LANG', 'C'), assignment('TERM', 'dumb')]))).toEqual([]);
  });
});

describe('dynamic words', () => {
  table([
    [['sudo', '-u', dyn('"$@"'), 'cmd'], ['unresolved']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    [['sudo', '-u', dyn('"${users[@]}"'), 'cmd'], ['unresolved']],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash source text
    [['sudo', '-u', dyn('"${users[*]}"'), 'cmd'], ['wrapper sudo: cmd']],
    [['sudo', '-u', dyn('"$(id -un)"'), 'cmd'], ['wrapper sudo: cmd']],
    [['sudo', '-u', dyn('"$(echo "a b")"'), 'cmd'], ['wrapper sudo: cmd']],
    [['sudo', '-u', dyn('"$(echo "a")"$x'), 'cmd'], ['unresolved']],
    [['sudo', '-u', dyn('`id -un`'), 'cmd'], ['unresolved']],
    [['sudo', '-u', dyn(`'a'"$x"`), 'cmd'], ['wrapper sudo: cmd']],
    [['sudo', '-u', dyn('$((1+1))'), 'cmd'], ['unresolved']],
    [['sudo', dyn('*', '*', ['glob'])], ['unresolved']],
    [['nice', dyn('./*', './*', ['glob'])], ['wrapper nice: ./*']],
    [['sudo', dyn('./*', './*', ['glob'])], ['unresolved']],
    [['sudo', dyn('{a,b}', '⟨$⟩', ['brace'])], ['unresolved']],
    [['sudo', dyn('-u$U', '-u⟨$⟩'), 'cmd'], ['unresolved']],
    [['sudo', dyn('"-u$U"', '-u⟨$⟩'), 'cmd'], ['wrapper sudo: cmd']],
    [['sudo', dyn('"-$o"', '-⟨$⟩'), 'cmd'], ['unresolved']],
    [['sudo', dyn('"--$o"', '--⟨$⟩'), 'cmd'], ['unresolved']],
    [['sudo', dyn('"--user=$U"', '--user=⟨$⟩'), 'cmd'], ['wrapper sudo: cmd']],
  ]);
});

describe('awk programs are read with their strings and regexes set aside', () => {
  table([
    [['awk', '/"/ { system("x") }'], ['program-option system(: /"/ { system("x") }']],
    [['awk', '$1 > 5 { print }'], []],
    [['awk', '{ print $1 > "/tmp/x" }'], ['program-option print >: { print $1 > "/tmp/x" }']],
    [['awk', '{ printf "%s|%s", $1, $2 }'], []],
    [['awk', '{ x = ($1) / 2; print x }'], []],
    // After `)` the `/` divides, so the string never ends: awk rejects the program, and so does the parse.
    [['awk', '(a) /"/; system("x")'], ['program-option awk program: (a) /"/; system("x")']],
    [['awk', '# system("x")\n{ print }'], []],
    [['awk', '/#/ { system("x") }'], ['program-option system(: /#/ { system("x") }']],
  ]);
});

describe('commands that run nothing', () => {
  table([
    [['ls', '-la'], []],
    [['echo', 'sudo', 'rm', 'x'], []],
    [['cat', 'bash'], []],
    [['git', 'log', '-p'], []],
    [['grep', '-r', 'exec', '.'], []],
    [[dyn('$cmd'), 'x'], []],
  ]);

  test('an unknown program is left to the analyzer', () => {
    expect(nestedOf({ argv: [word('frobnicate')], assignments: [], program: 'frobnicate' })).toEqual([]);
  });
});

describe('unresolved specs carry a reason and a location', () => {
  test('the span of the word that made it unresolved', () => {
    const cmd = command(['sudo', '-u', dyn('$U'), 'rm', 'x']);
    const [spec] = nestedOf(cmd);
    expect(spec).toMatchObject({ kind: 'unresolved', span: cmd.argv[2]!.span });
    expect(spec?.kind === 'unresolved' && spec.reason).toMatch(/\$U/);
  });
});
