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
  UNKNOWN,
} from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';
import { leadingText, sliceWord, splitsFreely, syntheticWord } from './words.js';

/**
 * 7-Zip's switches, as `7z --help` lists them: each a letter and what follows it in the same word (`-slt`,
 * `-p{Password}`, `-o{Directory}`, `-i@listfile`); no switch takes the next word. 7z reads them before and after
 * the command and the archive, up to `--`. It also reads them in capitals (`-SLT`): those are unknown here.
 */
const SEVEN_ZIP = grammar({ optional: 'abimoprstuvwxy', long: 'help', abbreviate: false });

/** Before the command, `-h` and `--help` print the usage too, as `7z` alone does. */
const SEVEN_ZIP_TOP = grammar({
  optional: 'abimoprstuvwxy',
  long: 'help',
  words: '-h/--help',
  abbreviate: false,
});

/** Switches that only shape how an archive is listed or tested, by their whole text (`bb1`, `slt`). */
const READ_SWITCHES =
  /^(?:b(?:a|b[0-3]?|d|t|s[eop][0-2])|p.*|r[-0]?|s(?:lt|cc(?:UTF-8|WIN|DOS)|pd|sc-?)|t(?![Ss]plit$)[A-Za-z0-9.]+|y)$/;

/** `-scrc{Method}`: the hashers `7z i` lists, named in any case; `*` is every one of them. */
const SCRC = /^scrc(?:crc32|crc64|md5|sha1|sha256|sha3-256|sha384|sha512|xxh64|blake2sp|\*)?$/i;

/** The first volume of an archive split in parts (`a.7z.001`, `a.part1.rar`, `a.r00`, `a.z01`): 7z opens the rest. */
const VOLUME = /\.(?:\d{3}|part\d+\.rar|[rz]\d{2})$/i;

/**
 * `l` and `t` read the archive and print: every switch on the allow-list, an archive named as it is (7z expands
 * its own wildcards: `'*.7z'` reads every archive they match), no list file (`@list`).
 */
function readsTheArchive(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const found of parsed.options) {
    const text = `${found.name}${found.value?.value ?? ''}`;
    if (found.value && !found.value.static) return `7z -${found.name}… is only known at run time`;
    if (!READ_SWITCHES.test(text) && !SCRC.test(text)) return `7z -${text} is not a read-only switch`;
  }
  const operands = parsed.operands.map((at) => words[at]!);
  const archive = operands[0];
  if (!archive) return '7z without an archive';
  if (archive.static && /[*?]/.test(archive.value)) return '7z reads every archive its wildcard matches';
  if (VOLUME.test(archive.value)) return '7z reads the archive’s other volumes, which the line does not name';
  const list = parsed.operands.find(
    (at) =>
      (parsed.dashdash === undefined || at < parsed.dashdash) && leadingText(words[at]!).startsWith('@'),
  );
  if (list !== undefined) return `7z reads the names listed in ${words[list]!.text.slice(1)}`;
  return undefined;
}

/**
 * Switches of `h` that only choose the hashes and shape the report: `-scrc` with each hasher `7z i` lists
 * (names read in any case), output streams, no wildcards (`-spd`). Not `-r`: it looks for the names in every
 * folder below.
 */
const HASH_SWITCHES = /^(?:b(?:a|b[0-3]?|d|t|s[eop][0-2])|scc(?:UTF-8|WIN|DOS)|spd)$/i;

/**
 * `h` reads the files and folders it is given (`.` when none is; links followed) and prints their sizes and
 * hashes: every switch on the allow-list, no wildcard (7z expands its own) and no list file.
 */
function hashesFiles(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const found of parsed.options) {
    const text = `${found.name}${found.value?.value ?? ''}`;
    if (found.value && !found.value.static) return `7z -${found.name}… is only known at run time`;
    if (!HASH_SWITCHES.test(text) && !SCRC.test(text)) return `7z h -${text} is not a read-only switch`;
  }
  const literal = parsed.options.some((found) => `${found.name}${found.value?.value ?? ''}` === 'spd');
  for (const at of parsed.operands) {
    const word = words[at]!;
    const beforeDashdash = parsed.dashdash === undefined || at < parsed.dashdash;
    if (beforeDashdash && leadingText(word).startsWith('@'))
      return `7z reads the names listed in ${word.text.slice(1)}`;
    if (!literal && word.static && /[*?]/.test(word.value))
      return '7z h reads every file its wildcard matches';
  }
  return undefined;
}

/**
 * Switches of `b` that only choose what the benchmark measures: threads (`-mmt4`, `-mmt=4`), dictionary size
 * (`-md24`, `-md=64m`), method (`-mm=LZMA2`, `-mm=*`), output streams. It works in memory and writes nothing.
 */
const BENCH_SWITCHES =
  /^(?:b(?:a|b[0-3]?|d|t|s[eop][0-2])|mmt=?(?:\d+|on|off)?|md=?\d+[bkmg]?|mm=[A-Za-z0-9*]+|mx=?\d)$/i;

/** `b [ITERATIONS]`: every switch on the allow-list, at most one operand, a count. */
function benchmarks(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const found of parsed.options) {
    const text = `${found.name}${found.value?.value ?? ''}`;
    if (found.value && !found.value.static) return `7z -${found.name}… is only known at run time`;
    if (!BENCH_SWITCHES.test(text)) return `7z b -${text} is not a benchmark switch`;
  }
  const operands = parsed.operands.map((at) => words[at]!);
  if (operands.length > 1) return '7z b takes one operand, the number of passes';
  const passes = operands[0];
  if (passes && !(passes.static && /^\d+$/.test(passes.value))) return '7z b takes a number of passes';
  return undefined;
}

const level = (readOnlySpec?: SubcommandSpec['readOnly']): SubcommandSpec => ({
  grammar: SEVEN_ZIP,
  ...(readOnlySpec ? { readOnly: readOnlySpec } : {}),
});

const LISTS = readOnly('b p r s t y', 'files', { check: readsTheArchive });

const spec: ProgramSpec = {
  name: '7z',
  aliases: ['7za', '7zr', '7zz'],
  grammar: SEVEN_ZIP_TOP,
  // `7z`, `7z -h`, `7z --help`: the usage, nothing read.
  readOnly: readOnly('--help', 'none'),
  subcommands: {
    a: level(),
    b: level(readOnly('b m', 'inert', { maxOperands: 1, check: benchmarks })),
    d: level(),
    e: level(),
    h: level(readOnly('b s', 'files', { check: hashesFiles })),
    i: level(readOnly('', 'none')),
    l: level(LISTS),
    rn: level(),
    t: level(LISTS),
    u: level(),
    x: level(),
  },
};

/**
 * How automode lists a 7z archive to learn the names extracting it writes: technical listing (one `Path = …`
 * per member), UTF-8 names, an empty password (never a prompt), the archive after `--`.
 */
export const SEVEN_ZIP_LISTING: readonly string[] = ['l', '-slt', '-sccUTF-8', '-p', '--'];

/** A word that may turn into an option or into several words at run time. */
function unsure(word: Word): boolean {
  return (!word.static && leadingText(word) === '') || splitsFreely(word);
}

/**
 * 7z COMMAND [SWITCHES] ARCHIVE [FILES]: `a u` add FILES, `x e` extract, `l t i` only read; `h FILES` reads FILES;
 * `b [PASSES]` reads and writes nothing.
 */
const effects: EffectHandler = (cmd) => {
  const words = cmd.argv;
  const command = words[1];
  if (words.every((word, i) => i === 0 || (word.static && (word.value === '-h' || word.value === '--help'))))
    return NONE;
  if (!command?.static) return UNKNOWN;
  const mode = command.value.toLowerCase();
  const effects: FileEffect[] = [];
  const operands: Word[] = [];
  let known = true;
  let output: Word | undefined;
  let deletes = false;
  let fullPaths = false;
  for (const { word, lead, options } of argvWords(words, 2)) {
    if (options && lead.startsWith('-') && word.value.length > 1) {
      if (!word.static) known = false;
      if (lead.startsWith('-spf')) fullPaths = true;
      if (lead.startsWith('-o')) output = sliceWord(word, 2);
      else if (lead === '-sdel') deletes = true;
      else if (/^-(i|x|ai|ax)[rw]?[-0]?@/.test(lead)) {
        const list = sliceWord(word, lead.indexOf('@') + 1);
        effects.push(option('read', list));
        if (lead.startsWith('-i') || lead.startsWith('-ai')) effects.push(listedIn('read', list));
        known = false;
      } else if (lead.startsWith('-w') && lead.length > 2) effects.push(option('write', sliceWord(word, 2)));
      continue;
    }
    if (lead.startsWith('@')) {
      effects.push(argument('read', sliceWord(word, 1)), listedIn('read', sliceWord(word, 1)));
      known = false;
      continue;
    }
    if (unsure(word)) known = false;
    operands.push(word);
  }
  if (mode === 'h') {
    const named = operands.length > 0 ? operands : [syntheticWord('.', command.span)];
    const read = each('read', named).map((e): FileEffect => ({ ...e, followsLinks: true }));
    return { effects: [...effects, ...read], known };
  }
  if (mode === 'b') return { effects, known };
  const [archive, ...files] = operands;
  if (!archive) return { effects, known };
  const archiveAccess: FileAccess[] = ['a', 'u', 'd', 'rn'].includes(mode) ? ['read', 'write'] : ['read'];
  effects.push(...each(archiveAccess, [archive]));
  if (mode === 'a' || mode === 'u') effects.push(...each(deletes ? ['read', 'delete'] : 'read', files));
  else if (mode === 'x' || mode === 'e') {
    const named = output && output.value !== '' ? output : undefined;
    const names: WriteNames =
      mode === 'e'
        ? { kind: 'unknown', why: '7z e writes every member under its last name' }
        : fullPaths
          ? { kind: 'unknown', why: '-spf writes the members under the absolute paths they hold' }
          : { kind: 'archive', format: '7z', file: archive };
    effects.push(treeWrite(named ?? syntheticWord('.', archive.span), named ? 'option' : 'argument', names));
    known = false;
  } else if (!['l', 't', 'i', 'b', 'd', 'rn'].includes(mode)) known = false;
  return { effects, known };
};

export const SEVEN_ZIP_MODULE: ProgramModule = {
  names: ['7z', '7za', '7zr', '7zz'],
  spec,
  effects,
  oracle: {
    cases: [
      '7z l extra.7z',
      '7z l -slt extra.7z',
      '7z l -ba extra.7z',
      '7z l -slt -sccUTF-8 -p -- planted.7z',
      '7z t extra.7z',
      '7z t planted.7z',
      '7z l .env',
      "7z l '*.7z'",
      '7z l extra.7z @notes.txt',
      '7z i',
      '7z',
      '7z --help',
      '7z -h',
      '7z h',
      '7z h -scrcSHA256 extra.7z docs',
      '7z h -scrc* -bb0 .env',
      "7z h 'docs/*'",
      '7z h @notes.txt',
      '7z x extra.7z',
      '7z x planted.7z',
      '7z e extra.7z -oout',
      '7z a out.7z docs',
      '7z b 1 -md16 -mmt1',
      '7z t -scrcSHA256 extra.7z',
    ],
    operands: ['extra.7z', 'planted.7z'],
  },
};
