import { grammar } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

export const SORT = grammar({
  flags: 'bdfgiMhnRrVcCsuzm',
  values: 'koStT',
  long:
    'ignore-leading-blanks/b dictionary-order/d ignore-case/f general-numeric-sort/g ignore-nonprinting/i ' +
    'month-sort/M human-numeric-sort/h numeric-sort/n random-sort/R random-source= reverse/r sort= ' +
    'version-sort/V batch-size= check? compress-program= debug files0-from= key=/k merge/m output=/o ' +
    'stable/s buffer-size=/S field-separator=/t temporary-directory=/T parallel= unique/u zero-terminated/z ' +
    'help version',
});

export const SORT_SPEC: ProgramSpec = {
  name: 'sort',
  grammar: SORT,
  readOnly: readOnly(
    () => everyOptionBut(SORT, 'o --compress-program T --files0-from --random-source'),
    'files',
    {
      why: {
        o: 'writes its output to a file',
        '--compress-program': 'runs a program',
        T: 'writes temporary files to a folder',
        '--files0-from': 'reads files its operands do not name',
        '--random-source': 'reads a file no rule names',
      },
    },
  ),
};
