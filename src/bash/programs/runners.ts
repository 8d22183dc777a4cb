/** Programs that run scripts defined by the project or fetched packages: code the analyzer cannot see. */
import type { CommandView, NestedSpec, Word } from '../types.js';
import {
  type Grammar,
  grammar,
  has,
  lastValue,
  operandWords,
  optionsNamed,
  parseOptions,
} from './options.js';
import type { Relocation } from './relocation.js';
import { argvSpec, codeIn, codeSpec, type Handler, parseFailure, unresolved } from './specs.js';
import { assignmentName, is, joinWords } from './words.js';

interface Located {
  word: Word;
  index: number;
}

/** Options of the runner, then its subcommand; unlisted options count as flags. */
export function subcommand(cmd: CommandView, g: Grammar, start = 1) {
  const parsed = parseOptions(cmd.argv, start, g, { unknown: 'flag', permute: true });
  if (!parsed.ok) return { failure: parseFailure(cmd.program, parsed) };
  const operands = parsed.operands.map((index) => ({ word: cmd.argv[index]!, index }));
  return { parsed, sub: operands[0], operands };
}

export function projectScript(
  cmd: CommandView,
  via: string,
  at: Located | undefined,
  fallback: Word,
): NestedSpec {
  return codeIn('script-file', cmd.program, via, at?.word ?? fallback);
}

export function dynamicSub(cmd: CommandView, sub: Located): NestedSpec[] | undefined {
  return sub.word.static
    ? undefined
    : [unresolved(`${cmd.program} subcommand only known at run time`, sub.word)];
}

/** A package specifier that is not a plain command name: `@scope/pkg`, `pkg@1.2`, a path or a URL. */
const PACKAGE_SPEC = /[@/:]/;

/**
 * `npx NAME ARGS`: NAME may be a program on the PATH (`npx rm -rf x` runs rm) or a package's binary; either
 * way it runs with ARGS, so it is analysed as the command it is and deny and ask rules see it. A package
 * specifier (`npx pkg@1`, `npx @scope/pkg`) is code fetched from the registry.
 */
export function packageCommand(cmd: CommandView, operands: readonly number[], via: string): NestedSpec[] {
  const at = operands[0];
  if (at === undefined) return [];
  const operand = cmd.argv[at]!;
  if (!operand.static || PACKAGE_SPEC.test(operand.value))
    return [codeIn('script-file', cmd.program, via, operand)];
  return [argvSpec(cmd.argv.slice(at), via)];
}

/**
 * bunx, uvx, pipx run, pnpm dlx: PKG ARGS with the runner's options before PKG. `runsCommands`: a plain name may
 * be a program on the PATH (bunx runs it as npx does).
 */
export function packageRunner(via: string, g: Grammar, start = 1, runsCommands = false): Handler {
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, start, g, { unknown: 'flag' });
    if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
    if (has(parsed, '--help', '--version', 'h', 'V')) return [];
    if (runsCommands) return packageCommand(cmd, parsed.operands, via);
    const operand = operandWords(cmd.argv, parsed)[0];
    return operand ? [codeIn('script-file', cmd.program, via, operand)] : [];
  };
}

const UVX = grammar({
  flags: 'qvnhV',
  values: 'pfcobP',
  long:
    'from= with= with-editable= with-requirements= python=/p index= default-index= extra-index-url= index-url= ' +
    'find-links=/f constraints=/c overrides=/o build-constraints=/b directory= project= config-file= ' +
    'cache-dir= refresh-package= reinstall-package= upgrade-package=/P env-file= help/h version/V',
  unlistedFlags: /./,
});

export const PLAIN = grammar({ flags: 'hV', long: 'help/h version/V', unlistedFlags: /./ });

const MAKE = grammar({
  flags: 'bBdeiknpqrsStvwLRh',
  values: 'CfIoWE',
  optional: 'jlO',
  long:
    'file=/f makefile=/f directory=/C include-dir=/I jobs?/j load-average?/l old-file=/o assume-old=/o ' +
    'what-if=/W new-file=/W assume-new=/W eval=/E debug? jobserver-auth= jobserver-style= output-sync?/O ' +
    'shuffle? always-make/B environment-overrides/e ignore-errors/i keep-going/k just-print/n dry-run/n ' +
    'recon/n print-data-base/p question/q no-builtin-rules/r no-builtin-variables/R silent/s quiet/s ' +
    'no-silent stop/S touch/t trace version/v print-directory/w no-print-directory ' +
    'warn-undefined-variables check-symlink-times/L help/h',
  abbreviate: true,
});

/** make runs the recipes of the named targets (or the default one) from the makefile. */
function make(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, MAKE, { permute: true, dynamic: 'operand', unknown: 'flag' });
  if (!parsed.ok) return [parseFailure(cmd.program, parsed)];
  if (has(parsed, 'v', 'h')) return [];
  const targets = parsed.operands
    .filter((index) => !(is(cmd.argv[index - 1], '-j', '-l') && /^[\d.]+$/.test(cmd.argv[index]!.value)))
    .map((index) => cmd.argv[index]!)
    .filter((word) => assignmentName(word) === null);
  const evals = optionsNamed(parsed, 'E').map((option) =>
    codeIn('interpreter-code', cmd.program, '--eval', option.value!),
  );
  // `-C DIR` runs the makefile found in DIR: the word naming the folder carries that code, as `-f` does.
  const folders = optionsNamed(parsed, 'C').map((option) =>
    codeIn('script-file', cmd.program, 'make -C', option.value!),
  );
  const makefile = lastValue(parsed, 'f');
  const code = targets.length ? joinWords(targets) : makefile;
  return [
    ...evals,
    ...folders,
    code
      ? codeIn('script-file', cmd.program, 'make', code)
      : codeSpec('script-file', cmd.program, 'make', cmd.argv[0]!),
  ];
}

/** `runner SUB ...`: subcommands that run project code, and those that wrap another command. */
export function runnerSubcommands(
  g: Grammar,
  table: {
    run?: string[];
    wrap?: string[];
    packages?: string[];
    inert?: string[];
    other?: 'run' | 'nothing';
  },
): Handler {
  return (cmd) => {
    const found = subcommand(cmd, g);
    if (found.failure) return [found.failure];
    const { parsed, sub } = found;
    if (!sub || has(parsed, 'h', 'V', '--help', '--version')) return [];
    const dynamic = dynamicSub(cmd, sub);
    if (dynamic) return dynamic;
    const name = sub.word.value;
    const via = `${cmd.program} ${name}`;
    if (table.packages?.includes(name)) return packageRunner(via, g, sub.index + 1)(cmd);
    if (table.wrap?.includes(name)) {
      const rest = cmd.argv.slice(sub.index + 1);
      const start = is(rest[0], '--') ? 1 : 0;
      return rest.length > start ? [argvSpec(rest.slice(start), via)] : [];
    }
    if (table.run?.includes(name) || (table.other === 'run' && !table.inert?.includes(name))) {
      return [codeSpec('script-file', cmd.program, via, sub.word)];
    }
    return [];
  };
}

function simpleRunner(cmd: CommandView): NestedSpec[] {
  const inert = cmd.argv.slice(1).some((word) => is(word, '--help', '--version', '-h', '-V'));
  return inert ? [] : [codeSpec('script-file', cmd.program, cmd.program, cmd.argv[0]!)];
}

export const RUNNERS: Record<string, Handler> = {
  uvx: packageRunner('uvx', UVX),
  pipx: runnerSubcommands(PLAIN, { packages: ['run'] }),
  make,
  gmake: make,
  just: simpleRunner,
  go: runnerSubcommands(PLAIN, { packages: ['run'], run: ['test', 'generate'] }),
  uv: runnerSubcommands(UVX, { wrap: ['run'] }),
  poetry: runnerSubcommands(grammar({ values: 'CP', long: 'directory=/C project=/P', unlistedFlags: /./ }), {
    wrap: ['run'],
  }),
  pipenv: runnerSubcommands(PLAIN, { wrap: ['run'] }),
  bundle: runnerSubcommands(PLAIN, { wrap: ['exec'] }),
  pytest: simpleRunner,
  jest: simpleRunner,
  vitest: simpleRunner,
  mocha: simpleRunner,
  tox: simpleRunner,
  nox: simpleRunner,
  rake: simpleRunner,
  gradle: simpleRunner,
  gradlew: simpleRunner,
  mvn: simpleRunner,
  mvnw: simpleRunner,
  rspec: simpleRunner,
  phpunit: simpleRunner,
};

const MAKE_RELOCATION: Relocation = {
  values: ['-f', '-C', '-I', '--file', '--makefile', '--directory', '--include-dir'],
  group: 'bBdeiknpqrsStvwLRh',
};
const GRADLE_RELOCATION: Relocation = {
  values: [
    '-p',
    '-b',
    '-c',
    '-I',
    '-g',
    '--project-dir',
    '--build-file',
    '--settings-file',
    '--init-script',
    '--gradle-user-home',
    '--include-build',
  ],
};
const MAVEN_RELOCATION: Relocation = {
  values: ['-f', '-s', '-gs', '--file', '--settings', '--global-settings'],
  not: ['-fae', '-ff', '-fn'],
};
const PYTEST_RELOCATION: Relocation = {
  values: ['--rootdir', '-c', '--config-file', '--confcutdir', '-o', '--override-ini'],
};

/** The runners above whose options make them take their code from another place (`ProgramModule.relocation`). */
export const RUNNER_RELOCATIONS: Readonly<Record<string, Relocation>> = {
  make: MAKE_RELOCATION,
  gmake: MAKE_RELOCATION,
  just: {
    values: [
      '-f',
      '-d',
      '-c',
      '--justfile',
      '--working-directory',
      '--shell',
      '--command',
      '--dotenv-path',
      '-E',
    ],
    flags: ['-g', '--global-justfile'],
  },
  rake: {
    values: [
      '-f',
      '-C',
      '-I',
      '-r',
      '-R',
      '--rakefile',
      '--directory',
      '--libdir',
      '--require',
      '--rakelibdir',
      '--rakelib',
    ],
    flags: ['-g', '--system'],
    group: 'ABGnNPqstvVX',
  },
  go: { values: ['-C', '-modfile', '-overlay', '-toolexec', '-exec'], singleDash: true },
  uv: { values: ['--directory', '--project', '--package', '--config-file', '--env-file'] },
  poetry: { values: ['-C', '-P', '--directory', '--project'] },
  pytest: PYTEST_RELOCATION,
  'py.test': PYTEST_RELOCATION,
  tox: { values: ['-c', '--conf', '--root', '--workdir', '--installpkg'] },
  nox: { values: ['-f', '--noxfile'], not: ['-fb'] },
  gradle: GRADLE_RELOCATION,
  gradlew: GRADLE_RELOCATION,
  mvn: MAVEN_RELOCATION,
  mvnw: MAVEN_RELOCATION,
  jest: { values: ['--config', '-c', '--rootDir', '--roots', '--projects'] },
  vitest: { values: ['--config', '-c', '--root', '-r', '--dir', '--workspace'] },
  phpunit: { values: ['-c', '--configuration', '--bootstrap'] },
};
