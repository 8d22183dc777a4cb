import type { ProgramModule } from '../module.js';
import { grammar, has } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { level, levelEffects } from './levels.js';

/**
 * binhex(1) (also run as `applesingle` and `macbinary`), macOS's BinHex 4, AppleSingle and MacBinary II coder:
 * `probe FILE…` says whether each file is in the format; `-h`/`--help` and `-V`/`--version` print. `encode`
 * and `decode` write files beside their inputs or into `-C DIR`, and their options are not all documented
 * where they run here: asked.
 */
const spec: ProgramSpec = {
  name: 'binhex',
  aliases: ['applesingle', 'macbinary'],
  grammar: grammar({ flags: 'hV', long: 'help/h version/V', abbreviate: false }),
  permute: false,
  readOnly: readOnly('h V', 'none', {
    check: (parsed) => (has(parsed, 'h', 'V') ? undefined : 'binhex without a command'),
  }),
  subcommands: { probe: level({ operands: 'files' }) },
};

/** binhex, applesingle, macbinary: probing a file's format. */
export const BINHEX_MODULE: ProgramModule = {
  names: ['binhex', 'applesingle', 'macbinary'],
  spec,
  effects: levelEffects(spec),
  network: () => false,
  oracle: { cases: ['binhex probe a.hqx', 'binhex decode a.hqx'] },
};
