import type { Word } from '../types.js';
import { type EffectHandler, fileCommand, reads, unseenFiles, workingFolder } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';

const FOLLOWS_LINKS = 'follows links below the folder, to files no rule can be checked against';
const READS_PATTERNS = 'reads patterns from a file no rule names';

/** GNU grep 3.x; `egrep` and `fgrep` are grep with `-E` and `-F`. */
const GREP = grammar({
  flags: 'EFGPiywxzsvVbnHhoqaIrRLlcTZUu',
  values: 'efmABCDd',
  long:
    'extended-regexp/E fixed-strings/F basic-regexp/G perl-regexp/P regexp=/e file=/f ignore-case/i ' +
    'no-ignore-case word-regexp/w line-regexp/x null-data/z no-messages/s invert-match/v version/V help ' +
    'max-count=/m byte-offset/b line-number/n no-line-number line-buffered with-filename/H no-filename/h ' +
    'label= only-matching/o quiet/q silent/q binary-files= text/a devices=/D directories=/d exclude= ' +
    'exclude-from= exclude-dir= include= recursive/r dereference-recursive/R files-without-match/L ' +
    'files-with-matches/l count/c initial-tab/T null/Z after-context=/A before-context=/B context=/C ' +
    'color? colour? binary/U group-separator= no-group-separator',
  numeric: true,
});

const spec: ProgramSpec = {
  name: 'grep',
  aliases: ['egrep', 'fgrep'],
  grammar: GREP,
  readOnly: readOnly(() => everyOptionBut(GREP, 'f --exclude-from R'), 'files', {
    why: { f: READS_PATTERNS, '--exclude-from': READS_PATTERNS, R: FOLLOWS_LINKS },
  }),
};

/**
 * How grep walks a folder operand: `-r`, `--directories=recurse` (any abbreviation grep accepts: `-d rec`)
 * read every file below it, hidden ones too; `-R` also follows every link below it. A value grep would reject
 * (or one known only at run time) is read as recursion: the stricter reading.
 */
function recursion(parsed: Parsed): 'none' | 'recursive' | 'follows-links' {
  if (has(parsed, 'R')) return 'follows-links';
  const recursive =
    has(parsed, 'r') || parsed.options.some((found) => found.name === 'd' && !readsNoFolder(found.value));
  return recursive ? 'recursive' : 'none';
}

/** `-d read` and `-d skip`, as grep's argmatch reads them: any unambiguous prefix (`rea`, `s`; `re` is not one). */
function readsNoFolder(value: Word | undefined): boolean {
  if (!value?.static) return false;
  const v = value.value;
  return ('skip'.startsWith(v) && v !== '') || ('read'.startsWith(v) && v.length >= 3);
}

const effects: EffectHandler = fileCommand({
  grammar: GREP,
  fileOptions: { f: 'read', '--exclude-from': 'read' },
  operands: (operands, parsed) => {
    const named = has(parsed, 'e', 'f') ? operands : operands.slice(1);
    const walk = recursion(parsed);
    // A recursive search with no file searches the working folder.
    const files = named.length === 0 && walk !== 'none' ? [workingFolder(operands.at(-1))] : named;
    const read = reads(files);
    return walk === 'follows-links'
      ? [...read, ...files.map((f) => unseenFiles('read', `the files the links below ${f.text} lead to`, f))]
      : read;
  },
});

export const GREP_MODULE: ProgramModule = {
  names: ['grep', 'egrep', 'fgrep'],
  spec,
  effects,
  oracle: {
    cases: [
      'grep -d recurse SECRET',
      'grep --directories=recurse SECRET',
      'grep --dir=rec SECRET',
      'grep -drecurse SECRET',
      'grep -d rec SECRET .',
      'grep -r SECRET',
      'grep -rl SECRET',
      'grep -R SECRET docs',
      'grep --dereference-recursive SECRET',
      'grep -r --include=*.md SECRET',
      'grep -r --exclude-dir=.git SECRET',
      'egrep -r SECRET',
      'fgrep -r SECRET .',
      'grep -f .env README.md',
      'grep -e SECRET -r',
    ],
    operands: ['.', 'docs', 'docs/key'],
  },
};
