import { UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { type Grammar, grammar } from './options.js';
import { everyOption, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

/**
 * Packer reads each command's options with Go's flag package: `-name` and `--name` alike, a value attached or in
 * the next word, options before the operands only. Written `NAME` for a flag, `NAME=` for an option with a value.
 */
function goFlags(notation: string): Grammar {
  const words = `${notation} h/help help`
    .split(' ')
    .filter(Boolean)
    .flatMap((entry) => {
      const [written, report] = entry.split('/') as [string, string | undefined];
      const name = written.replace(/=$/, '');
      const marker = written.endsWith('=') ? '=' : '';
      const as = report ?? name;
      return [`-${name}${marker}/${as}`, `--${name}${marker}/${as}`];
    })
    .join(' ');
  return grammar({ words, abbreviate: false });
}

/**
 * The options of each command, from `packer COMMAND -help` (Packer 1.6.6, Debian's `packer`); the commands later
 * releases add (`init`, `plugins`) know only `-help` here, so any option makes them unknown.
 */
const OPTIONS: Readonly<Record<string, string>> = {
  build:
    'color= debug except= only= force machine-readable on-error= parallel-builds= timestamp-ui var= var-file=',
  console: 'var= var-file=',
  fix: 'validate=',
  fmt: 'check diff write=',
  hcl2_upgrade: '',
  inspect: 'machine-readable',
  validate: 'syntax-only except= only= var= var-file=',
  version: '',
  init: '',
  'plugins installed': '',
  'plugins install': '',
  'plugins remove': '',
  'plugins required': '',
};

/**
 * Nothing packer runs is read-only here. Before any command, `--version` and `--help` included, Packer before
 * 1.11 (Debian ships 1.6.6) starts every `packer-plugin-*` program it finds in the working folder and in its own
 * folder to ask it for its components: a file the agent can write runs. The effect oracle saw it in the canary
 * world. `validate`, `inspect` and `console` then start the plugins a template names; `fmt` rewrites files
 * without `-check`; `build` and `init` reach the network.
 */
const STARTS_PLUGINS =
  'packer starts the packer-plugin-* programs of the working folder at every command (Packer before 1.11)';

function level(path: string): SubcommandSpec {
  const flags = goFlags(OPTIONS[path] ?? '');
  return {
    grammar: flags,
    permute: false,
    // Every option is listed so that the reason shown is why packer asks, not which option it was given.
    readOnly: readOnly(() => everyOption(flags), 'inert', { check: () => STARTS_PLUGINS }),
  };
}

let commands: Record<string, SubcommandSpec> | undefined;

function tree(): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  for (const path of Object.keys(OPTIONS)) {
    const [name, sub] = path.split(' ') as [string, string | undefined];
    if (!sub) root[name] = level(name);
    else
      root[name] = {
        ...(root[name] ?? level(name)),
        subcommands: { ...root[name]?.subcommands, [sub]: level(path) },
      };
  }
  return root;
}

const PACKER_SPEC: ProgramSpec = {
  name: 'packer',
  grammar: goFlags('version/version v/version'),
  permute: false,
  readOnly: readOnly('help version', 'none', { check: () => STARTS_PLUGINS }),
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};

/** HashiCorp Packer: its grammar, for deny and ask rules; every command asks (see STARTS_PLUGINS). */
export const PACKER_MODULE: ProgramModule = {
  names: ['packer'],
  spec: PACKER_SPEC,
  effects: () => UNKNOWN,
  network: () => true,
  oracle: {
    cases: [
      'packer version',
      'packer --version',
      'packer -help',
      'packer fmt -check .',
      'packer validate -syntax-only .',
    ],
  },
};
