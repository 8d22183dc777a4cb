import type { FileAccess, FileEffect, Word, WriteNames } from '../types.js';
import {
  argument,
  argvWords,
  type EffectHandler,
  each,
  listedIn,
  NONE,
  option,
  treeWrite,
} from './effect-helpers.js';
import { is, leadingText, sliceWord, splitsFreely, syntheticWord } from './words.js';

/** A word that may turn into an option or into several words at run time. */
function unsure(word: Word): boolean {
  return (!word.static && leadingText(word) === '') || splitsFreely(word);
}

/** `name` with `suffix` appended, at the place of `word`. */
function withSuffix(word: Word, suffix: string): Word {
  return { ...word, text: word.text + suffix, value: word.value + suffix };
}

/** zip adds `.zip` to an archive name that has no extension. */
function zipName(word: Word): Word {
  const base = word.value.slice(word.value.lastIndexOf('/') + 1);
  return word.static && !base.includes('.') ? withSuffix(word, '.zip') : word;
}

/** zip options that take the next word (or an attached value) as their value. */
const ZIP_VALUES = new Set([
  'b',
  'n',
  't',
  'tt',
  'O',
  'P',
  's',
  'sp',
  'Z',
  'la',
  'lf',
  'li',
  'TT',
  'ds',
  'sc',
]);
const ZIP_LONG_VALUES: Record<string, string> = {
  'temp-path': 'b',
  suffixes: 'n',
  from: 't',
  before: 'tt',
  'output-file': 'O',
  password: 'P',
  split: 's',
  'compression-method': 'Z',
  'log-append': 'la',
  'logfile-path': 'lf',
  'log-info': 'li',
  'unzip-command': 'TT',
};
const ZIP_LONG_FLAGS: Record<string, string> = {
  'recurse-paths': 'r',
  'recurse-patterns': 'R',
  quiet: 'q',
  verbose: 'v',
  move: 'm',
  delete: 'd',
  update: 'u',
  freshen: 'f',
  'junk-paths': 'j',
  symlinks: 'y',
  'no-extra': 'X',
  encrypt: 'e',
  test: 'T',
  'names-stdin': '@',
  'no-dir-entries': 'D',
  'latest-time': 'o',
  grow: 'g',
  fix: 'F',
  fixfix: 'FF',
  'copy-entries': 'U',
  help: 'h',
  version: 'v',
  filesync: 'FS',
  'display-bytes': 'db',
  'display-counts': 'dc',
  'display-dots': 'dd',
};

/**
 * zip [options] ARCHIVE [FILES] [-i|-x patterns]: the archive is written (and read when it exists), the files
 * read; -m deletes them; -d names entries, not files; -@ reads the names from stdin; -O writes another file.
 */
export const zip: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const effects: FileEffect[] = [];
  const operands: Word[] = [];
  let known = true;
  let move = false;
  let entries = false;
  for (const step of argvWords(words)) {
    const { word, lead } = step;
    if (!step.options || !lead.startsWith('-') || word.value === '-') {
      if (unsure(word)) known = false;
      operands.push(word);
      continue;
    }
    if (!word.static) known = false;
    let name: string;
    if (lead.startsWith('--')) {
      const eq = lead.indexOf('=');
      const long = lead.slice(2, eq < 0 ? undefined : eq);
      if (long === 'help' || long === 'version') return NONE;
      if (long === 'include' || long === 'exclude') name = long[0]!;
      else name = ZIP_LONG_VALUES[long] ?? ZIP_LONG_FLAGS[long] ?? '';
      if (name === '') {
        known = false;
        continue;
      }
      if (eq >= 0) {
        valueEffect(name, sliceWord(word, eq + 1), effects);
        continue;
      }
    } else {
      name = lead.slice(1);
    }
    if (name === 'i' || name === 'x' || /^[ix]@/.test(name)) {
      if (name.length > 1) effects.push(option('read', sliceWord(word, 3)));
      // The patterns run up to the next option.
      while (step.peek() && !leadingText(step.peek()!).startsWith('-')) step.take();
      continue;
    }
    if (ZIP_VALUES.has(name)) {
      const value = step.take();
      if (value) valueEffect(name, value, effects);
      continue;
    }
    if (name === 'h' || name === 'h2' || (name === 'v' && words.length === 2)) return NONE;
    if (!/^[A-Za-z0-9$@]+$/.test(name) || [...'bnOPsZ'].some((c) => name.includes(c))) known = false;
    if (name.includes('m')) move = true;
    if (name.includes('d') && !/^d[scdbgv]/.test(name)) entries = true;
    if (name.includes('@')) {
      effects.push(listedIn('read', word));
      known = false;
    }
  }
  const archive = operands[0];
  if (!archive) return { effects, known };
  if (!is(archive, '-'))
    effects.push(argument('read', zipName(archive)), argument('write', zipName(archive)));
  if (!entries) effects.push(...each(move ? ['read', 'delete'] : 'read', operands.slice(1)));
  return { effects, known };
};

function valueEffect(name: string, value: Word, effects: FileEffect[]): void {
  if (name === 'O') effects.push(option('write', value));
  else if (name === 'lf' || name === 'la') effects.push(option('write', value));
  else if (name === 'b') effects.push(option('write', value));
}

/** unzip modes that only print or test: nothing is extracted. */
const UNZIP_PRINTS = /[lptvcZz]/;

/**
 * unzip [options] ARCHIVE [MEMBERS] [-x MEMBERS] [-d DIR]: the archive is read; extracting writes files, named
 * only inside the archive, into DIR (or the working folder).
 */
export const unzip: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const effects: FileEffect[] = [];
  const operands: Word[] = [];
  let known = true;
  let prints = false;
  let junk = false;
  let destination: Word | undefined;
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (!lead.startsWith('-') || word.value === '-') {
      if (unsure(word)) known = false;
      operands.push(word);
      continue;
    }
    if (!word.static) known = false;
    if (lead.startsWith('--')) {
      known = false;
      continue;
    }
    const letters = lead.slice(1);
    if (letters === 'x') {
      while (words[i + 1] && !leadingText(words[i + 1]!).startsWith('-')) i++;
      continue;
    }
    const d = letters.indexOf('d');
    if (d >= 0) {
      destination = d + 1 < letters.length ? sliceWord(word, d + 2) : words[++i];
      continue;
    }
    if (letters.includes('P')) {
      i++;
      continue;
    }
    if (UNZIP_PRINTS.test(letters)) prints = true;
    if (letters.includes('j')) junk = true;
    if (!/^[A-Za-z0-9]+$/.test(letters)) known = false;
  }
  const archive = operands[0];
  if (!archive) return { effects, known };
  effects.push(argument('read', archive));
  if (prints) return { effects, known };
  const folder = destination ?? syntheticWord('.', archive.span);
  const names: WriteNames = junk
    ? { kind: 'unknown', why: 'unzip -j writes every member under its last name' }
    : { kind: 'archive', format: 'zip', file: archive };
  effects.push(treeWrite(folder, destination ? 'option' : 'argument', names));
  return { effects, known: false };
};

interface Compressor {
  /** Short options that take a value. */
  values: string;
  /** Long options that take a value (after `=` or in the next word). */
  longValues: string[];
  /** Options whose value is a file read or written. */
  files: Record<string, FileAccess>;
  /** Options after which the files touched are not all named. */
  unlisted: string[];
  suffix: string;
  /** The program decompresses by default (gunzip). */
  decompresses: boolean;
}

/** Flags that write no file: to stdout, test, list. */
const NO_OUTPUT = new Set(['c', 't', 'l', '--stdout', '--to-stdout', '--test', '--list']);
const DECOMPRESS = new Set(['d', '--decompress', '--uncompress']);

/**
 * gzip, bzip2, xz, zstd and their kin: each FILE is read and, unless the output goes to stdout or the input is
 * kept, deleted; the compressed (or decompressed) file is written beside it. -r walks folders.
 */
function compressor(spec: Compressor): EffectHandler {
  return (cmd) => {
    const words = cmd.argv;
    const effects: FileEffect[] = [];
    const files: Word[] = [];
    const flags = new Set<string>();
    let known = true;
    for (const step of argvWords(words)) {
      const { word, lead } = step;
      if (!step.options || !lead.startsWith('-') || word.value === '-') {
        if (unsure(word)) known = false;
        if (word.value !== '-') files.push(word);
        continue;
      }
      if (!word.static) known = false;
      if (lead.startsWith('--')) {
        const eq = lead.indexOf('=');
        const name = lead.slice(0, eq < 0 ? undefined : eq);
        if (name === '--help' || name === '--version') return NONE;
        flags.add(name);
        if (spec.longValues.includes(name)) {
          const value = eq < 0 ? step.take() : sliceWord(word, eq + 1);
          const access = spec.files[name];
          if (value && access) effects.push(option(access, value));
          if (name === '--suffix' && value) flags.add(`suffix=${value.value}`);
        } else if (eq >= 0) known = false;
        continue;
      }
      for (let j = 1; j < lead.length; j++) {
        const c = lead[j]!;
        flags.add(c);
        if (!spec.values.includes(c)) continue;
        const value = j + 1 < lead.length ? sliceWord(word, j + 1) : step.take();
        const access = spec.files[c];
        if (value && access) effects.push(option(access, value));
        break;
      }
    }
    if (flags.has('h') || flags.has('V')) return NONE;
    if (spec.unlisted.some((name) => flags.has(name))) {
      effects.push(listedIn('read', words[0]!));
      known = false;
    }
    const noOutput = [...NO_OUTPUT].some((name) => flags.has(name));
    const decompress = spec.decompresses || [...DECOMPRESS].some((name) => flags.has(name));
    const recursive = flags.has('r') || flags.has('--recursive');
    effects.push(...each('read', files));
    if (!noOutput) {
      if (!flags.has('k') && !flags.has('--keep')) effects.push(...each('delete', files));
      for (const file of files) {
        if (recursive) effects.push(argument('write', file));
        else if (!decompress) effects.push(argument('create', withSuffix(file, spec.suffix)));
        else effects.push(argument('create', withoutSuffix(file)));
      }
    }
    return { effects, known };
  };
}

function withoutSuffix(word: Word): Word {
  const dot = word.value.lastIndexOf('.');
  if (dot <= word.value.lastIndexOf('/') + 1 || !word.static) return word;
  return { ...word, text: word.value.slice(0, dot), value: word.value.slice(0, dot) };
}

const GZIP: Compressor = {
  values: 'S',
  longValues: ['--suffix', '--rsyncable-size'],
  files: {},
  unlisted: [],
  suffix: '.gz',
  decompresses: false,
};
const XZ: Compressor = {
  values: 'SFCT',
  longValues: ['--suffix', '--format', '--check', '--threads', '--memlimit', '--files', '--files0'],
  files: { '--files': 'read', '--files0': 'read' },
  unlisted: ['--files', '--files0'],
  suffix: '.xz',
  decompresses: false,
};
const ZSTD: Compressor = {
  values: 'oDTMB',
  longValues: [
    '--output',
    '--filelist',
    '--output-dir-flat',
    '--output-dir-mirror',
    '--patch-from',
    '--memory',
  ],
  files: {
    o: 'write',
    '--output': 'write',
    D: 'read',
    '--patch-from': 'read',
    '--filelist': 'read',
    '--output-dir-flat': 'write',
    '--output-dir-mirror': 'write',
  },
  unlisted: ['--filelist', '--output-dir-flat', '--output-dir-mirror'],
  suffix: '.zst',
  decompresses: false,
};
const BZIP2: Compressor = { ...GZIP, values: '', longValues: [], suffix: '.bz2' };

export const ARCHIVE_EFFECTS: Record<string, EffectHandler> = {
  zip,
  unzip,
  gzip: compressor(GZIP),
  pigz: compressor(GZIP),
  gunzip: compressor({ ...GZIP, decompresses: true }),
  bzip2: compressor(BZIP2),
  bunzip2: compressor({ ...BZIP2, decompresses: true }),
  xz: compressor(XZ),
  unxz: compressor({ ...XZ, decompresses: true }),
  lzma: compressor({ ...XZ, suffix: '.lzma' }),
  unlzma: compressor({ ...XZ, suffix: '.lzma', decompresses: true }),
  zstd: compressor(ZSTD),
  unzstd: compressor({ ...ZSTD, decompresses: true }),
};
