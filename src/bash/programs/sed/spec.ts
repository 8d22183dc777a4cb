import type { Word } from '../../types.js';
import { grammar, has, operandWords, optionsNamed, type Parsed } from '../options.js';
import { type ProgramSpec, readOnly } from '../program.js';
import { sedScriptSafety } from './script.js';

/** GNU sed 4.9's options, and BSD sed's -a (open w files late) and -I EXTENSION (in place, one stream). */
export const SED = grammar({
  flags: 'nrEsuzba',
  values: 'eflI',
  optional: 'i',
  long:
    'quiet/n silent/n expression=/e file=/f in-place?/i line-length=/l null-data/z zero-terminated/z ' +
    'regexp-extended/r separate/s unbuffered/u binary/b follow-symlinks posix sandbox debug help version',
});

/**
 * The words sed takes as its script: -e values, else the first operand. BSD `sed -i '' SCRIPT FILE` reads
 * the word after a bare -i as a backup suffix, so then the second operand may be the script instead.
 */
export function sedScripts(
  words: readonly Word[],
  parsed: Parsed,
): { scripts: Word[]; bsd?: Word; files: Word[] } {
  const expressions = optionsNamed(parsed, 'e').map((option) => option.value!);
  const operands = operandWords(words, parsed);
  if (expressions.length || has(parsed, 'f')) return { scripts: expressions, files: operands };
  const bareInPlace = optionsNamed(parsed, 'i').some(
    (option) =>
      !option.value && words[option.index]!.value === '-i' && parsed.operands[0] === option.index + 1,
  );
  const bsd = bareInPlace ? operands[1] : undefined;
  return { scripts: operands.slice(0, 1), ...(bsd ? { bsd } : {}), files: operands.slice(1) };
}

/** The script must be known and only print: no command that runs, writes or reads another file. */
export function sedScriptProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  const { scripts } = sedScripts(words, parsed);
  if (scripts.length === 0) return 'sed without a script it can read';
  const dynamic = scripts.find((script) => !script.static);
  if (dynamic) return `sed script ${dynamic.text} is only known at run time`;
  return sedScriptSafety(scripts.map((script) => script.value).join('\n')).reason;
}

export const SED_SPEC: ProgramSpec = {
  name: 'sed',
  aliases: ['gsed'],
  grammar: SED,
  readOnly: readOnly('n e r E s u z b l --posix --sandbox --debug --help --version', 'files', {
    check: sedScriptProblem,
    why: {
      i: 'can write or run programs',
      f: 'reads its script from a file',
      '--follow-symlinks': 'only matters when editing in place',
    },
  }),
};
