import type { CommandView, NestedSpec, Word } from '../types.js';
import { grammar, operandWords, parseOptions } from './options.js';
import type { ProgramSpec } from './program.js';
import { argvSpec, codeIn, parseFailure, shellSpec, unresolved } from './specs.js';
import { leadingText, sliceWord, syntheticWord } from './words.js';

/**
 * nc (traditional and OpenBSD), netcat and nmap's ncat: the options of all of them, so that whichever is
 * installed, `-e PROG` runs a program and `-c CMD` a shell command on the connection.
 */
export const NETCAT = grammar({
  flags: '46bCdDFhklLnNrStuUvzZ',
  values: 'cegGIiMmOoPpqsTVWwXx',
  long:
    'exec=/e sh-exec=/c lua-exec= unixsock/U vsock crlf/C help/h delay=/d output=/o hex-dump=/x ' +
    'idle-timeout=/i source-port=/p source=/s listen/l keep-open/k nodns/n telnet/t udp/u sctp verbose/v ' +
    'wait=/w append-output send-only recv-only no-shutdown allow= allowfile= deny= denyfile= broker chat ' +
    'max-conns=/m proxy= proxy-type= proxy-auth= proxy-dns= ssl ssl-cert= ssl-key= ssl-verify ' +
    'ssl-trustfile= ssl-ciphers= ssl-servername= ssl-alpn= version',
});

const NAMES = ['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd'];

export const NETCAT_SPECS: readonly ProgramSpec[] = [
  { name: 'nc', aliases: ['netcat', 'nc.traditional', 'nc.openbsd'], grammar: NETCAT },
  { name: 'ncat', grammar: NETCAT },
];

/** `-e "prog args"`: ncat splits the value at spaces and runs the program, without a shell. */
function execWords(value: Word): Word[] {
  if (!value.static) return [value];
  return value.value
    .split(/\s+/)
    .filter(Boolean)
    .map((part) => syntheticWord(part, value.span));
}

function netcat(cmd: CommandView): NestedSpec[] {
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

/** socat ADDRESS ADDRESS: `EXEC:prog args` runs a program, `SYSTEM:cmd` a shell command. */
function socat(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, grammar({}), {
    permute: false,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const specs: NestedSpec[] = [];
  for (const address of operandWords(cmd.argv, parsed)) {
    const lead = leadingText(address);
    const kind = /^(exec|system):/i.exec(lead)?.[1]?.toLowerCase();
    if (!kind) {
      if (!address.static && !/^[A-Za-z0-9-]+:/.test(lead)) {
        specs.push(unresolved(`socat: ${address.text} may be an address that runs a program`, address));
      }
      continue;
    }
    const rest = sliceWord(address, kind.length + 1);
    const command = rest.static ? syntheticWord(rest.value.split(',')[0]!, rest.span) : rest;
    specs.push(
      kind === 'exec'
        ? argvSpec(execWords(command), 'socat EXEC', { kind: 'option' })
        : shellSpec(command, 'socat SYSTEM'),
    );
  }
  return specs;
}

export const NETCAT_HANDLERS: Record<string, (cmd: CommandView) => NestedSpec[]> = {
  ...Object.fromEntries(NAMES.map((name) => [name, netcat])),
  socat,
};
