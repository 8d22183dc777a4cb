import type { CommandView, EffectsResult } from '../types.js';
import { each, NONE, UNKNOWN } from './effect-helpers.js';
import { goFlagGrammar } from './goflag.js';
import type { ProgramModule } from './module.js';
import { type Grammar, has, type Parsed } from './options.js';
import {
  everyOption,
  type ProgramSpec,
  parseCommand,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from './program.js';
import { is } from './words.js';

/**
 * Packer reads each command's options with Go's flag package (`goflag.ts`), options before the operands only.
 * The options of each command, from `packer COMMAND -help` (Packer 1.6.6, Debian's `packer`); the commands later
 * releases add (`init`, `plugins`) know only `-help` here, so any option makes them unknown.
 */
const OPTIONS: Readonly<Record<string, string>> = {
  build:
    'color= debug except= only= force machine-readable on-error= parallel-builds= timestamp-ui var= var-file=',
  console: 'var= var-file=',
  fix: 'validate=',
  fmt: 'check diff write?',
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
 * Before any command, `--version` and `--help` included, Packer before 1.11 (Debian ships 1.6.6) starts every
 * `packer-plugin-*` program it finds in the working folder to ask it for its components: a file the agent can
 * write runs. The effect oracle saw it in the canary world. The policy asks wherever the working folder holds
 * such a file (`policy/project-files/packer.ts`); the module declares what is read-only apart from that:
 * help, version, and `fmt` when it only checks (`-check`, `-write=false`: the program's own help says `-check`
 * disables writing; `-diff` alone still rewrites). `validate`, `inspect` and `console` start the plugins a
 * template names and evaluate its expressions (`file()` reads any path); `build` and `init` reach the network.
 */
const RUNS_PLUGINS = 'packer starts the plugins a template names and evaluates its expressions';

function onlyChecks(parsed: Parsed): string | undefined {
  if (has(parsed, 'check')) return undefined;
  const write = parsed.options.filter((o) => o.name === 'write').at(-1);
  if (write?.value?.static && /^(false|0|f|F|FALSE|False)$/.test(write.value.value)) return undefined;
  return 'packer fmt rewrites the files it formats without -check or -write=false';
}

const READ_ONLY: Readonly<Record<string, (flags: Grammar) => ReadOnlySpec>> = {
  version: () => readOnly('help', 'none'),
  fmt: () => readOnly('help check diff write', 'files', { maxOperands: 1, check: onlyChecks }),
};

function level(path: string): SubcommandSpec {
  const flags = goFlagGrammar(OPTIONS[path] ?? '');
  const own = READ_ONLY[path];
  return {
    grammar: flags,
    permute: false,
    // Every option is listed so that the reason shown is why packer asks, not which option it was given.
    readOnly: own
      ? own(flags)
      : readOnly(() => everyOption(flags), 'inert', {
          check: (parsed) => (has(parsed, 'help') ? undefined : RUNS_PLUGINS),
        }),
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
  grammar: goFlagGrammar('version/version v/version'),
  permute: false,
  readOnly: readOnly('help version', 'none'),
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};

/** What help, version and `fmt` touch: fmt reads its template (a file, or a folder's `*.pkr.hcl`). */
function effects(cmd: CommandView): EffectsResult {
  const parsed = parseCommand(PACKER_SPEC, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  if (has(last.parsed, 'help', 'version')) return NONE;
  if (last.name === 'packer version') return NONE;
  if (last.name !== 'packer fmt') return UNKNOWN;
  const operands = last.parsed.operands.map((i) => cmd.argv[i]!);
  if (operands.some((w) => is(w, '-'))) return UNKNOWN;
  return { effects: each('read', operands), known: true };
}

/** HashiCorp Packer: its grammar, help, version and the checking `fmt` (see RUNS_PLUGINS). */
export const PACKER_MODULE: ProgramModule = {
  names: ['packer'],
  spec: PACKER_SPEC,
  effects,
  network: () => true,
  oracle: {
    cases: [
      'packer fmt -write=false template.pkr.hcl',
      'packer fmt -check -diff .',
      'packer version',
      'packer --version',
      'packer -help',
      'packer fmt -check .',
      'packer validate -syntax-only .',
    ],
  },
};
