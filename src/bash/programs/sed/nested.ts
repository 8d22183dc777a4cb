import type { NestedSpec, Word } from '../../types.js';
import { programFileCode } from '../code-files.js';
import { has, optionsNamed, parseOptions } from '../options.js';
import { codeSpec, type Handler, parseFailure, shellSpec, unresolved } from '../specs.js';
import { syntheticWord } from '../words.js';
import { parseSed } from './script.js';
import { SED, sedScripts } from './spec.js';

/** The scripts are one program joined by newlines, as sed joins its -e values. */
function scriptSpecs(scripts: readonly Word[], possible: boolean): NestedSpec[] {
  const dynamic = scripts.find((script) => !script.static);
  if (dynamic) return [codeSpec('program-option', 'sed', 'sed script', dynamic)];
  const at = scripts[0];
  if (!at) return [];
  const text = scripts.map((script) => script.value).join('\n');
  const result = parseSed(text);
  if (!result.ok) return possible ? [] : [codeSpec('program-option', 'sed', 'sed script', at, text)];
  return result.executes.map((exec) =>
    exec.command?.trim()
      ? shellSpec(syntheticWord(exec.command, at.span), 'sed e')
      : codeSpec('program-option', 'sed', exec.via, at, exec.command),
  );
}

/**
 * What sed runs: `e COMMAND` (a shell command), `e` and `s///e` (the pattern space as a command), and scripts read
 * from files or the standard input (-f), which may hold either. `--sandbox` refuses a script with e, r or w.
 */
export const sedNested: Handler = (cmd) => {
  const parsed = parseOptions(cmd.argv, 1, SED, { permute: true, unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const suspect = parsed.suspects[0];
  if (suspect !== undefined) {
    const word = cmd.argv[suspect]!;
    return [unresolved(`${cmd.program}: ${word.text} may be an option that runs a program`, word)];
  }
  const files = optionsNamed(parsed, 'f').map((option) => programFileCode('sed', '-f', option.value!));
  if (has(parsed, '--sandbox')) return files;
  const unknown = parsed.unknown.map((option) =>
    codeSpec('program-option', 'sed', 'unknown option', cmd.argv[option.index]!),
  );
  if (has(parsed, '--help', '--version')) return [...files, ...unknown];
  const { scripts, bsd } = sedScripts(cmd.argv, parsed);
  return [...files, ...unknown, ...scriptSpecs(scripts, false), ...(bsd ? scriptSpecs([bsd], true) : [])];
};
