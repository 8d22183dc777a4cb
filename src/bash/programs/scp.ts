import type { CommandView, NestedSpec } from '../types.js';
import { argument, type EffectHandler, fileCommand, reads } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, parseOptions } from './options.js';
import { parseFailure } from './specs.js';
import { sshOptionSpecs } from './ssh.js';

const SCP = grammar({ flags: '346ABCpqrRTOv', values: 'cDFiJloPSX' });

/** scp SRC... DEST: sources read, the destination written; -F and -i read a configuration and a key. */
const effects: EffectHandler = fileCommand({
  grammar: SCP,
  fileOptions: { F: 'read', i: 'read' },
  posix: true,
  operands: (operands) =>
    operands.length < 2 ? [] : [...reads(operands.slice(0, -1)), argument('write', operands.at(-1)!)],
});

function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, SCP);
  if (!parsed.ok) return [parseFailure('scp', parsed)];
  return sshOptionSpecs('scp', parsed);
}

export const SCP_MODULE: ProgramModule = {
  names: ['scp'],
  effects,
  nested,
  oracle: {
    cases: [
      'scp -i key a host:b',
      'scp -F cfg README.md host:b',
      'scp host:.env x',
      'scp -r docs host:b',
      'scp -S ./prog a host:b',
      'scp -o ProxyCommand="cat .env" a host:b',
    ],
    operands: ['host:b', 'host:.env'],
  },
};
