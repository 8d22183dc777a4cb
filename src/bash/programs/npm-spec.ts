import { grammar } from './options.js';
import type { ProgramSpec, SubcommandSpec } from './program.js';

const ANY = grammar({ long: 'help' });

/** npm's commands (v10). */
const COMMANDS =
  'access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit exec ' +
  'explain explore find-dupes fund get help help-search hook init install install-ci-test install-test link ' +
  'll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo restart ' +
  'root run-script sbom search set shrinkwrap star stars start stop team test token undeprecate uninstall ' +
  'unpublish unstar update version view whoami';

/** npm's own alias table (lib/utils/cmd-list.js), typos included. */
const ALIASES: Record<string, string> = {
  author: 'owner',
  home: 'docs',
  issues: 'bugs',
  info: 'view',
  show: 'view',
  find: 'search',
  add: 'install',
  unlink: 'uninstall',
  remove: 'uninstall',
  rm: 'uninstall',
  r: 'uninstall',
  un: 'uninstall',
  rb: 'rebuild',
  list: 'ls',
  ln: 'link',
  create: 'init',
  i: 'install',
  it: 'install-test',
  cit: 'install-ci-test',
  up: 'update',
  c: 'config',
  s: 'search',
  se: 'search',
  tst: 'test',
  t: 'test',
  ddp: 'dedupe',
  v: 'view',
  run: 'run-script',
  'clean-install': 'ci',
  'clean-install-test': 'install-ci-test',
  x: 'exec',
  why: 'explain',
  la: 'll',
  verison: 'version',
  ic: 'ci',
  innit: 'init',
  isntall: 'install',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  hlep: 'help',
  'dist-tags': 'dist-tag',
  upgrade: 'update',
  udpate: 'update',
  rum: 'run-script',
  sit: 'install-ci-test',
  urn: 'run-script',
  ogr: 'org',
  'add-user': 'adduser',
};

const subcommands: Record<string, SubcommandSpec> = {};
for (const name of COMMANDS.split(' ')) subcommands[name] = { grammar: ANY };

export const NPM_SPEC: ProgramSpec = {
  name: 'npm',
  grammar: grammar({
    flags: 'sgdqy',
    values: 'Cw',
    long:
      'prefix=/C workspace=/w workspaces silent/s global/g userconfig= globalconfig= registry= cache= ' +
      'loglevel= otp= help version',
    abbreviate: false,
  }),
  subcommands,
  subcommandAliases: ALIASES,
  abbreviateSubcommands: true,
};

/** Programs whose options before the subcommand are known, and whose subcommands are read by their words. */
function globalsOnly(name: string, g: ReturnType<typeof grammar>): ProgramSpec {
  return { name, grammar: g, subcommands: {} };
}

export const PACKAGE_MANAGER_SPECS: readonly ProgramSpec[] = [
  NPM_SPEC,
  globalsOnly(
    'pnpm',
    grammar({ flags: 'r', values: 'CF', long: 'dir=/C filter=/F recursive/r', abbreviate: false }),
  ),
  globalsOnly('yarn', grammar({ flags: 's', long: 'cwd= silent/s', abbreviate: false })),
  globalsOnly(
    'cargo',
    grammar({
      flags: 'qvV',
      values: 'CZ',
      long: 'manifest-path= quiet/q verbose/v locked offline frozen config= color= list version/V',
      abbreviate: false,
    }),
  ),
];
