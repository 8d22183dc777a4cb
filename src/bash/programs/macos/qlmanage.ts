import type { ProgramModule } from '../module.js';
import { grammar } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';

/**
 * qlmanage(1), Quick Look's server tool: `-m` prints the server's state (its generators, statistics, memory),
 * `-h` the usage. `-p` and `-t` open a preview window on the user's screen that stays until closed (with
 * `-o DIR`, `-t` writes thumbnails there), `-r` resets the generators and the thumbnail cache, `-g` loads a
 * generator's code: asked.
 */
const QLMANAGE = grammar({ flags: 'mhptrx', values: 'gosfdci', abbreviate: false });

const spec: ProgramSpec = {
  name: 'qlmanage',
  grammar: QLMANAGE,
  readOnly: readOnly('m h', 'inert', {
    why: {
      p: 'opens a preview window',
      t: 'opens a thumbnail window, or writes thumbnails with -o',
      r: 'resets the generators and the thumbnail cache',
      g: "loads a generator's code",
      o: 'writes the output to a folder',
    },
  }),
};

/** qlmanage: the Quick Look server's state. */
export const QLMANAGE_MODULE: ProgramModule = {
  names: ['qlmanage'],
  spec,
  network: () => false,
  oracle: { cases: ['qlmanage -m', 'qlmanage -r cache'] },
};
