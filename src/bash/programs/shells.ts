import type { CommandView, NestedSpec } from '../types.js';
import { grammar, has, lastValue, operandWords, optionsNamed, parseOptions } from './options.js';
import { codeIn, codeSpec, type Handler, parseFailure, shellSpec, unresolved } from './specs.js';
import { is, joinWords } from './words.js';

const SHELL = grammar({
  flags: 'abcdefghijklmnpqrstuvwxyzABCDEFGHIJKLMNPQRSTUVWXYZ0123456789',
  values: 'oO',
  plus: true,
  long: 'rcfile= init-file= emulate= help version',
  unlistedFlags: /./,
});

/** Shells whose syntax is bash's only in part: their `-c` script is read as bash reads it where nothing differs. */
const OTHER_DIALECTS = new Set(['zsh', 'ksh', 'mksh', 'pdksh', 'yash', 'posh']);

/**
 * Why a script may mean something else to zsh or ksh than to bash, or undefined. Only a plain subset is read:
 * words of letters, digits and `_ . / , : @ % + = - ~`, quotes, `|`, `;`, `&&`, `||` and newlines. Left out,
 * with what they do there: `$` and backquotes (zsh does not split `$var`, has its own expansion flags, `$~`),
 * globs and parentheses (zsh's `**`, glob qualifiers `*(e:CODE:)` that run code, ksh's `@(…)`), `=cmd` and
 * `%job` at a word's start, `~` inside a word (zsh leaves `X=~/a` in an argument as it is), `!` (history),
 * `#` (a comment or not, by option), braces, backslashes, redirections (zsh's `>!`, multios, `=(…)`), `|&` and `&`.
 */
function dialectForm(script: string): string | undefined {
  const special = /[^A-Za-z0-9_\s./,:@%+=~'"|;&-]/.exec(script);
  if (special) return `${special[0]} is read differently by this shell`;
  if (/&/.test(script.replaceAll('&&', ''))) return '& is read differently by this shell';
  if (/(^|[\s;|&'"])[=%]/.test(script))
    return 'a word starting with = or % is read differently by this shell';
  if (/[^\s;|&'"]~/.test(script)) return '~ inside a word is read differently by this shell';
  return undefined;
}

/** sh, bash, zsh...: `-c STRING` (the first operand after all options), a script file, or stdin. */
function posixShell(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, SHELL, { dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  if (has(parsed, '--help', '--version')) return [];
  let operands = operandWords(cmd.argv, parsed);
  if (parsed.dashdash === undefined && is(operands[0], '-')) operands = operands.slice(1);
  const script = operands[0];
  // With -c, a dynamic word where the script may be is passed on as a dynamic script: whether it is the
  // script or an option, the string run is then unknown.
  const suspect = parsed.suspects
    .map((index) => cmd.argv[index]!)
    .find((word) => word !== script || !has(parsed, 'c'));
  if (suspect) return [unresolved(`${cmd.program}: ${suspect.text} may be an option or the script`, suspect)];
  const specs = optionsNamed(parsed, '--rcfile', '--init-file').map((option) =>
    codeIn('source-file', cmd.program, option.name, option.value!),
  );
  if (has(parsed, 'c')) {
    if (!script) return specs;
    const differs = OTHER_DIALECTS.has(cmd.program) && script.static ? dialectForm(script.value) : undefined;
    if (differs) return [...specs, unresolved(`${cmd.program} -c: ${differs}`, script)];
    return [...specs, shellSpec(script, `${cmd.program} -c`)];
  }
  if (has(parsed, 's') || !script) return [...specs, codeSpec('stdin', cmd.program, 'stdin', cmd.argv[0]!)];
  return [...specs, codeIn('script-file', cmd.program, 'script', script)];
}

function withoutDashDash(cmd: CommandView) {
  const args = cmd.argv.slice(1);
  return is(args[0], '--') ? args.slice(1) : args;
}

function evalHandler(cmd: CommandView): NestedSpec[] {
  const args = withoutDashDash(cmd);
  return args.length ? [shellSpec(joinWords(args), 'eval')] : [];
}

/** trap ACTION SIGNAL...: ACTION runs later; `trap -l`, `trap -p`, `trap - SIG`, `trap SIG` run nothing. */
function trap(cmd: CommandView): NestedSpec[] {
  const first = cmd.argv[1];
  if (is(first, '-l', '-p', '-P', '-lp', '-pl')) return [];
  const args = withoutDashDash(cmd);
  const action = args[0];
  if (!action || args.length < 2 || is(action, '-', '')) return [];
  return [shellSpec(action, 'trap')];
}

function source(cmd: CommandView): NestedSpec[] {
  const file = withoutDashDash(cmd)[0];
  return file ? [codeIn('source-file', cmd.program, cmd.program, file)] : [];
}

const MAPFILE = grammar({ flags: 't', values: 'dnOsuCc' });

/** mapfile -C CALLBACK evaluates CALLBACK with the index and line appended. */
function mapfile(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, MAPFILE, { dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  const callback = lastValue(parsed, 'C');
  return callback ? [shellSpec(callback, `${cmd.program} -C`, true)] : [];
}

const COMPGEN = grammar({ flags: 'abcdefgjksuvI', values: 'AGWXPSCFoV' });

function compgen(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, COMPGEN, { dynamic: 'operand' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  return optionsNamed(parsed, 'C').map((option) => shellSpec(option.value!, 'compgen -C', true));
}

/** Builtins that change where later commands come from. */
function loader(option: string): Handler {
  const g = grammar({ flags: 'adnprstl'.replace(option, ''), values: option });
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, g, { dynamic: 'operand', unknown: 'flag' });
    if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
    return optionsNamed(parsed, option).map((found) =>
      codeIn('environment', cmd.program, `${cmd.program} -${option}`, found.value!),
    );
  };
}

/** fc re-runs or edits commands from the history, which the analyzer cannot see. */
function fc(cmd: CommandView): NestedSpec[] {
  if (cmd.argv.slice(1).some((word) => is(word, '-l') || (word.static && /^-[nr]*l/.test(word.value))))
    return [];
  return [codeSpec('program-option', 'fc', 'history', cmd.argv[0]!)];
}

export const SHELLS: Record<string, Handler> = {
  sh: posixShell,
  bash: posixShell,
  rbash: posixShell,
  dash: posixShell,
  ash: posixShell,
  zsh: posixShell,
  ksh: posixShell,
  mksh: posixShell,
  pdksh: posixShell,
  posh: posixShell,
  yash: posixShell,
  eval: evalHandler,
  trap,
  source,
  '.': source,
  mapfile,
  readarray: mapfile,
  compgen,
  hash: loader('p'),
  enable: loader('f'),
  fc,
};
