import { type Grammar, has, type Parsed } from '../options.js';
import { commandTree, pflagGrammar as pflag } from '../pflag.js';
import { everyOption, everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from '../program.js';
import { COMMANDS } from './commands.js';
import { PLUGINS } from './plugins.js';

/** `--help` (or `-h` where it means help): the command only prints its usage. */
export function asksHelp(parsed: Parsed, g: Grammar): boolean {
  return has(parsed, '--help') || (has(parsed, 'h') && g.flags.includes('h'));
}

/** Commands whose options end at the first operand: what follows is the command run in the container. */
const NOT_INTERSPERSED = new Set(['container run', 'container create', 'container exec', 'service create']);

/** The other spellings of a group's commands, as each command's help lists them. */
const GROUP_ALIASES: Readonly<Record<string, Record<string, string>>> = {
  container: { list: 'ls', ps: 'ls', remove: 'rm' },
  stack: { up: 'deploy', down: 'rm', list: 'ls', remove: 'rm' },
  builder: {},
  system: {},
  swarm: {},
  manifest: {},
  trust: {},
};
const LIST_REMOVE = { list: 'ls', remove: 'rm' };

/** The top-level spellings of commands that live in a group (`docker cp` is `docker container cp`). */
const TOP_ALIASES: Readonly<Record<string, string>> = {
  build: 'image build',
  history: 'image history',
  import: 'image import',
  load: 'image load',
  images: 'image ls',
  pull: 'image pull',
  push: 'image push',
  rmi: 'image rm',
  save: 'image save',
  tag: 'image tag',
  events: 'system events',
  info: 'system info',
  ps: 'container ls',
  ...Object.fromEntries(
    'attach commit cp create diff exec export kill logs pause port rename restart rm run start stats stop top unpause update wait'
      .split(' ')
      .map((name) => [name, `container ${name}`]),
  ),
};

const HELP_ONLY = pflag('');

/**
 * Commands that only read the daemon's state (containers, images, networks, volumes, logs), every option of
 * theirs read-only. Their operands name containers and images, not files.
 */
const READ_ONLY = new Set([
  'version',
  'inspect',
  'container ls',
  'container inspect',
  'container logs',
  'container top',
  'container port',
  'container diff',
  'container stats',
  'image ls',
  'image inspect',
  'image history',
  'network ls',
  'network inspect',
  'volume ls',
  'volume inspect',
  'context ls',
  'context show',
  'system info',
  'system df',
  'system events',
  'context inspect',
  'plugin ls',
  'plugin inspect',
  // A swarm's state, as its manager's daemon reports it: a secret's inspect never holds its data.
  'service ls',
  'service inspect',
  'service ps',
  'service logs',
  'secret ls',
  'secret inspect',
  'config ls',
  'config inspect',
  'stack ls',
  'stack ps',
  'stack services',
  'node ls',
  'node inspect',
  'node ps',
  // Docker Hub's (or the named registry's) public index, asked through the daemon.
  'search',
]);

/**
 * Commands that read a registry with the credentials stored for it: not `--insecure`, which lets the client talk
 * to the registry without TLS (or without checking it).
 */
const REGISTRY_READS = new Set(['manifest inspect']);

/** Commands that write an archive to standard output, read-only without `--output` (a file they would write). */
const TO_STDOUT = new Set(['container export', 'image save']);

function tree(): Record<string, SubcommandSpec> {
  const own = commandTree(
    { ...COMMANDS, 'builder build': COMMANDS['image build']! },
    (group) => ({
      grammar: HELP_ONLY,
      permute: false,
      subcommands: {},
      subcommandAliases: GROUP_ALIASES[group] ?? LIST_REMOVE,
    }),
    (path, notation) => {
      const g = pflag(notation);
      return {
        grammar: g,
        permute: !NOT_INTERSPERSED.has(path),
        ...(READ_ONLY.has(path) ? { readOnly: readOnly(() => everyOption(g), 'inert') } : {}),
        ...(REGISTRY_READS.has(path)
          ? { readOnly: readOnly(() => everyOptionBut(g, '--insecure'), 'inert') }
          : {}),
        ...(TO_STDOUT.has(path)
          ? { readOnly: readOnly(() => everyOptionBut(g, 'o --output'), 'inert') }
          : {}),
      };
    },
  );
  return { ...own, compose: PLUGINS.compose, buildx: PLUGINS.buildx };
}

/** docker's global options; each command reads its own options only, the global ones go before it. */
export const DOCKER_GLOBAL = pflag(
  'config= context=/c debug/D host=/H log-level=/l tls tlscacert= tlscert= tlskey= tlsverify version/v',
);

let commands: Record<string, SubcommandSpec> | undefined;

export const DOCKER_SPEC: ProgramSpec = {
  name: 'docker',
  grammar: DOCKER_GLOBAL,
  // The global options that keep a read-only command so: not those naming another daemon, context or config.
  readOnly: readOnly('D --debug l --log-level', 'inert'),
  // A context of the user's own (~/.docker/contexts, protected) names the daemon a service read reaches; `-H`,
  // the TLS files and `--config` stay out: they send the client's credentials, or run programs, elsewhere.
  serviceRead: readOnly('D --debug l --log-level c --context', 'inert'),
  // Built at the first docker command, not when the module loads.
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  subcommandAliases: TOP_ALIASES,
};
