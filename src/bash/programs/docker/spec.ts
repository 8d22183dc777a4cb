import { type Grammar, grammar, has, type Parsed } from '../options.js';
import type { ProgramSpec, SubcommandSpec } from '../program.js';
import { COMMANDS } from './commands.js';

/**
 * docker reads options with Go's pflag: exact long names, no abbreviations; `-h` is `--help` wherever the command
 * gives the letter no other meaning. Each command reads its own options only: the global ones go before it.
 */
function pflag(notation: string): Grammar {
  let flags = '';
  let values = '';
  for (const entry of notation.split(' ').filter(Boolean)) {
    const [, , value, letter] = /^([\w.-]+)(=?)(?:\/(\w))?$/.exec(entry)!;
    if (letter && value) values += letter;
    else if (letter) flags += letter;
  }
  const helpLetter = !flags.includes('h') && !values.includes('h');
  return grammar({
    flags: helpLetter ? `${flags}h` : flags,
    values,
    long: `${notation} ${helpLetter ? 'help/h' : 'help'}`,
    abbreviate: false,
  });
}

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

function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  const commands: Record<string, string> = { ...COMMANDS, 'builder build': COMMANDS['image build']! };
  for (const [path, notation] of Object.entries(commands)) {
    const words = path.split(' ');
    let level = root;
    for (const group of words.slice(0, -1)) {
      level[group] ??= {
        grammar: HELP_ONLY,
        permute: false,
        subcommands: {},
        subcommandAliases: GROUP_ALIASES[group] ?? LIST_REMOVE,
      };
      const node = level[group];
      level = node.subcommands as Record<string, SubcommandSpec>;
    }
    level[words.at(-1)!] = { grammar: pflag(notation), permute: !NOT_INTERSPERSED.has(path) };
  }
  return root;
}

export const DOCKER_GLOBAL = pflag(
  'config= context=/c debug/D host=/H log-level=/l tls tlscacert= tlscert= tlskey= tlsverify version/v',
);

let commands: Record<string, SubcommandSpec> | undefined;

export const DOCKER_SPEC: ProgramSpec = {
  name: 'docker',
  grammar: DOCKER_GLOBAL,
  // Built at the first docker command, not when the module loads.
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  subcommandAliases: TOP_ALIASES,
};
