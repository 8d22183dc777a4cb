import type { CommandView, EffectsResult, FileEffect, Word } from '../types.js';
import { argument, NONE, option, treeWrite, UNKNOWN } from './effect-helpers.js';
import { goFlagGrammar } from './goflag.js';
import type { ProgramModule } from './module.js';
import { grammar, has, operandWords, optionsNamed, type Parsed } from './options.js';
import {
  type ProgramSpec,
  parseCommand,
  type ReadOnlySpec,
  readOnly,
  type SubcommandSpec,
} from './program.js';
import { is, syntheticWord } from './words.js';

/**
 * terraform reads each command's options with Go's flag package (`goflag.ts`), options before the operands only.
 * `-h`, `-help` and `--help` anywhere make any command print its usage and exit (the CLI library reads them
 * before the command runs).
 *
 * The options of the commands modelled, from `terraform COMMAND -help` (Terraform 1.11). `-write` and `-list`
 * are flags that take only an attached value; they are read here as options with a value, and `fmtCheck` sees
 * that the value was attached. The other commands know only `-help`: any other option makes them unknown.
 */
const OPTIONS: Readonly<Record<string, string>> = {
  version: 'json',
  fmt: 'list= write= diff check no-color recursive',
  modules: 'json',
  'metadata functions': 'json',
  'workspace show': '',
  'workspace list': '',
  providers: 'test-directory=',
  'state list': 'state= id=',
  output: 'state= no-color json raw',
  show: 'no-color json',
  'state show': 'state=',
  graph: 'plan= draw-cycles type= module-depth=',
};

/** The files `terraform fmt` formats (Terraform 1.11: configuration, variables, tests and their mocks). */
const FMT_SUFFIXES = ['.tf', '.tfvars', '.tftest.hcl', '.tfmock.hcl'];

/** Whether `-NAME=false` is written, attached as Go's flag package requires of a flag's value. */
function setFalse(parsed: Parsed, words: readonly Word[], name: string): boolean {
  const found = optionsNamed(parsed, name).at(-1);
  return found !== undefined && words[found.index]!.value.endsWith('=false');
}

/**
 * `fmt` rewrites the files it is given unless `-check` or `-write=false` (or stdin, `-`) says otherwise. Every
 * `-write`/`-list` value must be attached and `true` or `false`.
 */
function fmtWrites(parsed: Parsed, words: readonly Word[]): string | undefined {
  const values = fmtValues(parsed, words);
  if (values) return values;
  if (has(parsed, 'check') || setFalse(parsed, words, 'write')) return undefined;
  return 'terraform fmt rewrites the files it formats without -check or -write=false';
}

function fmtValues(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const found of optionsNamed(parsed, 'write', 'list')) {
    if (!/^--?(write|list)=(true|false)$/.test(words[found.index]!.value))
      return 'terraform fmt reads -write and -list only as -NAME=true or -NAME=false';
  }
  return undefined;
}

/**
 * Local reads, the same for everyone: the version (Terraform asks checkpoint-api.hashicorp.com whether a newer
 * release exists and keeps the anonymous id it sends in ~/.terraform.d/checkpoint_signature), a formatting check,
 * the modules the configuration declares, the built-in functions, the selected workspace. Not `validate`,
 * `graph`, `console`, `test`, `show` or `state show`: they start the provider plugins installed under .terraform
 * (programs the command line does not show) to read their schemas.
 */
const LOCAL: Readonly<Record<string, ReadOnlySpec>> = {
  version: readOnly('json', 'none'),
  fmt: readOnly('list write diff check no-color recursive', 'files', { check: fmtWrites }),
  modules: readOnly('json', 'none'),
  'metadata functions': readOnly('json', 'none'),
  'workspace show': readOnly('', 'none'),
};

/**
 * Reads of the configured backend's state (remote state for most teams): the resource addresses, the outputs
 * with sensitive ones shown as `<sensitive>`, the workspaces, the providers the configuration and state need.
 * Not `output NAME` (it prints a sensitive output's value), `output -json`/`-raw` (every value in clear), nor
 * `state pull` (the whole state, secrets included).
 */
const SERVICE: Readonly<Record<string, ReadOnlySpec>> = {
  'state list': readOnly('state id', 'inert'),
  output: readOnly('state no-color', 'none'),
  'workspace list': readOnly('', 'none'),
  providers: readOnly('test-directory', 'none'),
};

const HELP_ONLY: ReadOnlySpec = readOnly('help', 'inert', {
  check: (parsed) => (has(parsed, 'help') ? undefined : 'only -help prints and exits'),
});

function level(path: string): SubcommandSpec {
  const local = LOCAL[path];
  const service = SERVICE[path];
  const withHelp = (spec: ReadOnlySpec): ReadOnlySpec => ({
    ...spec,
    options: new Set([...spec.options, 'help']),
    check: (parsed, words) => (has(parsed, 'help') ? undefined : spec.check?.(parsed, words)),
  });
  return {
    grammar: goFlagGrammar(OPTIONS[path] ?? ''),
    permute: false,
    readOnly: local ? withHelp(local) : HELP_ONLY,
    ...(service ? { serviceRead: withHelp(service) } : {}),
  };
}

const GROUPS: Readonly<Record<string, string>> = {
  metadata: 'functions',
  providers: 'lock mirror schema',
  state: 'list mv pull push replace-provider rm show',
  workspace: 'delete list new select show',
};

function tree(): Record<string, SubcommandSpec> {
  const top =
    'apply console destroy fmt force-unlock get graph import init login logout modules output plan refresh show taint test untaint validate version';
  const root: Record<string, SubcommandSpec> = {};
  for (const name of top.split(' ')) root[name] = level(name);
  for (const [name, subs] of Object.entries(GROUPS)) {
    const subcommands: Record<string, SubcommandSpec> = {};
    for (const sub of subs.split(' ')) subcommands[sub] = level(`${name} ${sub}`);
    root[name] = { ...level(name), subcommands };
  }
  return root;
}

let commands: Record<string, SubcommandSpec> | undefined;

/** `terraform -version` and `-v` are `terraform version`; `-chdir=DIR` moves every command elsewhere (not read). */
export const TERRAFORM_SPEC: ProgramSpec = {
  name: 'terraform',
  grammar: grammar({
    words: '-chdir=/chdir -help/help --help/help -h/help -version/version --version/version -v/version',
    abbreviate: false,
  }),
  readOnly: readOnly('help version', 'none', {
    check: (parsed) => (has(parsed, 'help', 'version') ? undefined : 'terraform without a command'),
  }),
  permute: false,
  get subcommands() {
    commands ??= tree();
    return commands;
  },
};

const KNOWN = new Set([...Object.keys(LOCAL), ...Object.keys(SERVICE)]);

/**
 * The files a terraform command reads here besides its own configuration, state and .terraform folder (which
 * it reads to do its job): `-state=FILE`, and the files and folders `fmt` checks. What the other commands touch
 * (plans, state written, providers installed) is not listed.
 */
function terraformEffects(cmd: CommandView): EffectsResult {
  const parsed = parseCommand(TERRAFORM_SPEC, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
  if (has(parsed.levels[0]!.parsed, 'chdir')) return UNKNOWN;
  const last = parsed.levels.at(-1)!;
  if (parsed.levels.some((found) => has(found.parsed, 'help'))) return NONE;
  if (parsed.levels.length === 1) return has(last.parsed, 'version') ? NONE : UNKNOWN;
  const path = last.name.split(' ').slice(1).join(' ');
  if (!KNOWN.has(path)) return UNKNOWN;
  const effects: FileEffect[] = optionsNamed(last.parsed, 'state').map((found) =>
    option('read', found.value!),
  );
  if (path === 'fmt') {
    if (fmtValues(last.parsed, cmd.argv)) return UNKNOWN;
    const writes = fmtWrites(last.parsed, cmd.argv) !== undefined;
    const operands = operandWords(cmd.argv, last.parsed).filter((word) => !is(word, '-'));
    if (operands.length === 0 && last.parsed.operands.length === 0)
      operands.push(syntheticWord('.', cmd.argv[last.index]!.span));
    effects.push(...operands.map((word) => argument('read', word)));
    // Without -check it rewrites each file it formats: the ones named, and those the folders hold.
    const names = {
      kind: 'matching' as const,
      suffixes: FMT_SUFFIXES,
      recursive: has(last.parsed, 'recursive'),
    };
    if (writes) effects.push(...operands.map((word) => treeWrite(word, 'argument', names)));
  }
  return { effects, known: true };
}

export const TERRAFORM: ProgramModule = {
  names: ['terraform'],
  spec: TERRAFORM_SPEC,
  effects: terraformEffects,
  // Every command starts Terraform's update check (checkpoint-api.hashicorp.com) unless the CLI configuration or
  // CHECKPOINT_DISABLE turns it off; most of its remote state backends are a service too.
  network: () => true,
  oracle: {
    cases: [
      'terraform version',
      'terraform -version',
      'terraform version -json',
      'terraform fmt -check',
      'terraform fmt -check -diff -recursive .',
      'terraform fmt -write=false -list=true',
      'terraform fmt -diff',
      'terraform fmt -write false',
      'terraform modules -json',
      'terraform metadata functions -json',
      'terraform workspace show',
      'terraform plan -help',
      'terraform state list -state=terraform.tfstate',
      'terraform output -state=terraform.tfstate',
      'terraform output -state=.env',
      'terraform fmt -check -diff .env',
    ],
  },
};
