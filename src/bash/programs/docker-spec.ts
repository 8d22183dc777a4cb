import { grammar } from './options.js';
import type { ProgramSpec, SubcommandSpec } from './program.js';

/** docker reads options with Go's pflag: exact long names, no abbreviations. */
const ANY = grammar({ long: 'help', abbreviate: false });

function group(
  names: string,
  aliases: Record<string, string> = {},
  grammars: Record<string, ReturnType<typeof grammar>> = {},
): SubcommandSpec {
  const subcommands: Record<string, SubcommandSpec> = {};
  for (const name of names.split(' ')) subcommands[name] = { grammar: grammars[name] ?? ANY };
  return { grammar: ANY, permute: false, subcommands, subcommandAliases: aliases };
}

const PRUNE = grammar({ flags: 'af', long: 'all/a force/f volumes filter= help', abbreviate: false });
const REMOVE = grammar({ flags: 'flv', long: 'force/f link/l volumes/v help', abbreviate: false });

const CONTAINER = group(
  'attach commit cp create diff exec export inspect kill logs ls pause port prune rename restart rm run start ' +
    'stats stop top unpause update wait',
  { list: 'ls', ps: 'ls', remove: 'rm' },
  { prune: PRUNE, rm: REMOVE },
);

const IMAGE = group(
  'build history import inspect load ls prune pull push rm save tag',
  { list: 'ls', remove: 'rm' },
  { prune: PRUNE, rm: grammar({ flags: 'f', long: 'force/f no-prune help', abbreviate: false }) },
);

const REMOVABLE = (names: string) => group(names, { list: 'ls', remove: 'rm' }, { prune: PRUNE });

/** The top-level commands that are other spellings of a group's command (`docker rm` = `docker container rm`). */
const SHORTCUTS: Record<string, string> = {
  rmi: 'image rm',
  images: 'image ls',
  build: 'image build',
  pull: 'image pull',
  push: 'image push',
  history: 'image history',
  import: 'image import',
  load: 'image load',
  save: 'image save',
  tag: 'image tag',
  events: 'system events',
  info: 'system info',
};
for (const name of CONTAINER.subcommands ? Object.keys(CONTAINER.subcommands) : []) {
  if (!['inspect', 'ls', 'prune'].includes(name)) SHORTCUTS[name] = `container ${name}`;
}
SHORTCUTS.ps = 'container ls';

export const DOCKER_SPEC: ProgramSpec = {
  name: 'docker',
  grammar: grammar({
    flags: 'Dv',
    values: 'cHl',
    long: 'config= context=/c debug/D host=/H log-level=/l tls tlscacert= tlscert= tlskey= tlsverify version/v help',
    abbreviate: false,
  }),
  subcommands: {
    container: CONTAINER,
    image: IMAGE,
    network: REMOVABLE('connect create disconnect inspect ls prune rm'),
    volume: REMOVABLE('create inspect ls prune rm update'),
    system: group('df events info prune', {}, { prune: PRUNE }),
    builder: group('build prune', {}, { prune: PRUNE }),
    plugin: REMOVABLE('create disable enable inspect install ls push rm set upgrade'),
    context: REMOVABLE('create export import inspect ls rm show update use'),
    inspect: { grammar: ANY },
    version: { grammar: ANY },
    login: { grammar: ANY },
    logout: { grammar: ANY },
    search: { grammar: ANY },
  },
  subcommandAliases: SHORTCUTS,
};
