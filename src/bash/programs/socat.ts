import type { CommandView, NestedSpec } from '../types.js';
import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { execWords } from './netcat.js';
import { grammar, operandWords, parseOptions } from './options.js';
import { argvSpec, parseFailure, shellSpec, unresolved } from './specs.js';
import { leadingText, sliceWord, syntheticWord } from './words.js';

/** socat ADDRESS ADDRESS: `EXEC:prog args` runs a program, `SYSTEM:cmd` a shell command. */
function nested(cmd: CommandView): NestedSpec[] {
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

/** Its addresses read and write files (`OPEN:`, `CREATE:`, `FILE:`), which are not modelled. */
export const SOCAT_MODULE: ProgramModule = {
  names: ['socat'],
  effects: () => UNKNOWN,
  nested,
  oracle: {
    cases: [
      "socat - 'EXEC:cat .env'",
      "socat - 'SYSTEM:cat .env'",
      'socat -u OPEN:.env CREATE:x',
      'socat -u FILE:.env STDOUT',
    ],
  },
};
