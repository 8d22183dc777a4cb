import { commandTree, pflagGrammar } from '../pflag.js';
import { everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from '../program.js';
import { COMMANDS } from './commands.js';

/**
 * The global options podman also reads after a command (`podman ps --root DIR`): where its storage and state
 * live and which helper programs it runs. The options naming a remote service (`--remote`, `--url`,
 * `--connection`, `--identity`, `--ssh`) and `--version`, `--noout` are read before the command only.
 */
const PERSISTENT =
  'cgroup-manager= conmon= events-backend= hooks-dir= log-level= namespace= network-cmd-path= ' +
  'network-config-dir= root= runroot= runtime= runtime-flag= storage-driver= storage-opt= syslog tmpdir= ' +
  'volumepath=';

/** podman's global options, before the command. */
export const PODMAN_GLOBAL = pflagGrammar(
  `${PERSISTENT} connection=/c identity= noout remote/r ssh= url= version/v`,
);

/** A command's own options and the persistent global ones (its own win where a name is both: `build --runtime-flag`). */
function withPersistent(notation: string): string {
  const own = new Set(notation.split(' ').map((entry) => /^[\w.-]+/.exec(entry)?.[0]));
  const added = PERSISTENT.split(' ').filter((entry) => !own.has(/^[\w.-]+/.exec(entry)?.[0]));
  return `${notation} ${added.join(' ')}`.trim();
}

/** Commands whose options end at the first operand: what follows is the command run (in a container, by unshare). */
const NOT_INTERSPERSED = new Set([
  'run',
  'create',
  'exec',
  'container run',
  'container create',
  'container exec',
  'unshare',
]);

/** Other spellings of a group's commands, as each command's help lists them (`Aliases:`). */
const GROUP_ALIASES: Readonly<Record<string, Record<string, string>>> = {
  container: { ls: 'list', umount: 'unmount' },
  image: { ls: 'list', umount: 'unmount' },
  machine: { ls: 'list' },
  network: { remove: 'rm' },
  pod: { ls: 'ps', list: 'ps' },
  secret: { list: 'ls' },
  connection: { ls: 'list', rm: 'remove', mv: 'rename' },
  volume: { list: 'ls', remove: 'rm' },
};

/**
 * Commands that only read podman's state (containers, images, pods, networks, volumes, logs), with the options
 * that keep them so: every option of theirs but those named. Left out: `ps --sync` (writes the containers'
 * state), `--size` (mounts each container's layers to measure them), and the commands that mount layers to
 * answer (`diff`, `system df`) or run code (`healthcheck run`). Their operands name containers, images, pods,
 * networks and volumes, not files.
 */
const READ_ONLY: Readonly<Record<string, string>> = {
  version: '',
  info: '',
  'system info': '',
  inspect: 's --size',
  'container inspect': 's --size',
  'image inspect': '',
  'network inspect': '',
  'volume inspect': '',
  'pod inspect': '',
  ps: 's --size --sync',
  'container ps': 's --size --sync',
  'container list': 's --size --sync',
  'pod ps': '',
  images: '',
  'image list': '',
  'image tree': '',
  history: '',
  'image history': '',
  logs: '',
  'container logs': '',
  'pod logs': '',
  top: '',
  'container top': '',
  'pod top': '',
  port: '',
  'container port': '',
  stats: '',
  'container stats': '',
  'pod stats': '',
  'network ls': '',
  'volume ls': '',
  'container exists': '',
  'image exists': '',
  'network exists': '',
  'volume exists': '',
  'pod exists': '',
  'system connection list': '',
  // The registries' public index. Not --authfile (credentials from another file) or --tls-verify (=false
  // sends them without checking the server).
  search: '--authfile --tls-verify',
  'image search': '--authfile --tls-verify',
};

/** The persistent global options that keep a read-only command so: not those naming storage, state or helpers. */
const READ_ONLY_GLOBAL = '--log-level';

const HELP_ONLY = pflagGrammar(withPersistent(''));

function tree(): Record<string, SubcommandSpec> {
  return commandTree(
    COMMANDS,
    (group) => ({
      grammar: HELP_ONLY,
      permute: false,
      subcommands: {},
      subcommandAliases: GROUP_ALIASES[group] ?? {},
    }),
    (path, notation) => {
      const g = pflagGrammar(withPersistent(notation));
      const leftOut = READ_ONLY[path];
      return {
        grammar: g,
        permute: !NOT_INTERSPERSED.has(path),
        ...(leftOut !== undefined
          ? {
              readOnly: readOnly(
                () =>
                  everyOptionBut(g, `${leftOut} ${PERSISTENT.replace(/=/g, '').replace(/(\S+)/g, '--$1')}`) +
                  ` ${READ_ONLY_GLOBAL}`,
                'inert',
              ),
            }
          : {}),
      };
    },
  );
}

let commands: Record<string, SubcommandSpec> | undefined;

export const PODMAN_SPEC: ProgramSpec = {
  name: 'podman',
  grammar: PODMAN_GLOBAL,
  // The global options that keep a read-only command so: not those naming a remote service, storage or helpers.
  readOnly: readOnly(READ_ONLY_GLOBAL, 'inert'),
  // Built at the first podman command, not when the module loads.
  get subcommands() {
    commands ??= tree();
    return commands;
  },
  subcommandAliases: {},
};
