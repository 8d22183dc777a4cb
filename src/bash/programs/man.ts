import type { Word } from '../types.js';
import { NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { leadingText } from './words.js';

/** man-db's options, as `man --help` lists them (man-db 2.11). */
const MAN = grammar({
  flags: 'dDfkKlwWciIau7tZh?V',
  values: 'CRLmMSsepPrE',
  optional: 'THX',
  long:
    'config-file=/C debug/d default/D warnings? whatis/f apropos/k global-apropos/K local-file/l where/w ' +
    'path/w location/w where-cat/W location-cat/W catman/c recode=/R locale=/L systems=/m manpath=/M ' +
    'sections=/S extension=/e ignore-case/i match-case/I regex wildcard names-only all/a update/u ' +
    'no-subpages pager=/P prompt=/r ascii/7 encoding=/E no-hyphenation nh no-justification nj ' +
    'preprocessor=/p troff/t troff-device?/T html?/H gxditview?/X ditroff/Z help/? usage version/V',
});

const RUNS = 'runs a program it names';

/** man-db reads a page name holding a `/` as a file to format (`man ./evil.1`), not as a page to look up. */
function pageNames(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!word.static || leadingText(word).includes('/')) return `man ${word.text} may name a file to format`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'man',
  grammar: MAN,
  readOnly: readOnly(
    'd D f k K w W i I a 7 L S s e E --warnings --regex --wildcard --names-only --no-subpages --no-hyphenation ' +
      '--nh --no-justification --nj ? --usage V',
    'inert',
    {
      check: pageNames,
      why: {
        C: 'reads a configuration file no rule names',
        l: 'formats a file no rule names',
        c: 'writes cat pages',
        u: 'rebuilds its cache',
        M: 'reads pages from a folder no rule names',
        m: 'reads pages from a folder no rule names',
        P: RUNS,
        p: 'runs preprocessors',
        H: RUNS,
        X: RUNS,
        t: 'runs groff to another output',
        T: 'runs groff to another output',
        Z: 'runs groff to another output',
        R: 'prints the page source recoded',
        r: 'sets the pager prompt',
      },
    },
  ),
};

/** man prints a manual page: it looks the page up in the system's manual folders and formats it. */
export const MAN_MODULE: ProgramModule = {
  names: ['man'],
  spec,
  effects: () => NONE,
  oracle: { cases: ['man ls', 'man -w git', 'man -f ls', 'man 1 ls', 'man -k copy'] },
};
