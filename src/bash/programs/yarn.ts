import type { Word } from '../types.js';
import type { ProgramModule } from './module.js';
import { grammar, type Parsed } from './options.js';
import { type ConfigCommand, configEffects, packageManager } from './package-managers.js';
import { everyOption, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from './program.js';

/**
 * Output options both lines of yarn take on the read commands: classic's (`yarn --help`, 1.22) global `--json`,
 * `--silent`, `--no-progress`, `--no-emoji`, `--verbose`, `--non-interactive`; berry's (4.x) `--json` of each
 * command. Not `--cwd`, `--use-yarnrc`, `--registry`, `--no-default-rc` or `--offline` and kin: they read another
 * project, configuration or registry.
 */
const OUTPUT = 'json silent/s no-progress no-emoji verbose non-interactive help/h';

function readLevel(
  long: string,
  operands: 'inert' | 'none',
  check?: (parsed: Parsed, words: readonly Word[]) => string | undefined,
  maxOperands?: number,
): SubcommandSpec {
  const g = grammar({ flags: 'sh', values: '', long: `${OUTPUT} ${long}`, abbreviate: false });
  const more = { ...(check ? { check } : {}), ...(maxOperands === undefined ? {} : { maxOperands }) };
  return { grammar: g, readOnly: readOnly(() => everyOption(g), operands, more) };
}

/** A registry package (`react`, `@types/node@18`): classic's `yarn info` fetches nothing else. */
const PACKAGE = /^(?:@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*(?:@[\w.^~<>=*|+ -]+)?$/i;

function packageFirst(parsed: Parsed, words: readonly Word[]): string | undefined {
  const first = parsed.operands[0];
  if (first === undefined) return undefined;
  const word = words[first]!;
  return word.static && PACKAGE.test(word.value)
    ? undefined
    : `yarn info ${word.text} is not a registry package: yarn may clone or unpack it`;
}

/**
 * The read commands, as yarn 1.22's and 4.x's help list them. `list`, `outdated`, `licenses`, `audit` and
 * `versions`, `cache dir|list` and `workspaces info` are classic's, `npm` and `workspaces list` berry's: the other line runs the project's script of that name, which the
 * policy rules out when the command is decided (`YARN_SCRIPT_NAMES`). Not `version`: classic's bumps the
 * project's version.
 */
const READS: Record<string, SubcommandSpec> = {
  list: readLevel('depth= pattern=', 'none'),
  info: readLevel('all/A recursive/R dependents manifest name-only virtuals', 'inert', packageFirst),
  why: readLevel('recursive/R peers', 'inert'),
  outdated: readLevel('', 'inert'),
  audit: readLevel('level= groups= summary', 'none'),
  versions: readLevel('', 'none'),
  help: readLevel('', 'inert'),
  bin: readLevel('', 'inert', undefined, 1),
  cache: {
    grammar: grammar({ flags: 'sh', long: OUTPUT, abbreviate: false }),
    subcommands: { dir: readLevel('', 'none'), list: readLevel('pattern=', 'none') },
  },
  // Not `--since`: it runs git to find what changed.
  workspaces: {
    grammar: grammar({ flags: 'sh', long: OUTPUT, abbreviate: false }),
    subcommands: {
      list: readLevel('recursive/R no-private', 'none'),
      info: readLevel('', 'none'),
    },
  },
  // yarn 2+'s registry reads: a package's document, the audit of the lock file, the user the token names.
  npm: {
    grammar: grammar({ flags: 'sh', long: OUTPUT, abbreviate: false }),
    subcommands: {
      info: readLevel('fields=', 'inert', packageFirst),
      audit: readLevel('all/A recursive/R environment= no-deprecations severity= exclude= ignore=', 'none'),
      whoami: readLevel('', 'none'),
    },
  },
  licenses: {
    grammar: grammar({ flags: 'sh', long: OUTPUT, abbreviate: false }),
    subcommands: {
      list: readLevel('', 'none'),
      ls: readLevel('', 'none'),
      'generate-disclaimer': readLevel('', 'none'),
    },
  },
};

/** The read commands that are not berry's own: it runs a script so named where the project has one. */
export const YARN_SCRIPT_NAMES: ReadonlySet<string> = new Set([
  'list',
  'outdated',
  'audit',
  'versions',
  'licenses',
  'npm',
  'cache',
  'workspaces',
]);

/** yarn's options before the subcommand and its read commands; its other subcommands are read by their words. */
const spec: ProgramSpec = {
  name: 'yarn',
  grammar: grammar({
    flags: 's',
    long: 'cwd= silent/s json no-progress no-emoji non-interactive',
    abbreviate: false,
  }),
  subcommands: READS,
};

/** The read command a yarn line names (`licenses list`), for the configuration check made when it is decided. */
export function yarnCommand(words: readonly Word[]): string | undefined {
  const parsed = parseCommand(spec, words, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return undefined;
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ') || undefined;
}

const YARN = grammar({ values: 'C', long: 'cwd=/C help/h version/v', flags: 'hv', unlistedFlags: /./ });

const YARN_BUILTIN = new Set([
  'add',
  'audit',
  'bin',
  'cache',
  'check',
  'config',
  'constraints',
  'create',
  'dedupe',
  'dlx',
  'exec',
  'explain',
  'generate-lock-entry',
  'global',
  'help',
  'import',
  'info',
  'init',
  'install',
  'licenses',
  'link',
  'list',
  'login',
  'logout',
  'node',
  'npm',
  'outdated',
  'owner',
  'pack',
  'patch',
  'plugin',
  'policies',
  'publish',
  'rebuild',
  'remove',
  'run',
  'set',
  'stage',
  'tag',
  'team',
  'unlink',
  'unplug',
  'up',
  'upgrade',
  'upgrade-interactive',
  'version',
  'versions',
  'why',
  'workspace',
  'workspaces',
]);

const YARN_INSTALLS = new Set([
  'install',
  'add',
  'remove',
  'up',
  'upgrade',
  'dedupe',
  'rebuild',
  'unplug',
  'import',
  'link',
]);

const CONFIG: ConfigCommand = {
  config: ['config'],
  set: [],
  writes: ['set', 'delete', 'unset'],
  reads: ['get', 'list'],
  files: (scope) => (scope === 'home' ? ['~/.yarnrc.yml', '~/.yarnrc'] : ['.yarnrc.yml', '~/.yarnrc']),
  scopeOptions: [],
  scopeFlags: { '--home': 'home', '-H': 'home', '--global': 'home', '-g': 'home' },
  fileOptions: [],
};

export const YARN_MODULE: ProgramModule = {
  names: ['yarn'],
  spec,
  relocation: { values: ['--cwd', '--use-yarnrc'], flags: ['workspace', 'workspaces'] },
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  nested: packageManager('yarn', {
    grammar: YARN,
    installs: YARN_INSTALLS,
    builtin: YARN_BUILTIN,
    bareInstalls: true,
  }),
  // The read commands ask the registry (info, outdated, audit) or read what the project's configuration says.
  network: (cmd) => {
    const sub = yarnCommand(cmd.argv);
    return sub !== undefined && Object.hasOwn(READS, sub.split(' ')[0]!);
  },
  oracle: {
    cases: [
      'yarn list --depth=0',
      'yarn info react',
      'yarn why lodash',
      'yarn licenses list',
      'yarn config set a b',
      'yarn config get a',
      'yarn build',
      'yarn run test',
      'yarn exec tsc -b',
      'yarn why react',
    ],
  },
};
