import { unzip } from './archive-effects.js';
import type { ProgramModule } from './module.js';
import { grammar, has } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';

/**
 * Info-ZIP unzip 6.0's options, as `unzip -hh` lists them: single letters only, `-d DIR` and `-P PASSWORD` take a
 * value; `-x` makes the words after it members to leave out.
 */
const UNZIP = grammar({
  flags: 'ZcflptTuvzabBCDeEFjJKLMnNoqsSUVWXx$:^h2',
  values: 'dP',
  abbreviate: false,
});

/** Listing, testing or printing an archive reads it; any other mode extracts into the working folder. */
const spec: ProgramSpec = {
  name: 'unzip',
  grammar: UNZIP,
  readOnly: readOnly('l v t z q C p c', 'files', {
    check: (parsed) =>
      has(parsed, 'l', 'v', 't', 'z', 'p', 'c')
        ? undefined
        : 'unzip without -l, -v, -t, -z, -p or -c extracts',
    why: {
      T: 'sets the archive’s time',
      M: 'runs the pager more',
      d: 'extracts into a folder',
      Z: 'reads zipinfo’s options',
    },
  }),
};

export const UNZIP_MODULE: ProgramModule = {
  names: ['unzip'],
  spec,
  effects: unzip,
  oracle: {
    cases: [
      'unzip -l a.zip',
      'unzip -v a.zip',
      'unzip -t a.zip',
      'unzip -p a.zip README.md',
      'unzip -lq a.zip',
    ],
  },
};
