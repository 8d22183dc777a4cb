import { commandTree, pflagGrammar as pflag } from '../pflag.js';
import { everyOption, type ProgramSpec, readOnly, type SubcommandSpec } from '../program.js';

/**
 * The docker CLI plugins automode reads: compose (`docker compose`, or the standalone `docker-compose`) and buildx.
 * docker runs the plugin binary found in ~/.docker/cli-plugins (a protected folder: automode asks before anything
 * writes it) or the system's plugin folders; `--config` names another folder, whose plugins are code the command
 * does not show. Neither plugin runs here, so their options are taken from their own reference pages (the
 * docs/reference pages of the compose and buildx repositories, compose v2 and buildx 0.2x); an option not listed
 * makes the command unknown.
 */

/**
 * compose's own options, before its command. `-f`, `--env-file` and `--project-directory` name files it reads;
 * `--profile` picks services. Where a compose file is loaded, compose may fetch the remote resources it
 * includes (a git repository or OCI artifact) into its cache, as cargo fetches a manifest's git dependencies.
 */
const COMPOSE_GLOBAL =
  'all-resources ansi= compatibility dry-run env-file= file=/f parallel= profile= progress= project-directory= ' +
  'project-name=/p';

/**
 * compose's commands that only read the daemon's state of the project's containers (or list projects), every
 * option of theirs read-only; `config` only where it prints names (see below). Other commands (up, run, exec,
 * build, …) run the project's code and are not listed: an unknown compose command is the plugin's code.
 */
const COMPOSE_READS: Readonly<Record<string, string>> = {
  ps: 'all/a dry-run filter= format= no-trunc orphans quiet/q services status=',
  ls: 'all/a dry-run filter= format= quiet/q',
  images: 'dry-run format= quiet/q',
  top: 'dry-run',
  logs: 'dry-run follow/f index= no-color no-log-prefix since= tail=/n timestamps/t until=',
  port: 'dry-run index= protocol=',
  events: 'dry-run json since= until=',
  version: 'dry-run format=/f short',
  stats: 'all/a dry-run format= no-stream no-trunc',
  volumes: 'dry-run format= quiet/q',
  config:
    'dry-run environment format= hash= images lock-image-digests models networks no-consistency ' +
    'no-env-resolution no-interpolate no-normalize no-path-resolution output=/o profiles quiet/q ' +
    'resolve-image-digests services variables volumes',
};

/**
 * `compose config` prints the model with the values of .env and the environment interpolated: a secret print.
 * Its names (keys of the model, never interpolated) and `--quiet` (validation only) are not.
 */
const CONFIG_NAMES = ['--services', '--volumes', '--networks', 'q'];
const CONFIG_KEEPS = `${CONFIG_NAMES.join(' ')} --quiet --dry-run --no-interpolate --no-normalize --no-consistency --no-path-resolution --no-env-resolution --format h --help`;

function composeLevel(): SubcommandSpec {
  const grammar = pflag(COMPOSE_GLOBAL);
  const subcommands: Record<string, SubcommandSpec> = {};
  for (const [name, notation] of Object.entries(COMPOSE_READS)) {
    const g = pflag(notation);
    subcommands[name] = {
      grammar: g,
      readOnly:
        name === 'config'
          ? readOnly(CONFIG_KEEPS, 'none', {
              check: (parsed) =>
                parsed.options.some((o) => CONFIG_NAMES.includes(o.name))
                  ? undefined
                  : 'compose config prints the values of .env and the environment (read-only with --services, --volumes, --networks or --quiet)',
            })
          : readOnly(() => everyOption(g), 'inert'),
    };
  }
  return {
    grammar,
    permute: false,
    readOnly: readOnly(() => everyOption(grammar), 'inert'),
    subcommands,
  };
}

/** buildx's own options, before its command: `--builder` picks one of the user's builders. */
const BUILDX_GLOBAL = 'builder= debug/D';

/**
 * buildx's commands that only read the builders' state, or an image index from its registry (`imagetools
 * inspect`, with the credentials stored for it, as `docker manifest inspect`). `inspect --bootstrap` starts a
 * builder (a container) and is left out. buildx keeps its store (~/.docker/buildx, a lock file) as podman keeps
 * its own: no file the command line names is touched.
 */
const BUILDX_READS: Readonly<Record<string, string>> = {
  ls: 'builder= debug/D format= no-trunc timeout=',
  inspect: 'bootstrap builder= debug/D timeout=',
  du: 'builder= debug/D filter= format= timeout= verbose',
  version: 'debug/D',
  'imagetools inspect': 'builder= debug/D format= raw',
};

function buildxLevel(): SubcommandSpec {
  const grammar = pflag(BUILDX_GLOBAL);
  return {
    grammar,
    permute: false,
    readOnly: readOnly(() => everyOption(grammar), 'inert'),
    subcommands: commandTree(
      BUILDX_READS,
      () => ({ grammar: pflag(''), permute: false, subcommands: {} }),
      (path, notation) => {
        const g = pflag(notation);
        const keeps = everyOption(g)
          .split(' ')
          .filter((name) => name !== '--bootstrap')
          .join(' ');
        const named = path === 'inspect' || path === 'imagetools inspect';
        return { grammar: g, readOnly: readOnly(keeps, named ? 'inert' : 'none', { maxOperands: 1 }) };
      },
    ),
  };
}

let compose: SubcommandSpec | undefined;
let buildx: SubcommandSpec | undefined;

/** The plugins' levels under `docker`, built at their first use. */
export const PLUGINS = {
  get compose(): SubcommandSpec {
    compose ??= composeLevel();
    return compose;
  },
  get buildx(): SubcommandSpec {
    buildx ??= buildxLevel();
    return buildx;
  },
};

export type PluginName = keyof typeof PLUGINS;

export function isPlugin(name: string | undefined): name is PluginName {
  return name === 'compose' || name === 'buildx';
}

/** The standalone `docker-compose`: compose v2's own binary takes the same command line (compose v1's options for these commands mean the same). */
export const DOCKER_COMPOSE_SPEC: ProgramSpec = {
  name: 'docker-compose',
  get grammar() {
    return PLUGINS.compose.grammar;
  },
  permute: false,
  get readOnly() {
    return PLUGINS.compose.readOnly;
  },
  get subcommands() {
    return PLUGINS.compose.subcommands;
  },
};
