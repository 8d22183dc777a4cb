import type { Word } from '../../types.js';
import { grammar, has, type Option, operandWords, optionsNamed, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { assignmentName, is } from '../words.js';
import { AWK_SPECIAL_VARIABLES, awkProgramSafety } from './program.js';

/** gawk's options; mawk, nawk and busybox awk read a subset. */
export const AWK = grammar({
  flags: 'bcCghIMnNOPrsStVk',
  values: 'fvFeEilW',
  optional: 'dDLop',
  long:
    'file=/f assign=/v field-separator=/F source=/e exec=/E include=/i load=/l characters-as-bytes/b ' +
    'traditional/c copyright/C dump-variables?/d debug?/D gen-pot/g help/h lint?/L bignum/M ' +
    'non-decimal-data/n use-lc-numeric/N pretty-print?/o optimize/O profile?/p posix/P re-interval/r ' +
    'no-optimize/s sandbox/S lint-old/t trace/I version/V csv/k',
});

/** The awk program words: -e values, else the first operand unless -f or -E names a program file. */
export function awkPrograms(words: readonly Word[], parsed: Parsed): { programs: Word[]; files: Word[] } {
  const sources = optionsNamed(parsed, 'e').map((option) => option.value!);
  const operands = operandWords(words, parsed);
  if (sources.length || has(parsed, 'f', 'E')) return { programs: sources, files: operands };
  return { programs: operands.slice(0, 1), files: operands.slice(1) };
}

/** Options whose value names a file of program text: -f, gawk -E (--exec) and -i (--include). */
export const PROGRAM_FILE_OPTIONS: readonly string[] = ['f', 'E', 'i'];

/**
 * The `-i inplace` options: gawk's in-place editing library, which writes the input files. gawk looks it up on
 * AWKPATH, whose first folder is the working folder: an `inplace` or `inplace.awk` file there runs instead.
 */
export function includesInPlace(parsed: Parsed): Option[] {
  return optionsNamed(parsed, 'i').filter((option) => is(option.value, 'inplace', 'inplace.awk'));
}

/** mawk `-W` values that change nothing but output details; gawk reads any other as a long option. */
const SAFE_W = /^(interactive|posix_space|version|usage|help|sprintf=\d+|random=\d+)$/;

export function safeW(value: Word | undefined): boolean {
  return value?.static === true && value.value.split(',').every((part) => SAFE_W.test(part));
}

/**
 * `NAME=value` given by -v or as an operand: assigning ARGV, ARGC or ENVIRON-like variables makes awk read
 * other input or the environment. A -v whose name is only known at run time may be one of them.
 */
export function isAwkSpecialAssignment(word: Word, option: boolean): boolean {
  const name = assignmentName(word);
  if (name === 'dynamic') return option;
  return name !== null && AWK_SPECIAL_VARIABLES.has(name);
}

/** The program text must be known, and hold no construct that runs commands or reaches other files. */
export function awkProgramProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  const { programs } = awkPrograms(words, parsed);
  if (programs.length === 0) return 'awk without a program it can read';
  for (const program of programs) {
    if (!program.static) return `awk program ${program.text} is only known at run time`;
    const safety = awkProgramSafety(program.value);
    if (!safety.readOnly) return safety.reason ?? 'awk program is not known to only read';
  }
  return undefined;
}

const RUNS_FILE = 'runs a program file';
const WRITES = 'writes a file';

/** awk as gawk, mawk and the one true awk (nawk) read it. */
export const AWK_SPEC: ProgramSpec = {
  name: 'awk',
  aliases: ['gawk', 'mawk', 'nawk'],
  grammar: AWK,
  permute: false,
  readOnly: readOnly('F v e b c C g h I M n N O P r s S t V k L', 'files', {
    check: awkProgramProblem,
    why: {
      f: RUNS_FILE,
      E: RUNS_FILE,
      i: RUNS_FILE,
      l: 'loads a library',
      d: WRITES,
      o: WRITES,
      p: WRITES,
      D: 'starts a debugger',
      W: 'sets an implementation option, some of which run programs',
    },
  }),
};
