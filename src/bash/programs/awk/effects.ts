import type { FileEffect, Word } from '../../types.js';
import { programFileRead } from '../code-files.js';
import { type EffectHandler, each, option, UNKNOWN } from '../effect-helpers.js';
import { operandWords, optionsNamed, parseOptions } from '../options.js';
import { assignmentName, syntheticWord } from '../words.js';
import { awkProgramSafety } from './program.js';
import {
  AWK,
  awkPrograms,
  includesInPlace,
  isAwkSpecialAssignment,
  PROGRAM_FILE_OPTIONS,
  safeW,
} from './spec.js';

/** The file gawk writes for -d (dump variables), -p (profile) and -o (pretty-print) when none is given. */
const DEFAULT_OUTPUT: Record<string, string> = { d: 'awkvars.out', p: 'awkprof.out', o: 'awkprof.out' };

/** A `NAME=value` operand, which awk reads as an assignment rather than as a file to read. */
function isAssignment(word: Word): boolean {
  const name = assignmentName(word);
  return name !== null && name !== 'dynamic' && /^[A-Za-z_]\w*(::[A-Za-z_]\w*)?$/.test(name);
}

/**
 * awk reads its file operands (not `NAME=value` ones, unless -E turns assignments off), and gawk `-i inplace`
 * writes them. The files its program names (`print > "f"`, `getline < "f"`) are declared as an option's files are:
 * they are not operands a rule allowing `awk *` shows. Program text awk reads from a file or a stream (-f, -E, -i,
 * mawk `-W exec`), a library (-l), or an option it does not know makes the effects unknown.
 */
export const awkEffects: EffectHandler = (cmd) => {
  const parsed = parseOptions(cmd.argv, 1, AWK, { permute: false, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return UNKNOWN;
  const { programs, files } = awkPrograms(cmd.argv, parsed);
  const effects: FileEffect[] = [];
  let known = parsed.unknown.length === 0 && parsed.suspects.length === 0;
  const inPlace = includesInPlace(parsed);
  let opaqueW = false;
  for (const found of parsed.options) {
    if (PROGRAM_FILE_OPTIONS.includes(found.name) && found.value) {
      if (!inPlace.includes(found)) effects.push(...programFileRead(found.value));
      known = false;
    } else if (found.name in DEFAULT_OUTPUT) {
      const at = cmd.argv[found.index]!;
      effects.push(option('write', found.value ?? syntheticWord(DEFAULT_OUTPUT[found.name]!, at.span)));
    } else if (found.name === 'l' || found.name === 'D') {
      known = false;
    } else if (found.name === 'W' && !safeW(found.value)) {
      known = false;
      opaqueW = true;
    } else if (found.name === 'v' && found.value && isAwkSpecialAssignment(found.value, true)) {
      known = false;
    }
  }
  for (const program of programs) {
    if (!program.static) {
      known = false;
      continue;
    }
    const safety = awkProgramSafety(program.value);
    if (!safety.readOnly) known = false;
    for (const path of safety.reads) effects.push(option('read', syntheticWord(path, program.span)));
    for (const path of safety.writes) effects.push(option('write', syntheticWord(path, program.span)));
  }
  // An -W option awk reads its own way may have made the first operand a program file or a data file.
  const operands = opaqueW ? operandWords(cmd.argv, parsed) : files;
  const assignments = optionsNamed(parsed, 'E').length === 0;
  const inputs = operands.filter((word) => !(assignments && isAssignment(word)));
  for (const word of operands) {
    if (assignments && isAwkSpecialAssignment(word, false)) known = false;
  }
  return { effects: [...effects, ...each(inPlace.length > 0 ? 'write' : 'read', inputs)], known };
};
