import type { NestedSpec } from '../../types.js';
import { programFileCode } from '../code-files.js';
import { has, optionsNamed, parseOptions } from '../options.js';
import { codeIn, codeSpec, type Handler, parseFailure, unresolved } from '../specs.js';
import { awkConstructs } from './program.js';
import {
  AWK,
  awkPrograms,
  includesInPlace,
  isAwkSpecialAssignment,
  PROGRAM_FILE_OPTIONS,
  safeW,
} from './spec.js';

/** What gawk --sandbox refuses to run; ENVIRON and the rest stay reachable. */
const SANDBOXED = new Set([
  'system(',
  'print >',
  'print |',
  'print |&',
  '| getline',
  '|&',
  'getline <',
  '@load',
]);

/** gawk --sandbox refuses to add input files to ARGV, however the program writes it. */
function sandboxed(construct: string): boolean {
  return SANDBOXED.has(construct) || /^ARG[VC] /.test(construct);
}

/** Options that write a file (dump, profile, pretty-print) or run the debugger. */
const SIDE_EFFECTS = ['d', 'D', 'p', 'o'];

/**
 * What awk runs besides reading and printing: program files and includes (-f, -E, -i, `-i inplace` too, which
 * gawk looks up in the working folder first), libraries (-l), the program's own commands (`system()`, pipes),
 * `-W` options mawk and gawk read their own ways, and assignments to the variables that choose its input.
 */
export const awkNested: Handler = (cmd) => {
  const parsed = parseOptions(cmd.argv, 1, AWK, { permute: false, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const suspect = parsed.suspects[0];
  if (suspect !== undefined) {
    const word = cmd.argv[suspect]!;
    return [unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word)];
  }
  if (has(parsed, 'h', 'V', 'C')) return [];
  const program = cmd.program;
  const inPlace = includesInPlace(parsed);
  const specs: NestedSpec[] = [
    ...parsed.options
      .filter((option) => PROGRAM_FILE_OPTIONS.includes(option.name) && option.value)
      .map((option) =>
        inPlace.includes(option)
          ? codeIn('script-file', program, '-i', option.value!)
          : programFileCode(program, `-${option.name}`, option.value!),
      ),
    ...optionsNamed(parsed, 'l').map((option) => codeIn('program-option', program, '-l', option.value!)),
    ...optionsNamed(parsed, 'W')
      .filter((option) => !safeW(option.value))
      .map((option) => codeIn('program-option', program, '-W', option.value!)),
    ...parsed.options
      .filter((option) => SIDE_EFFECTS.includes(option.name))
      .map((option) => codeSpec('program-option', program, `-${option.name}`, cmd.argv[option.index]!)),
    ...parsed.unknown.map((option) =>
      codeIn('program-option', program, 'unknown option', cmd.argv[option.index]!),
    ),
  ];
  const sandbox = has(parsed, 'S');
  const { programs, files } = awkPrograms(cmd.argv, parsed);
  const assignments = [
    ...optionsNamed(parsed, 'v')
      .map((option) => option.value!)
      .filter((word) => isAwkSpecialAssignment(word, true)),
    ...files.filter((word) => isAwkSpecialAssignment(word, false)),
  ];
  for (const word of assignments) specs.push(codeIn('program-option', program, 'assignment', word));
  for (const text of programs) {
    if (!text.static) {
      specs.push(codeSpec('program-option', program, 'awk program', text));
      continue;
    }
    for (const construct of awkConstructs(text.value)) {
      if (sandbox && sandboxed(construct)) continue;
      specs.push(codeSpec('program-option', program, construct, text, text.value));
    }
  }
  return specs;
};
