import { normalize } from 'node:path';
import {
  type Analysis,
  DYN,
  grammar,
  operandWords,
  parseOptions,
  type SimpleCommand,
} from '../bash/index.js';
import { type PathContext, realPath, resolvePath, resolveWordPath, spelledPath } from './paths.js';

/** `cd [-L|[-P [-e]] [-@]] [dir]`; `pushd [-n] [+N|-N|dir]` and `popd [-n] [+N|-N]`. */
const CD = grammar({ flags: 'LPe@' });
const STACK = grammar({ flags: 'n' });

/** More folders than this, or `cd`s run again and again that keep finding new ones, are not followed. */
const MAX_FOLDERS = 32;
const MAX_ROUNDS = 8;

/** Builtins that set a variable whose name may be only known at run time (`declare "$v=x"`). */
const SETTERS = new Set([
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'printf',
  'read',
  'mapfile',
  'readarray',
]);

type Move =
  /** Where the command goes from the folder `from`; undefined when that is only known at run time. */
  | { kind: 'go'; to: (from: string) => string[] | undefined }
  /** It stays, or goes to a folder of the directory stack: one the line has already been in. */
  | { kind: 'stay' }
  /** `pushd -n`: a name is put on the stack without going there. */
  | { kind: 'push-only' }
  | { kind: 'unknown' };

/**
 * Every folder a command of the line may run in: cwd and each folder a `cd`, `pushd` or `popd` may lead to
 * from one of them. bash's `cd` is logical (`cd link/..` folds the text, and falls back to the physical folder
 * when that fails), `cd -P` physical. Undefined when a folder is only known at run time (`cd $X`, `cd -`,
 * `cd name` with CDPATH). A `cd` that may run more than once (in a loop, a function, a string run by `eval` or
 * `trap`) makes every `cd` apply again until no new folder appears. A `cd` in a subshell or pipeline is still
 * counted: that gives more folders, never fewer.
 */
export function workingFolders(analysis: Analysis, ctx: PathContext): string[] | undefined {
  const moves: Move[] = [];
  let repeats = false;
  let searches: boolean | undefined;
  let homeMoves: boolean | undefined;
  let stack = false;
  for (const cmd of analysis.commands) {
    const elsewhere = runsElsewhere(cmd, analysis, ctx);
    if (elsewhere) {
      moves.push(elsewhere);
      continue;
    }
    const program = cmd.name?.program;
    if (program !== 'cd' && program !== 'pushd' && program !== 'popd') continue;
    if (cmd.name?.path !== undefined) continue;
    searches ??= searchesNames(analysis);
    homeMoves ??= HOME_SET.test(analysis.source);
    moves.push(moveOf(cmd, program, ctx, searches, homeMoves));
    repeats ||= mayRepeat(cmd);
    stack ||= program !== 'cd';
  }
  if (moves.length === 0) return [ctx.cwd];
  if (moves.some((m) => m.kind === 'unknown')) return undefined;
  if (stack && (/DIRSTACK/.test(analysis.source) || moves.some((m) => m.kind === 'push-only')))
    return undefined;
  const folders = new Set([ctx.cwd]);
  for (let round = 1; ; round++) {
    const before = folders.size;
    for (const move of moves) {
      if (move.kind !== 'go') continue;
      for (const from of [...folders]) {
        const to = move.to(from);
        if (to === undefined) return undefined;
        for (const f of to) folders.add(f);
      }
      if (folders.size > MAX_FOLDERS) return undefined;
    }
    if (!repeats || folders.size === before) return [...folders];
    if (round >= MAX_ROUNDS) return undefined;
  }
}

/** HOME named other than as `$HOME`: set on the line (`HOME=x`, `export HOME`, `printf -v HOME`, `read HOME`). */
const HOME_SET = /(?:^|[^$\w{])HOME\b/;

/** `searches`: `cd name` may not mean `./name`. `homeMoves`: HOME may be changed on the line. */
function moveOf(
  cmd: SimpleCommand,
  program: string,
  ctx: PathContext,
  searches: boolean,
  homeMoves: boolean,
): Move {
  const parsed = parseOptions(cmd.argv, 1, program === 'cd' ? CD : STACK);
  if (!parsed.ok) {
    // `pushd +1`, `popd -1`: a rotation of the stack, which the option grammar reads as an unknown option.
    const word = cmd.argv[1];
    const rotation = cmd.argv.length === 2 && word?.static === true && /^[+-]\d+$/.test(word.value);
    return program !== 'cd' && rotation ? { kind: 'stay' } : { kind: 'unknown' };
  }
  const operands = operandWords(cmd.argv, parsed);
  const target = operands[0];
  if (program === 'popd') return operands.length === 0 ? { kind: 'stay' } : { kind: 'unknown' };
  if (program === 'pushd') {
    if (!target || (target.static && /^[+-]\d+$/.test(target.value))) return { kind: 'stay' };
    if (parsed.options.some((o) => o.name === 'n')) return { kind: 'push-only' };
  }
  if (homeMoves && (!target || /^"?(?:~|\$\{?HOME)/.test(target.text))) return { kind: 'unknown' };
  if (!target) return { kind: 'go', to: () => [ctx.home] };
  const name = target.value;
  if (target.static && name === '-') return { kind: 'unknown' };
  const searched =
    !/^(?:\/|~|\.\.?(?:\/|$))/.test(name) || (name.startsWith('~') && !target.text.startsWith('~'));
  if (searches && target.static && searched) return { kind: 'unknown' };
  if (!target.static && !/^"?\$\{?(?:HOME|PWD)\b/.test(target.text)) return { kind: 'unknown' };
  const options = parsed.options.filter((o) => o.name === 'P' || o.name === 'L');
  const physical = options.at(-1)?.name === 'P';
  return {
    kind: 'go',
    to: (from) => {
      const at = resolveWordPath(target, ctx, from);
      if (at === undefined) return undefined;
      if (physical) {
        const real = realPath(at, ctx.realPaths);
        return real === undefined ? undefined : [real];
      }
      const spelled = spelledPath(target, ctx, from);
      const logical = spelled === undefined ? at : normalize(spelled).replace(/(.)\/$/, '$1');
      return logical === at ? [at] : [logical, at];
    },
  };
}

/**
 * `find … -execdir CMD … {} …` where CMD only reads the names find hands it (`./NAME` in NAME's folder: the file
 * found) and names no other file and runs nothing: where it runs changes nothing it reads.
 */
function readsOnlyTheName(cmd: SimpleCommand, analysis: Analysis): boolean {
  // The effects a `+` leaves unlisted are the names it appends.
  if (cmd.redirects.length > 0 || cmd.executes.length > 0 || cmd.effects.length === 0) return false;
  if (!cmd.effectsKnown && !cmd.nested?.extraArgs) return false;
  if (analysis.commands.some((c) => c.nested?.carrier === cmd.id)) return false;
  return cmd.effects.every(
    (e) => (e.access === 'read' || e.access === 'metadata') && e.path.static && e.path.value === '{}',
  );
}

/**
 * A command its wrapper starts in another folder: `env -C dir`, `sudo -D dir`, `find -execdir` (each folder
 * found). Counted as a `cd` there, for it and every later command.
 */
function runsElsewhere(cmd: SimpleCommand, analysis: Analysis, ctx: PathContext): Move | undefined {
  const nested = cmd.nested;
  if (!nested) return undefined;
  if (nested.via === '-execdir' && readsOnlyTheName(cmd, analysis)) return undefined;
  if (nested.via === '-execdir' || nested.via === '-okdir') return { kind: 'unknown' };
  if (nested.via !== 'env' && nested.via !== 'sudo') return undefined;
  const carrier = analysis.commands.find((c) => c.id === nested.carrier);
  if (!carrier) return { kind: 'unknown' };
  const letter = nested.via === 'env' ? 'C' : 'D';
  const words = carrier.argv.slice(1, carrier.argv.length - cmd.argv.length);
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const text = word.value;
    if (!word.static) return text.startsWith('-') || text.startsWith(DYN) ? { kind: 'unknown' } : undefined;
    const long = /^--(ch[a-z]*)(?:=|$)/.exec(text);
    const short = new RegExp(`^-[^-]*${letter}`).test(text);
    if (!long && !short) continue;
    const eq = text.indexOf('=');
    let value: string | undefined;
    if (long) value = eq >= 0 ? text.slice(eq + 1) : words[i + 1]?.static ? words[i + 1]!.value : undefined;
    else if (text.endsWith(letter)) value = words[i + 1]?.static ? words[i + 1]!.value : undefined;
    else value = text.slice(text.indexOf(letter) + 1);
    if (value === undefined || value === '' || (value.startsWith('~') && !/^~(?:\/|$)/.test(value)))
      return { kind: 'unknown' };
    const folder = value;
    return {
      kind: 'go',
      to: (from) => {
        const at = resolvePath(folder, ctx, from);
        return at === undefined ? undefined : [at];
      },
    };
  }
  return undefined;
}

/** A command that may run more than once, or at a time other than its place on the line. */
/** Whether the command may run more than once, or after commands written after it (a loop, a function, a string run later). */
export function mayRepeat(cmd: SimpleCommand): boolean {
  return (
    cmd.nested !== undefined ||
    cmd.inFunction !== undefined ||
    cmd.context.includes('loop') ||
    cmd.context.includes('function')
  );
}

/**
 * Whether `cd name` may not mean `./name`: CDPATH set in the environment or anywhere on the line,
 * `cdable_vars`, or a variable set under a name only known at run time.
 */
function searchesNames(analysis: Analysis): boolean {
  if (process.env.CDPATH) return true;
  const named = /CDPATH|cdable_vars/;
  if (named.test(analysis.source)) return true;
  return analysis.commands.some(
    (cmd) =>
      cmd.argv.some((w) => named.test(w.value)) ||
      cmd.assignments.some((a) => a.name === 'CDPATH') ||
      setsUnknownName(cmd),
  );
}

/** `declare "$v=x"`, `printf -v "$v"`, `read $v`: a builtin that sets a variable whose name is only known at run time. */
function setsUnknownName(cmd: SimpleCommand): boolean {
  const program = cmd.name?.program ?? '';
  if (!SETTERS.has(program)) return false;
  const words = cmd.argv.slice(1);
  if (program === 'printf') return words[0]?.value === '-v' && words[1]?.static === false;
  return words.some((w) => !w.static && w.value.split('=')[0]!.includes(DYN));
}
