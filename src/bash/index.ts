export { analyze, analyzeBash, loadBash, MAX_INPUT_BYTES } from './analyze.js';
export { effectsOf } from './effects.js';
export { ANSIBLE_PROGRAMS, ansibleInventories } from './programs/ansible.js';
export { BREW_AUTO_UPDATES, brewCommand } from './programs/brew.js';
export { CREDENTIAL_REDIRECTS } from './programs/credential-options.js';
export { duckdbCommandProblem } from './programs/duckdb.js';
export { ambiguousCheckout } from './programs/git/operands.js';
export { type RemoteRead, remoteRead } from './programs/git/remotes.js';
export { helmSchemaCharts } from './programs/helm.js';
export { grammar, type Option, operandWords, parseOptions } from './programs/options.js';
export {
  fdExecPaths,
  findRoots,
  literalOutput,
  type ProducedPaths,
  producedPaths,
  type XargsInput,
  xargsInput,
  xargsStdinInput,
  xargsWords,
} from './programs/path-producers.js';
export { type ParsedCommand, type ProgramSpec, parseCommand } from './programs/program.js';
export { checkProgram, type ReadKind, takesAnyWords } from './programs/read-only.js';
export { familySpec, programRelocation, programSpec, serviceReadPrograms } from './programs/registry.js';
export type { Relocation } from './programs/relocation.js';
export { type RuffLine, ruffCheckLine } from './programs/ruff.js';
export { printsAndExits } from './programs/self-info.js';
export { SEVEN_ZIP_LISTING } from './programs/seven-zip.js';
export { commandProblem as sqliteCommandProblem, sqliteViewProblem } from './programs/sqlite3.js';
export { type UnknownWord, unknownWords } from './programs/unknown-words.js';
export { singleField, syntheticWord } from './programs/words.js';
export { onlyRunsCommand } from './programs/wrappers.js';
export { YARN_SCRIPT_NAMES, yarnCommand } from './programs/yarn.js';
export { commandLine, shellWord, wordText } from './render.js';
export type * from './types.js';
export {
  type Analysis,
  type CodeExecution,
  DYN,
  type FileEffect,
  type Redirect,
  type SimpleCommand,
  type Span,
  type Word,
} from './types.js';
export { HARMLESS_ENV, inertAssignment } from './variables.js';
