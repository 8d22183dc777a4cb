import { assignmentSpecs, declarationSpecs } from './programs/environment.js';
import { INTERPRETERS } from './programs/interpreters.js';
import { PROGRAM_OPTIONS } from './programs/program-options.js';
import { programModule } from './programs/registry.js';
import { RUNNERS } from './programs/runners.js';
import { SHELLS } from './programs/shells.js';
import type { Handler } from './programs/specs.js';
import { WRAPPERS } from './programs/wrappers.js';
import type { CommandView, NestedSpec } from './types.js';

const DECLARATIONS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);

const HANDLERS = new Map<string, Handler>(
  Object.entries({
    ...PROGRAM_OPTIONS,
    ...RUNNERS,
    ...INTERPRETERS,
    ...SHELLS,
    ...WRAPPERS,
  }),
);

/** `python3.12` → `python`: versioned names of the same program family. */
export function programFamily(program: string): string {
  const versioned = /^(python|pypy|ruby|perl|php|lua|luajit|node|pwsh|Rscript|bash|zsh|ksh)[\d.-]*$/.exec(
    program,
  );
  if (versioned) return versioned[1] === 'pypy' ? 'python' : versioned[1]!;
  return program === 'nodejs' ? 'node' : program;
}

/** What the command runs besides itself, one level deep. */
export function nestedOf(cmd: CommandView): NestedSpec[] {
  const specs = assignmentSpecs(cmd.program, cmd.assignments);
  if (cmd.argv.length === 0) return specs;
  if (DECLARATIONS.has(cmd.program)) return [...specs, ...declarationSpecs(cmd.program, cmd.argv)];
  const family = programFamily(cmd.program);
  const handler = programModule(family)?.nested ?? HANDLERS.get(family);
  return handler ? [...specs, ...handler(cmd)] : specs;
}
