import type { Word } from '../bash/index.js';
import { checkProgram, printsAndExits, programSpec, takesAnyWords } from '../bash/index.js';
import { valueWord } from './normalize.js';

export interface ReadOnlyCheck {
  readOnly: boolean;
  reason: string;
  /** The program has a spec: when it is refused, the reason says which word made it unsafe. */
  known: boolean;
}

/**
 * Whether the command only reads, by its program's spec. `allStatic` is true when every word is known (globs
 * allowed: they only pick file names); without `words`, the words are rebuilt from the argv values.
 */
export function checkReadOnly(
  program: string,
  argv: readonly string[],
  allStatic: boolean,
  words?: readonly Word[],
): ReadOnlyCheck {
  if (allStatic && printsAndExits(program, argv.slice(1))) {
    return { readOnly: true, reason: `${program} only prints what it is and exits`, known: true };
  }
  const spec = programSpec(program);
  if (!spec) return { readOnly: false, reason: `${program} is not a known read-only command`, known: false };
  return checkProgram(spec, words ?? argv.map(valueWord), allStatic);
}

/** Whether the words a carrier appends at run time (`xargs echo`) keep the program read-only, whatever they are. */
export function runTimeWordsHarmless(program: string): boolean {
  const spec = programSpec(program);
  return spec !== undefined && takesAnyWords(spec);
}
