import type { CommandView, EffectsResult } from '../types.js';
import { ARCHIVE_EFFECTS } from './archive-effects.js';
import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { type Grammar, grammar, has, type Parsed } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly } from './program.js';
import { syntheticWord } from './words.js';

/**
 * gzip, as `gzip --help` lists it (1.12); getopt_long reads a unique prefix of a long option. gunzip runs
 * `gzip -d` and zcat `gzip -cd` with their arguments (Debian ships them as scripts around gzip): their grammars
 * are the options their own `--help` lists.
 */
const GZIP = grammar({
  flags: 'cdfhklLnNqrtvV123456789',
  values: 'S',
  long:
    'stdout/c decompress/d force/f help/h keep/k list/l license/L no-name/n name/N quiet/q recursive/r ' +
    'rsyncable suffix=/S synchronous test/t verbose/v version/V fast/1 best/9',
});
const GUNZIP = grammar({
  flags: 'cfklnNqrtv',
  values: 'S',
  long:
    'stdout/c force/f keep/k list/l no-name/n name/N quiet/q recursive/r suffix=/S synchronous test/t ' +
    'verbose/v help version',
});
const ZCAT = grammar({
  flags: 'flqrtv',
  values: 'S',
  long: 'force/f list/l quiet/q recursive/r suffix=/S synchronous test/t verbose/v help version',
});

function baseName(words: readonly { value: string }[]): string {
  const program = words[0]?.value ?? '';
  return program.slice(program.lastIndexOf('/') + 1);
}

/**
 * Read-only when nothing is written beside the files: the output goes to stdout (-c, or zcat), or the files are
 * only listed (-l) or tested (-t). Without one of those gzip replaces each file by its (de)compressed copy.
 */
function writesNoFile(parsed: Parsed, words: readonly { value: string }[]): string | undefined {
  if (baseName(words) === 'zcat' || has(parsed, 'c', 'l', 't', 'h', 'V', 'L')) return undefined;
  return `${baseName(words)} without -c, -l or -t replaces each file by its compressed or decompressed copy`;
}

function spec(name: string, g: Grammar): ProgramSpec {
  return {
    name,
    grammar: g,
    readOnly: readOnly(() => everyOptionBut(g, 'r'), 'files', {
      check: writesNoFile,
      why: { r: 'walks folders no rule names' },
    }),
  };
}

/** gzip compresses, gunzip decompresses, zcat decompresses to stdout: zcat's files are only read. */
function effects(cmd: CommandView): EffectsResult {
  const name = baseName(cmd.argv);
  if (name === 'zcat') {
    const stdout = syntheticWord('-c', cmd.argv[0]!.span);
    return ARCHIVE_EFFECTS.gunzip!({ ...cmd, argv: [cmd.argv[0]!, stdout, ...cmd.argv.slice(1)] });
  }
  return (ARCHIVE_EFFECTS[name] ?? (() => UNKNOWN))(cmd);
}

export const GZIP_MODULE: ProgramModule = {
  names: ['gzip'],
  spec: spec('gzip', GZIP),
  effects,
  oracle: {
    cases: [
      'gzip -c README.md',
      'gzip -ck -9 notes.txt',
      'gzip --stdout --fast docs/guide.md',
      'gzip -l README.md',
      'gzip -t README.md',
      'gzip -dc README.md',
      'gzip -c .env',
    ],
  },
};

export const GUNZIP_MODULE: ProgramModule = {
  names: ['gunzip'],
  spec: spec('gunzip', GUNZIP),
  effects,
  oracle: { cases: ['gunzip -c README.md', 'gunzip -tv README.md', 'gunzip -l notes.txt'] },
};

export const ZCAT_MODULE: ProgramModule = {
  names: ['zcat'],
  spec: spec('zcat', ZCAT),
  effects,
  oracle: { cases: ['zcat README.md', 'zcat -f notes.txt', 'zcat -t README.md'] },
};
