import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/** util-linux whereis, as `whereis --help` lists it: `-B`, `-M`, `-S` take folders up to `-f`. */
const WHEREIS = grammar({ flags: 'bmsuflhV', values: 'BMS', long: 'help/h version/V', abbreviate: false });

const spec: ProgramSpec = {
  name: 'whereis',
  grammar: WHEREIS,
  readOnly: readOnly('b m s u l h V', 'inert', {
    why: {
      B: 'lists folders no rule names',
      M: 'lists folders no rule names',
      S: 'lists folders no rule names',
      f: 'ends a list of folders no rule names',
    },
  }),
};

/** whereis prints where a program, its sources and its manual pages are, from the system's search paths. */
export const WHEREIS_MODULE: ProgramModule = {
  names: ['whereis'],
  spec,
  effects: () => NONE,
  oracle: { cases: ['whereis git', 'whereis -b ls', 'whereis -l'] },
};
