import type { ProgramModule } from './module.js';
import { grammar } from './options.js';
import { type ConfigCommand, configEffects, packageManager } from './package-managers.js';
import type { ProgramSpec } from './program.js';

/** yarn's options before the subcommand; its subcommands are read by their words. */
const spec: ProgramSpec = {
  name: 'yarn',
  grammar: grammar({ flags: 's', long: 'cwd= silent/s', abbreviate: false }),
  subcommands: {},
};

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
  oracle: {
    cases: [
      'yarn config set a b',
      'yarn config get a',
      'yarn build',
      'yarn run test',
      'yarn exec tsc -b',
      'yarn why react',
    ],
  },
};
