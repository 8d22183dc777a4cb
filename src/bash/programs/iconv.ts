import { each, fileCommand } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

/** glibc iconv, as `iconv --help` lists it (2.36); argp reads a unique prefix of a long option. */
const ICONV = grammar({
  flags: 'lcsV',
  values: 'fto',
  long: 'from-code=/f to-code=/t list/l output=/o silent/s verbose help usage version/V',
});

const spec: ProgramSpec = {
  name: 'iconv',
  grammar: ICONV,
  readOnly: readOnly(() => everyOptionBut(ICONV, 'o'), 'files', {
    why: { o: 'writes its output to a file' },
  }),
};

/**
 * iconv converts the text of its files (stdin without one) from one encoding to another, to stdout or the -o file.
 * The converters it loads come from the system's gconv folder unless GCONV_PATH names another, which automode
 * decides as a loader variable.
 */
export const ICONV_MODULE: ProgramModule = {
  names: ['iconv'],
  spec,
  effects: fileCommand({
    grammar: ICONV,
    fileOptions: { o: 'write' },
    operands: (files) => each('read', files),
  }),
  oracle: {
    cases: [
      'iconv -l',
      'iconv -f UTF-8 -t ASCII//TRANSLIT README.md',
      'iconv --from-code=UTF-8 --to-code=UTF-16 -c -s notes.txt docs/guide.md',
      'iconv -f latin1 -t utf-8 -o out.txt notes.txt',
      'iconv --verbose -t ascii .env',
    ],
  },
};
