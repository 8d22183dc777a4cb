import type { ProgramModule } from './module.js';
import { NPM_CONFIG } from './npm.js';
import { grammar } from './options.js';
import { type ConfigCommand, configEffects, packageManager } from './package-managers.js';
import type { ProgramSpec } from './program.js';

/** pnpm's options before the subcommand; its subcommands are read by their words. */
const spec: ProgramSpec = {
  name: 'pnpm',
  grammar: grammar({ flags: 'r', values: 'CF', long: 'dir=/C filter=/F recursive/r', abbreviate: false }),
  subcommands: {},
};

const PNPM = grammar({
  flags: 'rwhvD',
  values: 'CF',
  long: 'dir=/C filter=/F recursive/r workspace-root/w help/h version/v',
  unlistedFlags: /./,
});

const PNPM_INSTALLS = new Set([
  'install',
  'i',
  'add',
  'update',
  'up',
  'upgrade',
  'rebuild',
  'rb',
  'link',
  'ln',
  'import',
  'remove',
  'rm',
  'uninstall',
  'un',
]);

const PNPM_BUILTIN = new Set([
  'audit',
  'bin',
  'config',
  'c',
  'create',
  'deploy',
  'env',
  'fetch',
  'help',
  'init',
  'licenses',
  'list',
  'ls',
  'll',
  'la',
  'outdated',
  'pack',
  'patch',
  'patch-commit',
  'prune',
  'publish',
  'root',
  'server',
  'setup',
  'store',
  'why',
]);

const CONFIG: ConfigCommand = {
  ...NPM_CONFIG,
  config: ['config', 'c'],
  set: [],
  files: (scope) => (scope === 'project' ? ['.npmrc'] : ['~/.config/pnpm/rc', '~/.npmrc']),
};

export const PNPM_MODULE: ProgramModule = {
  names: ['pnpm'],
  spec,
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  nested: packageManager('pnpm', { grammar: PNPM, installs: PNPM_INSTALLS, builtin: PNPM_BUILTIN }),
  relocation: {
    values: ['--dir', '-C', '--filter', '-F', '--filter-prod', '--script-shell', '--node-options'],
    flags: ['--recursive', '-r', '--workspace-root', '-w'],
  },
  oracle: {
    cases: [
      'pnpm config set a b',
      'pnpm config get a',
      'pnpm lint',
      'pnpm -r --filter web run dev',
      'pnpm exec vitest',
      'pnpm list',
    ],
  },
};
