import { nestedOf, programFamily } from './nested.js';
import { ARCHIVE_EFFECTS } from './programs/archive-effects.js';
import {
  argument,
  type EffectHandler,
  fileCommand,
  NONE,
  reads,
  UNKNOWN,
} from './programs/effect-helpers.js';
import { FILE_EFFECTS } from './programs/file-effects.js';
import { INTERPRETERS } from './programs/interpreters.js';
import type { ProgramModule } from './programs/module.js';
import type { ProgramSpec } from './programs/program.js';
import { checkProgram } from './programs/read-only.js';
import { programModule, programSpec } from './programs/registry.js';
import { RUNNERS } from './programs/runners.js';
import { printsAndExits } from './programs/self-info.js';
import { SHELLS } from './programs/shells.js';
import { TOOL_EFFECTS } from './programs/tool-effects.js';
import { unknownWords } from './programs/unknown-words.js';
import { WRAPPERS } from './programs/wrappers.js';
import type { CommandView, EffectsResult, FileEffect } from './types.js';

/** Commands that touch no files themselves. */
const NO_FILES = new Set(
  (
    'echo printf true false pwd cd exit export printenv whoami id uname hostname which type : test [ [[ sleep ' +
    'seq yes basename dirname return shift set unset local declare typeset readonly alias unalias wait jobs ' +
    'umask let break continue getopts read shopt times tty logname groups nproc arch uptime tr'
  ).split(' '),
);

const HANDLERS = new Map<string, EffectHandler>(
  Object.entries({ ...FILE_EFFECTS, ...TOOL_EFFECTS, ...ARCHIVE_EFFECTS }),
);

/** Carriers: they touch no files themselves, but code they run that the analyzer cannot see may. */
const CARRIERS = new Set(Object.keys({ ...WRAPPERS, ...SHELLS, ...INTERPRETERS, ...RUNNERS }));

/** The files a command reads, writes, creates or deletes through its arguments. */
export function effectsOf(cmd: CommandView): EffectsResult {
  if (cmd.argv.length === 0) return NONE;
  const program = programFamily(cmd.program);
  if (
    cmd.argv.every((word) => word.static) &&
    printsAndExits(
      cmd.program,
      cmd.argv.slice(1).map((w) => w.value),
    )
  )
    return NONE;
  const module = programModule(program);
  const configured = module?.configEffects?.(cmd);
  if (configured) return configured;
  const result = followingLinks(program, cmd, declaredEffects(program, module, cmd));
  return result.known && unknownToSpec(program, cmd) ? { ...result, known: false } : result;
}

/** What a spec says of a command that follows the links below the folders it reads (`ls -LR`, `find -L`). */
const FOLLOWS = /follows links below the folder/;

/** The reads of a command that follows links below its folders are marked so: the folders reached are read too. */
function followingLinks(program: string, cmd: CommandView, result: EffectsResult): EffectsResult {
  if (!result.effects.some((e) => e.access === 'read')) return result;
  const spec = programSpec(cmd.program) ?? programSpec(program);
  const follows =
    (program === 'find' && cmd.argv.some((w) => w.value === '-L' || w.value === '-follow')) ||
    (spec !== undefined && FOLLOWS.test(checkProgram(spec, cmd.argv, false).reason));
  if (!follows) return result;
  const effects = result.effects.map(
    (e): FileEffect => (e.access === 'read' ? { ...e, followsLinks: true } : e),
  );
  return { ...result, effects };
}

function declaredEffects(
  program: string,
  module: ProgramModule | undefined,
  cmd: CommandView,
): EffectsResult {
  if (NO_FILES.has(program)) return NONE;
  if (module) {
    if (module.effects) return module.effects(cmd);
    if (module.nested) return carrierEffects(cmd);
    return module.spec ? specEffects(module.spec)(cmd) : UNKNOWN;
  }
  const handler = HANDLERS.get(program);
  if (handler) return handler(cmd);
  if (CARRIERS.has(program)) return carrierEffects(cmd);
  const spec = programSpec(program);
  return spec ? specEffects(spec)(cmd) : UNKNOWN;
}

/** The shell's own builtins: an option they do not know is an operand or an error, never other code. */
const SHELL_BUILTINS = new Set(['echo', 'printf', 'true', 'false', 'test', '[', 'cd', 'pwd', 'type']);

/**
 * The command holds an option or a subcommand its program's spec does not know (a newer version's option, a
 * plugin, an alias): whatever its handler found, the files it touches are not all known. A spec whose
 * subcommand table is empty leaves subcommands to the program's handler.
 */
function unknownToSpec(program: string, cmd: CommandView): boolean {
  const spec = SHELL_BUILTINS.has(program) ? undefined : (programSpec(cmd.program) ?? programSpec(program));
  if (!spec) return false;
  // Without subcommands, only a word that may be an option can be one the spec does not know.
  if (
    !spec.subcommands &&
    !cmd.argv.some((w, i) => i > 0 && (/^[-+]/.test(w.value) || /^["'$]/.test(w.text)))
  )
    return false;
  return unknownWords(spec, cmd.argv).some((word) => !word.leftToHandler);
}

const fromSpecs = new WeakMap<ProgramSpec, EffectHandler>();

/** A program with a spec and no handler of its own: its operands are files it reads, or no files at all. */
function specEffects(spec: ProgramSpec): EffectHandler {
  let handler = fromSpecs.get(spec);
  if (!handler) {
    handler =
      spec.readOnly?.operands === 'files'
        ? fileCommand({ grammar: spec.grammar, posix: spec.permute === false, operands: reads })
        : spec.readOnly
          ? () => NONE
          : () => UNKNOWN;
    fromSpecs.set(spec, handler);
  }
  return handler;
}

/** How shells and interpreters name the script file they read. */
const SCRIPT_VIAS = new Set(['script', '-f', '-F', '-File', '--rcfile', '--init-file']);

/** A script file a carrier runs is read; what the code it runs touches is unknown. */
function carrierEffects(cmd: CommandView): EffectsResult {
  const effects: FileEffect[] = [];
  let known = true;
  for (const spec of nestedOf({ ...cmd, assignments: [] })) {
    if (spec.kind === 'unresolved') known = false;
    if (spec.kind !== 'code') continue;
    known = false;
    const { kind, span, via } = spec.exec;
    if (kind !== 'source-file' && !(kind === 'script-file' && SCRIPT_VIAS.has(via))) continue;
    const word = cmd.argv.find(
      (candidate) => candidate.span.start === span.start && candidate.span.end === span.end,
    );
    if (word) effects.push(argument('read', word));
  }
  return { effects, known };
}
