import type { Word } from '../types.js';
import { grammar, has, type Parsed } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { leadingText, singleField, splitsFreely } from './words.js';

/**
 * bash builtins read their options as bash's own internal getopt does: the first word that is not an option
 * ends them, no long options but `--help`, no abbreviations.
 */
const BUILTIN = { abbreviate: false, long: 'help' } as const;

/** test's unary and binary operators, read as whole words; `-v` and `-R` name variables (see below). */
const TEST_OPERATORS =
  '-a -b -c -d -e -f -g -h -k -p -r -s -t -u -w -x -O -G -L -S -N -z -n -o -nt -ot -ef -eq -ne -lt -le -gt ' +
  '-ge -v -R';

/**
 * `test -v 'a[$(cmd)]'` evaluates the subscript, running the command substitution in it. A word only known at
 * run time may turn into `-v`: it is harmless only when the word after it is fixed and holds no subscript.
 */
function subscriptProblem(_parsed: Parsed, words: readonly Word[]): string | undefined {
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    const next = words[i + 1];
    if (word.static && (word.value === '-v' || word.value === '-R') && next) {
      if (!next.static || next.value.includes('[')) return `${word.value} ${next.text} evaluates a subscript`;
    }
    if (word.static) continue;
    if (splitsFreely(word) || !singleField(word)) return `${word.text} may expand to several test operands`;
    if (leadingText(word) === '' && next && (!next.static || next.value.includes('['))) {
      return `${word.text} may be -v, which runs code in the subscript of ${next.text}`;
    }
  }
  return undefined;
}

const test = (name: string): ProgramSpec => ({
  name,
  grammar: grammar({ words: TEST_OPERATORS, abbreviate: false }),
  readOnly: readOnly(TEST_OPERATORS, 'inert', { check: subscriptProblem }),
});

export const BUILTIN_SPECS: readonly ProgramSpec[] = [
  {
    name: 'echo',
    grammar: grammar({ flags: 'neE', abbreviate: false, options: /^-[neE]+$/ }),
    permute: false,
    readOnly: readOnly('n e E', 'inert'),
  },
  {
    name: 'printf',
    grammar: grammar({ ...BUILTIN, values: 'v' }),
    permute: false,
    readOnly: readOnly('--help', 'inert', { why: { v: 'assigns a shell variable' } }),
  },
  { name: 'true', grammar: grammar({ abbreviate: false }), permute: false, readOnly: readOnly('', 'inert') },
  { name: 'false', grammar: grammar({ abbreviate: false }), permute: false, readOnly: readOnly('', 'inert') },
  test('test'),
  test('['),
  {
    name: 'cd',
    grammar: grammar({ ...BUILTIN, flags: 'LPe@' }),
    permute: false,
    readOnly: readOnly('L P e @ --help', 'files', { maxOperands: 1 }),
  },
  {
    name: 'pwd',
    grammar: grammar({ ...BUILTIN, flags: 'LP' }),
    permute: false,
    readOnly: readOnly('L P --help', 'none'),
  },
  {
    // `command -v NAME` prints how NAME would be found; `command NAME` runs it (a wrapper, see wrappers.ts).
    name: 'command',
    grammar: grammar({ ...BUILTIN, flags: 'pvV' }),
    permute: false,
    readOnly: readOnly('p v V --help', 'inert', {
      check: (parsed) => (has(parsed, 'v', 'V') ? undefined : 'command without -v or -V runs its operands'),
    }),
  },
  {
    // `hash -p FILE NAME` makes NAME run FILE from then on; looking names up (and forgetting them) changes nothing.
    name: 'hash',
    grammar: grammar({ ...BUILTIN, flags: 'lrdt', values: 'p' }),
    permute: false,
    readOnly: readOnly('l r d t --help', 'inert', { why: { p: 'makes a name run another file' } }),
  },
  {
    name: 'type',
    grammar: grammar({ ...BUILTIN, flags: 'afptP' }),
    permute: false,
    readOnly: readOnly('a f p t P --help', 'inert'),
  },
];
