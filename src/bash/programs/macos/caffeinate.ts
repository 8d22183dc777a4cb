import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { WRAPPERS } from '../wrappers.js';

/**
 * caffeinate(8): holds power assertions (`-d` display, `-i` idle, `-m` disk, `-s` system, `-u` user active)
 * until it is interrupted, for `-t SECONDS`, until process `-w PID` exits, or while the command it is given
 * runs. The assertions end with it and change no setting or file. The command it runs is decided on its own
 * (as a wrapper: `caffeinate -i make`).
 */
const CAFFEINATE = grammar({ flags: 'disum', values: 'tw', abbreviate: false });

const spec: ProgramSpec = {
  name: 'caffeinate',
  grammar: CAFFEINATE,
  permute: false,
  readOnly: readOnly('d i s u m t w', 'none'),
};

/** caffeinate: keeping the machine awake. */
export const CAFFEINATE_MODULE: ProgramModule = {
  names: ['caffeinate'],
  spec,
  nested: WRAPPERS.caffeinate!,
  network: () => false,
  oracle: { cases: ['caffeinate -t 1', 'caffeinate -i ls'] },
};
