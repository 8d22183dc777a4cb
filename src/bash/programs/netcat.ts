import type { CommandView, NestedSpec, Word } from '../types.js';
import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, parseOptions } from './options.js';
import { argvSpec, codeIn, parseFailure, shellSpec, unresolved } from './specs.js';
import { syntheticWord } from './words.js';

/**
 * nc (traditional and OpenBSD), netcat and nmap's ncat: the options of all of them, so that whichever is
 * installed, `-e PROG` runs a program and `-c CMD` a shell command on the connection.
 */
const NETCAT = grammar({
  flags: '46bCdDFhklLnNrStuUvzZ',
  values: 'cegGIiMmOoPpqsTVWwXx',
  long:
    'exec=/e sh-exec=/c lua-exec= unixsock/U vsock crlf/C help/h delay=/d output=/o hex-dump=/x ' +
    'idle-timeout=/i source-port=/p source=/s listen/l keep-open/k nodns/n telnet/t udp/u sctp verbose/v ' +
    'wait=/w append-output send-only recv-only no-shutdown allow= allowfile= deny= denyfile= broker chat ' +
    'max-conns=/m proxy= proxy-type= proxy-auth= proxy-dns= ssl ssl-cert= ssl-key= ssl-verify ' +
    'ssl-trustfile= ssl-ciphers= ssl-servername= ssl-alpn= version',
});

/** `-e "prog args"`: ncat splits the value at spaces and runs the program, without a shell. */
export function execWords(value: Word): Word[] {
  if (!value.static) return [value];
  return value.value
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => syntheticWord(part, value.span));
}

function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, NETCAT, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const specs: NestedSpec[] = [];
  for (const index of parsed.suspects) {
    specs.push(
      unresolved(
        `${cmd.program}: ${cmd.argv[index]!.text} may be an option that runs a program`,
        cmd.argv[index]!,
      ),
    );
  }
  for (const option of parsed.options) {
    if (!option.value) continue;
    if (option.name === 'e')
      specs.push(argvSpec(execWords(option.value), `${cmd.program} -e`, { kind: 'option' }));
    if (option.name === 'c') specs.push(shellSpec(option.value, `${cmd.program} -c`));
    if (option.name === '--lua-exec')
      specs.push(codeIn('script-file', cmd.program, '--lua-exec', option.value));
  }
  return specs;
}

const CASES = [
  'nc -e "cat .env" 127.0.0.1 9',
  'nc -c "cat .env" 127.0.0.1 9',
  'ncat --exec "cat .env" 127.0.0.1 9',
  'ncat --sh-exec "cat .env" 127.0.0.1 9',
  'ncat --lua-exec x.lua 127.0.0.1 9',
  'ncat -o out.txt 127.0.0.1 9',
  'netcat -e /bin/sh 127.0.0.1 9',
];

/** nc, netcat and their Debian names; the files they read and write (`-o`, `--ssl-key`) are not modelled. */
export const NC_MODULE: ProgramModule = {
  names: ['nc', 'netcat', 'nc.traditional', 'nc.openbsd'],
  spec: { name: 'nc', aliases: ['netcat', 'nc.traditional', 'nc.openbsd'], grammar: NETCAT },
  effects: () => UNKNOWN,
  nested,
  oracle: { cases: CASES },
};

export const NCAT_MODULE: ProgramModule = {
  names: ['ncat'],
  spec: { name: 'ncat', grammar: NETCAT },
  effects: () => UNKNOWN,
  nested,
  oracle: { cases: CASES.filter((line) => line.startsWith('ncat')) },
};
