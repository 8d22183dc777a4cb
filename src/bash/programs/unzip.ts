import type { Word } from '../types.js';
import { unzip } from './archive-effects.js';
import { argvWords, type EffectHandler, each, NONE } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { leadingText, syntheticWord } from './words.js';

/**
 * Info-ZIP unzip 6.0's options, as `unzip -hh` lists them: single letters only, `-d DIR` and `-P PASSWORD` take a
 * value; `-x` makes the words after it members to leave out.
 */
const UNZIP = grammar({
  flags: 'ZcflptTuvzabBCDeEFjJKLMnNoqsSUVWXx$:^h2',
  values: 'dP',
  abbreviate: false,
});

/**
 * ZipInfo 3.0's options, as `zipinfo -h` lists them (`zipinfo [-12smlvChMtTz] file[.zip] [list...] [-x
 * xlist...]`): all only shape the listing, but `-M` pages it through a built-in more.
 */
const ZIPINFO = grammar({ flags: '12smlvChMtTzx', abbreviate: false });

const zipinfo: ProgramSpec = {
  name: 'zipinfo',
  grammar: ZIPINFO,
  readOnly: readOnly('1 2 s m l v C h t T z x', 'files', {
    check: (_parsed, words) => {
      const archive = words.slice(1).find((word) => !leadingText(word).startsWith('-'));
      if (!archive) return 'zipinfo without an archive';
      if (/[*?[]/.test(archive.value)) return 'zipinfo reads every archive its wildcard matches';
      return undefined;
    },
    why: { M: 'runs the pager more' },
  }),
};

/**
 * `unzip -Z` as its first word is zipinfo (unzip.c: `-Z` must come first; `-Zl` reads as `-l`). A `-Z` word only
 * known at run time is left to unzip's own grammar, which does not allow it.
 */
function asZipinfo(words: readonly Word[]): { spec: ProgramSpec; words: readonly Word[] } | undefined {
  const first = words[1];
  if (!first?.static || !first.value.startsWith('-Z')) return undefined;
  const rest = first.value.slice(2);
  const lead = rest === '' ? [] : [syntheticWord(`-${rest}`, first.span)];
  return { spec: zipinfo, words: [words[0]!, ...lead, ...words.slice(2)] };
}

/** Listing, testing or printing an archive reads it; any other mode extracts into the working folder. */
const spec: ProgramSpec = {
  name: 'unzip',
  grammar: UNZIP,
  readAs: asZipinfo,
  readOnly: readOnly('l v t z q C p c', 'files', {
    check: (parsed) =>
      has(parsed, 'l', 'v', 't', 'z', 'p', 'c')
        ? undefined
        : 'unzip without -l, -v, -t, -z, -p or -c extracts',
    why: {
      T: 'sets the archive’s time',
      M: 'runs the pager more',
      d: 'extracts into a folder',
      h: 'prints the usage only alone (unzip -h, unzip -hh)',
    },
  }),
};

/** zipinfo OPTIONS ARCHIVE [MEMBERS] [-x MEMBERS]: reads the archive; members are names inside it. */
const lists: EffectHandler = (cmd) => {
  let known = true;
  for (const { word, lead, options } of argvWords(cmd.argv, 1)) {
    if (options && lead.startsWith('-')) {
      if (!word.static) known = false;
      continue;
    }
    if (!word.static) known = false;
    return { effects: each('read', [word]), known };
  }
  return NONE;
};

const effects: EffectHandler = (cmd) => {
  const other = asZipinfo(cmd.argv);
  return other ? lists({ ...cmd, argv: [...other.words] }) : unzip(cmd);
};

export const UNZIP_MODULE: ProgramModule = {
  names: ['unzip'],
  spec,
  effects,
  oracle: {
    cases: [
      'unzip -l a.zip',
      'unzip -v a.zip',
      'unzip -t a.zip',
      'unzip -p a.zip README.md',
      'unzip -lq a.zip',
      'unzip -Z a.zip',
      'unzip -Z -1 a.zip',
      'unzip -Zl a.zip',
      'unzip -Z -hTt a.zip README.md -x docs',
      'unzip -h',
      'unzip -hh',
    ],
  },
};

export const ZIPINFO_MODULE: ProgramModule = {
  names: ['zipinfo'],
  spec: zipinfo,
  effects: lists,
  oracle: {
    cases: ['zipinfo a.zip', 'zipinfo -1 a.zip', 'zipinfo -lTz a.zip README.md', 'zipinfo -v a.zip'],
  },
};
