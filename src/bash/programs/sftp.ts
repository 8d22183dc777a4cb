import type { CommandView, NestedSpec } from '../types.js';
import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, parseOptions } from './options.js';
import { parseFailure } from './specs.js';
import { sshOptionSpecs } from './ssh.js';

const SFTP = grammar({ flags: '246aCfNpqrv', values: 'BbcDFiJloPRsSX' });

function nested(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, SFTP);
  if (!parsed.ok) return [parseFailure('sftp', parsed)];
  return sshOptionSpecs('sftp', parsed);
}

export const SFTP_MODULE: ProgramModule = {
  names: ['sftp'],
  /** Batch files and interactive commands read and write any file. */
  effects: () => UNKNOWN,
  nested,
  oracle: { cases: ['sftp -S ./prog host', 'sftp -D ./server host', 'sftp -b batch host'] },
};
