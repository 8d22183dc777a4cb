import type { CommandView, NestedSpec, Word } from '../types.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { grammar, has, optionsNamed, type Parsed, parseOptions } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';
import { runnerSubcommands } from './runners.js';
import { codeIn } from './specs.js';

/**
 * cargo's options that every command reads (clap's global arguments), as `cargo help <command>` lists them
 * (cargo 1.95). clap reads no abbreviation of a long option.
 */
const GLOBAL = 'verbose/v quiet/q color= config= locked offline frozen help/h';

/**
 * `--config` sets any configuration value (`build.rustc-wrapper` is a program cargo runs), `-Z` turns on
 * unstable behaviour, `--manifest-path` reads another project's manifest (and a parse error quotes the file).
 */
const UNSAFE = '--config Z --manifest-path';

/** A command's grammar: its own options and the global ones. */
function commandGrammar(flags: string, values: string, long: string) {
  return grammar({
    flags: `vqh${flags}`,
    values: `Z${values}`,
    long: `${GLOBAL} ${long}`,
    abbreviate: false,
  });
}

/** A command that only reads the manifest, the lock file or cargo's own tables, with every option but the unsafe. */
function reads(
  flags: string,
  values: string,
  long: string,
  operands: 'inert' | 'none',
  more: Parameters<typeof readOnly>[2] = {},
): SubcommandSpec {
  const g = commandGrammar(flags, values, long);
  return { grammar: g, readOnly: readOnly(() => everyOptionBut(g, UNSAFE), operands, more) };
}

/**
 * `cargo tree` and `cargo metadata` resolve the dependency graph: where Cargo.lock is missing or out of date they
 * write it (and fetch the index). `--locked` and `--frozen` make cargo stop with an error instead.
 */
function lockKept(what: string) {
  return (parsed: Parsed, words: readonly Word[]): string | undefined => {
    // Global options: `cargo --locked tree` as `cargo tree --locked` (clap takes no `--`-word as a value).
    const end = parsed.dashdash ?? words.length;
    const kept = words
      .slice(1, end)
      .some((w) => w.static && (w.value === '--locked' || w.value === '--frozen'));
    return kept || (what === 'cargo metadata' && has(parsed, '--no-deps'))
      ? undefined
      : `${what} writes Cargo.lock when it is missing or out of date (read-only with --locked or --frozen)`;
  };
}

/** `cargo search` asks crates.io; another index or registry is a server of the command's choosing. */
const SEARCH_UNSAFE = `${UNSAFE} --index --registry`;

/**
 * cargo's own commands and aliases (`cargo --list`). `clippy`, `fmt` and `miri` are rustup's programs that cargo
 * runs as external commands (`cargo-clippy`), as it runs any `cargo-NAME` on the PATH.
 */
const BUILTIN =
  'add bench build check clean config doc fetch fix generate-lockfile help info init install locate-project ' +
  'login logout metadata new owner package pkgid publish read-manifest remove report run rustc rustdoc search ' +
  'test tree uninstall update vendor verify-project version yank';
const ALIASES: Record<string, string> = {
  b: 'build',
  c: 'check',
  d: 'doc',
  r: 'run',
  t: 'test',
  rm: 'remove',
};
const EXTERNAL = 'clippy fmt miri';

/** `cargo help NAME` shows a built-in command's manual; for any other name it runs the program `cargo-NAME`. */
function helpOperand(parsed: Parsed, words: readonly Word[]): string | undefined {
  const at = parsed.operands[0];
  if (at === undefined) return undefined;
  const word = words[at]!;
  const known =
    word.static && (BUILTIN.split(' ').includes(word.value) || Object.hasOwn(ALIASES, word.value));
  return known
    ? undefined
    : `cargo help ${word.text} runs the program cargo-${word.text} when it is not cargo's own`;
}

/** A crate by name and version: a spec with a URL or `path+file://` reads a repository or folder elsewhere. */
function crateName(parsed: Parsed, words: readonly Word[]): string | undefined {
  const at = parsed.operands[0];
  const word = at === undefined ? undefined : words[at];
  if (word?.static && /^[A-Za-z0-9_-]+(?:@[\w.^~<>=*+-]+)?$/.test(word.value)) return undefined;
  return `cargo info ${word?.text ?? ''} is not a crate by name: cargo may fetch or read it elsewhere`;
}

const READS: Record<string, SubcommandSpec> = {
  tree: reads(
    'eidf',
    'pF',
    'edges=/e invert/i prune= depth= prefix= no-dedupe duplicates/d charset= format=/f package/p workspace ' +
      'exclude= features=/F all-features no-default-features target manifest-path=',
    'inert',
    { check: lockKept('cargo tree') },
  ),
  metadata: reads(
    '',
    'F',
    'filter-platform= no-deps format-version= features=/F all-features no-default-features manifest-path=',
    'none',
    { check: lockKept('cargo metadata') },
  ),
  'locate-project': reads('', '', 'workspace message-format= manifest-path=', 'none'),
  // `cargo pkgid` reads the lock file as it is (it stops when there is none).
  pkgid: reads('p', '', 'package/p manifest-path=', 'inert', { maxOperands: 1 }),
  'verify-project': reads('', '', 'manifest-path=', 'none'),
  'read-manifest': reads('', '', 'manifest-path=', 'none'),
  version: reads('', '', '', 'none'),
  help: reads('', '', '', 'inert', { maxOperands: 1, check: helpOperand }),
  // `cargo info NAME` asks crates.io (a workspace member's own manifest is read instead); it keeps Cargo.lock.
  info: (() => {
    const g = commandGrammar('', '', 'index= registry=');
    return {
      grammar: g,
      readOnly: readOnly(() => everyOptionBut(g, SEARCH_UNSAFE), 'inert', {
        maxOperands: 1,
        check: crateName,
      }),
    };
  })(),
  search: (() => {
    const g = commandGrammar('', '', 'limit= index= registry=');
    return { grammar: g, readOnly: readOnly(() => everyOptionBut(g, SEARCH_UNSAFE), 'inert') };
  })(),
};

/**
 * The options of the commands that do their work, read as flags: automode does not know their words, and a rule
 * naming the command vouches for them as it always did.
 */
const ANY_FLAGS = grammar({
  flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  long: 'help/h',
  unlistedFlags: /./,
});

/** A built-in command given `--help` (and nothing else) prints its usage and exits; otherwise it does its work. */
const HELP_ONLY: SubcommandSpec = {
  grammar: ANY_FLAGS,
  readOnly: readOnly('h', 'none', {
    check: (parsed) => (has(parsed, 'h') ? undefined : 'cargo builds, runs or changes the project'),
  }),
};

/** cargo's external commands: `cargo clippy --help` is cargo-clippy's to answer. */
const UNMODELLED: SubcommandSpec = { grammar: ANY_FLAGS };

const subcommands: Record<string, SubcommandSpec> = {};
for (const name of BUILTIN.split(' ')) subcommands[name] = READS[name] ?? HELP_ONLY;
for (const name of EXTERNAL.split(' ')) subcommands[name] = UNMODELLED;

/**
 * cargo: `--version`, `--list` and its usage, and the commands that read the manifest and lock file without
 * building anything (build scripts and proc macros are the project's code: `check`, `build`, `clippy`, `test`
 * run them). Options from cargo 1.95's `--help` and `cargo help <command>`.
 */
const spec: ProgramSpec = {
  name: 'cargo',
  grammar: grammar({
    flags: 'qvVh',
    values: 'CZ',
    long: 'manifest-path= quiet/q verbose/v locked offline frozen config= color= list explain= version/V help/h',
    abbreviate: false,
  }),
  // `--explain` runs rustc (through a configured wrapper); `-C` changes to another project (nightly).
  readOnly: readOnly('q v V h --locked --offline --frozen --color --list', 'none'),
  subcommands,
  subcommandAliases: ALIASES,
};

/** cargo's options before the subcommand, as the runner reads them; unlisted ones are flags. */
const CARGO = grammar({
  flags: 'qvVh',
  values: 'CZ',
  long: 'config= color= list explain= locked offline frozen quiet/q verbose/v version/V help/h',
  unlistedFlags: /./,
});

const RUNS = 'run r test t bench build b check c clippy doc d install fix miri';
const INERT =
  'fmt metadata tree search add remove rm update new init clean login logout owner package publish uninstall ' +
  'vendor locate-project pkgid fetch generate-lockfile help version yank report verify-project read-manifest info';

function cargo(cmd: CommandView): NestedSpec[] {
  const parsed = parseOptions(cmd.argv, 1, CARGO, { unknown: 'flag' });
  // `--config KEY=VALUE` sets any configuration value, among them programs cargo runs.
  const config = parsed.ok
    ? optionsNamed(parsed, '--config').map((option) =>
        codeIn('environment', 'cargo', '--config', option.value!),
      )
    : [];
  const run = runnerSubcommands(CARGO, { run: RUNS.split(' '), inert: INERT.split(' '), other: 'run' })(cmd);
  return [...config, ...run];
}

export const CARGO_MODULE: ProgramModule = {
  names: ['cargo'],
  spec,
  nested: cargo,
  relocation: { values: ['--manifest-path', '-C', '--package', '-p', '--config'], group: 'qv' },
  // search and info ask crates.io; tree, metadata and pkgid may fetch the index for the lock file's packages.
  network: (cmd) => {
    const sub = subcommandOf(spec, cmd);
    return sub === 'search' || sub === 'info' || sub === 'tree' || sub === 'metadata';
  },
  oracle: {
    cases: [
      'cargo version',
      'cargo version -v',
      'cargo --list',
      'cargo help',
      'cargo help tree',
      'cargo build --help',
      'cargo t -h',
      'cargo locate-project --message-format plain',
      'cargo locate-project --workspace',
      'cargo verify-project',
      'cargo read-manifest',
      'cargo pkgid',
      'cargo metadata --no-deps --format-version 1',
      'cargo metadata --locked --format-version 1',
      'cargo tree --locked',
      'cargo tree --frozen -e normal --depth 1 --prefix none',
      'cargo tree --locked -i serde --target all',
      'cargo search --limit 5 serde',
      'cargo info serde',
      'cargo info serde@1.0.0 --offline',
    ],
  },
};
