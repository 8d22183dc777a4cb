import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ANSIBLE_PROGRAMS } from '../../src/bash/programs/ansible.js';
import { lookupLong } from '../../src/bash/programs/options.js';
import type { ProgramSpec } from '../../src/bash/programs/program.js';
import { allProgramSpecs, programSpec } from '../../src/bash/programs/registry.js';

/**
 * The programs are their own oracle: for each spec'd program installed here, the long options its `--help`
 * lists must be the spec's long options (with the value the help shows: `--name=ARG` takes one, `--name[=ARG]`
 * may), and the abbreviations the program accepts must name the same option in the spec.
 */

const ENV = { LC_ALL: 'C', PATH: process.env.PATH ?? '/usr/bin:/bin', POSIXLY_CORRECT: '' };

/** Programs whose help is not where their long options are listed, and what to run instead. */
const HELP_ARGS: Record<string, string[]> = { ps: ['--help', 'all'], curl: ['--help', 'all'] };

/**
 * Programs left out, and why: builtins are bash's (checked by bash's `help`, not here), the others list no
 * long options in their help or are a different program under the same name on this machine.
 */
const NOT_GNU: Record<string, string> = {
  echo: 'bash builtin',
  printf: 'bash builtin',
  true: 'bash builtin',
  false: 'bash builtin',
  test: 'bash builtin',
  '[': 'bash builtin',
  cd: 'bash builtin',
  pwd: 'bash builtin',
  type: 'bash builtin',
  command: 'bash builtin',
  hash: 'bash builtin',
  git: 'has its own oracle (subcommand specs)',
  find: 'expression primaries, no long options',
  xxd: 'whole-word options, no long options',
  which: 'no long options',
  jq: 'jq 1.6 help lists only some options',
  yq: 'the spec is mikefarah yq; python-yq may be installed under the same name',
  tree: 'no long options in getopt style',
  rg: 'ripgrep lists options in its own format',
  mkfs: 'a front end: the options after -t belong to the file system builder',
  docker: 'every command is checked against its own --help in programs/docker.test.ts',
  npm: 'options before the subcommand only; subcommands are read by their words',
  pnpm: 'options before the subcommand only; subcommands are read by their words',
  yarn: 'options before the subcommand only; subcommands are read by their words',
  cargo: 'options before the subcommand only; subcommands are read by their words',
  kubectl: 'every command is checked against its own --help in programs/kubectl.test.ts',
  helm: 'options before the subcommand only; subcommands are read by their words',
  terraform: 'options before the subcommand only; subcommands are read by their words',
  packer: 'options before the subcommand only; subcommands are read by their words',
  gh: 'options before the subcommand only; subcommands are read by their words',
  aws: "every read operation is checked against the installed aws-cli's own tables in programs/aws.test.ts",
  gcloud: 'options before the subcommand only; subcommands are read by their words',
  az: 'options before the subcommand only; subcommands are read by their words',
  mawk: 'mawk reads -W options',
  nawk: 'one true awk has no long options',
  sqlite3: 'whole-word options, checked against `sqlite3 -help` in programs/sqlite3.test.ts',
  duckdb: 'whole-word options, from its manual (programs/duckdb.ts)',
  mysql: "MySQL 8.0's client, from its manual; MariaDB's client of the same name reads other options",
  '7z': 'switches with attached values, checked against `7z --help` in programs/seven-zip.test.ts',
  '7za': 'switches with attached values, checked against `7z --help` in programs/seven-zip.test.ts',
  '7zr': 'switches with attached values, checked against `7z --help` in programs/seven-zip.test.ts',
  '7zz': 'switches with attached values, checked against `7z --help` in programs/seven-zip.test.ts',
};

const NEWER_FZF = (
  'ignore-case no-ignore-case smart-case no-tty-default highlight-line no-highlight-line multi-line ' +
  'no-multi-line raw no-raw track no-track no-tail no-gap no-input ambidouble bash zsh fish nushell no-wrap ' +
  'wrap-word no-wrap-word no-preview-border no-header-border no-footer-border no-header-lines-border ' +
  'no-header-label no-footer-label no-id-nth accept-nth tail style wrap-sign preview-wrap-sign footer ' +
  'footer-label footer-label-pos header-label header-label-pos id-nth ghost gutter gutter-raw ' +
  'marker-multi-line freeze-left freeze-right list-label list-label-pos input-label input-label-pos wrap gap ' +
  'gap-line preview-border header-border header-lines-border footer-border list-border input-border'
).split(' ');

const FD_UNLISTED = [
  'no-require-git',
  'require-git',
  'ignore-parent',
  'no-global-ignore-file',
  'literal',
  'exact',
  'dereference',
  'maxdepth',
  'mindepth',
  'format',
  'hyperlink',
  'hyper',
  'ignore-contain',
  'max-buffer-time',
  'mount',
  'xdev',
  'gen-completions',
];

/**
 * Long options the help does not list: other versions' options (the spec holds every version's, so that an
 * abbreviation never names an option the spec lacks), aliases the help leaves out, families the help writes
 * as one entry (`--LTYPE-line-format`).
 */
const NOT_IN_HELP: Record<string, string[]> = {
  hostname: ['long', 'nis', 'file'],
  ps: ['help', 'forest', 'info', 'sort', 'quick-pid', 'deselect', 'format', 'Group', 'User', 'pid', 'ppid'],
  wc: ['total'],
  // argparse options ansible-inventory declares only to refuse them, with their help suppressed.
  'ansible-inventory': ['list-hosts', 'limit'],
  pip: ['resume-retries'],
  pip3: ['resume-retries'],
  cp: ['debug', 'keep-directory-symlink'],
  mv: ['debug', 'exchange', 'no-copy'],
  sed: ['zero-terminated', 'binary'],
  column: ['columns'],
  grep: ['no-line-number'],
  egrep: ['no-line-number'],
  fgrep: ['no-line-number'],
  cksum: ['base64', 'raw'],
  awk: ['csv'],
  gawk: ['csv'],
  // fd 8.6's hidden options and aliases (clap's `hide`), and those fd 9 and 10 added.
  fd: FD_UNLISTED,
  fdfind: FD_UNLISTED,
  // fzf's parser reads the negations and older spellings its help leaves out.
  fzf: [
    'help',
    'extended-exact',
    'no-exact',
    'no-literal',
    'algo',
    'no-expect',
    'enabled',
    'no-phony',
    'phony',
    'toggle-sort',
    'sort',
    'no-tac',
    'no-multi',
    'no-ansi',
    'no-color',
    'no-256',
    'black',
    'no-black',
    'bold',
    'reverse',
    'no-reverse',
    'no-cycle',
    'no-keep-right',
    'hscroll',
    'no-filepath-word',
    'no-info',
    'no-inline-info',
    'no-select-1',
    'no-exit-0',
    'no-read0',
    'no-print0',
    'no-print-query',
    'no-sync',
    'async',
    'no-history',
    'no-header',
    'no-header-lines',
    'no-header-first',
    'no-preview',
    'no-height',
    'no-margin',
    'no-padding',
    'no-border',
    'no-border-label',
    'no-preview-label',
    'no-unicode',
    'unicode',
    'no-listen',
    'clear',
    'no-clear',
    // Those a later fzf added (its src/options.go): display, matching and output options only.
    ...NEWER_FZF,
  ],
  diff: [
    'old-line-format',
    'new-line-format',
    'unchanged-line-format',
    'old-group-format',
    'new-group-format',
    'unchanged-group-format',
    'changed-group-format',
  ],
};

/** What the help writes that is not an option of the program. */
const NOT_OPTIONS: Record<string, string[]> = {
  diff: ['GTYPE-group-format', 'LTYPE-line-format'],
  // --disable-pip-version-check's description: "Implied with --no-index", an option of the index commands.
  pip: ['no-index'],
  pip3: ['no-index'],
  // install-hooks' description: "make `pre-commit install --install-hooks` more useful", an option of install.
  'pre-commit': ['install-hooks'],
  // Descriptions: "--metadata-" wrapped before "dump"; ansible-pull's "the --remote flag to git".
  'ansible-doc': ['metadata-'],
  'ansible-pull': ['remote'],
};

/**
 * Options whose value the help shows in a form this test reads otherwise. clap writes a value as `--exclude
 * <pattern>`, and fd's help examples write `--exclude=…` beside it: not an optional value. fzf takes `--color`'s
 * value from the next word only when it starts with neither `-` nor `+`: the spec reads it attached only, so a word
 * after it is an operand (never read-only) rather than an option taken for a value.
 */
const FD_VALUES = ['exclude', 'threads', 'max-results'];
const OWN_ARITY: Record<string, string[]> = { fd: FD_VALUES, fdfind: FD_VALUES, fzf: ['color'] };

function installed(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v -- '${program}'`], { env: ENV }).status === 0;
}

/** ansible-core's programs refuse to start without a UTF-8 locale. */
const UTF8 = new Set(ANSIBLE_PROGRAMS);

function run(program: string, args: string[]): string {
  const env = UTF8.has(program) ? { ...ENV, LC_ALL: 'C.UTF-8' } : ENV;
  const result = spawnSync(program, args, { env, input: '', timeout: 20_000, encoding: 'utf8' });
  return `${result.stdout ?? ''}${result.stderr ?? ''}`;
}

/**
 * `--name` → '' (flag), '=' (value) or '?' (optional value), as the help shows it: `--name[=ARG]`, or an entry
 * `--name` beside another `--name=ARG` (`--check, --check=diagnose-first`).
 */
function helpLongOptions(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const bareEntries = new Set<string>();
  for (const line of text.split('\n')) {
    const entry = /^\s*(?:-\S+,?\s+)*--([A-Za-z0-9][\w-]*(?:\.\d+)*)(?:,|\s|$)/.exec(line);
    if (entry) bareEntries.add(entry[1]!);
  }
  for (const match of text.matchAll(/(?<![\w-])--([A-Za-z0-9][\w-]*(?:\.\d+)*)(\[=[^\]\s]*\]|=\S*)?/g)) {
    const arity = match[2] ? (match[2].startsWith('[') ? '?' : '=') : '';
    const before = found.get(match[1]!);
    if (before === undefined || before === '' || arity === '?') found.set(match[1]!, arity || (before ?? ''));
  }
  for (const [name, arity] of found) if (arity === '=' && bareEntries.has(name)) found.set(name, '?');
  return found;
}

function specLongOptions(spec: ProgramSpec): Map<string, string> {
  const found = new Map<string, string>();
  for (const [name, named] of spec.grammar.long) {
    found.set(name, named.arity === 'value' ? '=' : named.arity === 'optional' ? '?' : '');
  }
  return found;
}

const specs = allProgramSpecs().flatMap((spec) =>
  [spec.name, ...(spec.aliases ?? [])].map((name) => ({ name, spec })),
);
const checked = specs.filter(({ name }) => !Object.hasOwn(NOT_GNU, name));
/** `awk` is whichever awk the system chose: its spec is gawk's. */
const otherAwk = installed('awk') && !run('awk', ['--version']).includes('GNU Awk');
const missing = checked
  .filter(({ name }) => !installed(name) || (name === 'awk' && otherAwk))
  .map(({ name }) => (name === 'awk' && otherAwk ? 'awk (not gawk here)' : name));
const present = checked.filter(({ name }) => installed(name) && !(name === 'awk' && otherAwk));

describe(`program specs against the programs' own --help (not installed: ${missing.join(' ') || 'none'})`, () => {
  it.each(present.map(({ name }) => [name]))('%s lists the long options of its spec', (name) => {
    const spec = programSpec(name)!;
    const help = helpLongOptions(run(name, HELP_ARGS[name] ?? ['--help']));
    const own = specLongOptions(spec);
    const notOptions = new Set(NOT_OPTIONS[name] ?? []);
    const notInHelp = new Set(NOT_IN_HELP[name] ?? []);
    const onlyHelp = [...help.keys()].filter((option) => !own.has(option) && !notOptions.has(option));
    const onlySpec = [...own.keys()].filter((option) => !help.has(option) && !notInHelp.has(option));
    expect({ onlyHelp, onlySpec }, name).toEqual({ onlyHelp: [], onlySpec: [] });
    for (const [option, arity] of help) {
      if (arity === '' || !own.has(option) || OWN_ARITY[name]?.includes(option)) continue;
      expect(`--${option}${own.get(option)}`, name).toBe(`--${option}${arity}`);
    }
  });

  it.each(present.map(({ name }) => [name]))('%s reads abbreviations as its spec does', (name) => {
    const spec = programSpec(name)!;
    if (!spec.grammar.long.has('version') || !spec.grammar.abbreviate) return;
    const version = spec.grammar.long.get('version')!.name;
    let shortest = 'version';
    for (let length = 'version'.length - 1; length >= 2; length--) {
      if (lookupLong(spec.grammar, 'version'.slice(0, length))?.name !== version) break;
      shortest = 'version'.slice(0, length);
    }
    const accepted = run(name, [`--${shortest}`]);
    expect(accepted, `${name} --${shortest}`).not.toMatch(/unrecognized|ambiguous|invalid option|illegal/i);
    if (shortest.length > 2) {
      const shorter = `--${shortest.slice(0, -1)}`;
      expect(run(name, [shorter, '--help']), `${name} ${shorter}`).toMatch(/ambiguous|unrecognized|invalid/i);
    }
  });
});
