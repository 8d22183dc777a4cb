import type { Word } from '../types.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { NPM_CONFIG } from './npm.js';
import { grammar, optionsNamed, type Parsed } from './options.js';
import { type ConfigCommand, configEffects, packageManager } from './package-managers.js';
import { everyOption, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

/**
 * Options every read command takes, as `pnpm <command> --help` lists them (pnpm 10.34). Not `--dir` (another
 * project), `--global-dir` (another folder read), `--changed-files-ignore-pattern` and `--test-pattern` (only
 * with a `[<since>]` filter, which runs git). pnpm reads any config key as an option (`--registry`,
 * `--pnpmfile`): an option not listed makes the command unknown, and abbreviations are not read.
 */
const COMMON =
  'color no-color aggregate-output loglevel= stream use-stderr recursive/r workspace-root/w filter=/F ' +
  'filter-prod= fail-if-no-match help/h';

/** A read command's grammar: its own options and the common ones. */
function readLevel(flags: string, long: string, operands: 'inert' | 'none', check?: Check): SubcommandSpec {
  const g = grammar({ flags: `rwh${flags}`, values: 'F', long: `${COMMON} ${long}`, abbreviate: false });
  const all = (parsed: Parsed, words: readonly Word[]) => sinceFilter(parsed) ?? check?.(parsed, words);
  return { grammar: g, readOnly: readOnly(() => everyOption(g), operands, { check: all }) };
}

type Check = (parsed: Parsed, words: readonly Word[]) => string | undefined;

/** A filter selecting what changed since a commit (`[origin/main]`) runs git diff. */
function sinceFilter(parsed: Parsed): string | undefined {
  const since = [...optionsNamed(parsed, 'F'), ...optionsNamed(parsed, '--filter-prod')].find(
    (option) => !option.value?.static || option.value.value.includes('['),
  );
  return since ? `pnpm --filter ${since.value?.text ?? ''} runs git to find what changed` : undefined;
}

const LIST =
  'depth= dev/D exclude-peers global/g json lockfile-only long no-optional only-projects parseable prod/P';
const list = readLevel('DgP', LIST, 'inert');

const view = readLevel('', 'json', 'inert');

const licensesList = readLevel('DP', 'dev/D json long no-optional prod/P', 'none');

/** `pnpm audit --fix` writes overrides into package.json. */
const READS: Record<string, SubcommandSpec> = {
  list,
  ls: list,
  ll: list,
  la: list,
  why: readLevel(
    'DgP',
    'depth= dev/D exclude-peers global/g json long no-optional parseable prod/P',
    'inert',
  ),
  root: readLevel('g', 'global/g', 'none'),
  outdated: readLevel(
    'DgP',
    'compatible dev/D format= global/g long no-optional no-table prod/P sort-by=',
    'inert',
  ),
  audit: readLevel(
    'DP',
    'audit-level= dev/D ignore= ignore-registry-errors ignore-unfixable json no-optional prod/P',
    'none',
  ),
  help: readLevel('a', 'all/a', 'inert'),
  // pnpm's own registry view (npm's `view` in earlier releases): a package, a version, fields to print.
  view,
  info: view,
  show: view,
  v: view,
  // `licenses list` reads the installed packages' license files (node_modules), never the registry.
  licenses: {
    grammar: grammar({ flags: 'rwh', values: 'F', long: COMMON, abbreviate: false }),
    subcommands: { list: licensesList, ls: licensesList },
  },
};

/**
 * pnpm's options before the subcommand and its read commands; its other subcommands are read by their words.
 * Every pnpm command loads the project's `.pnpmfile.cjs` and may switch to the pnpm release package.json's
 * `packageManager` names: the policy reads those files before a read is allowed.
 */
const spec: ProgramSpec = {
  name: 'pnpm',
  grammar: grammar({ flags: 'r', values: 'CF', long: 'dir=/C filter=/F recursive/r', abbreviate: false }),
  subcommands: READS,
};

const PNPM = grammar({
  flags: 'rwhvD',
  values: 'CF',
  long: 'dir=/C filter=/F recursive/r workspace-root/w help/h version/v',
  unlistedFlags: /./,
});

const PNPM_INSTALLS = new Set([
  'install',
  'i',
  'add',
  'update',
  'up',
  'upgrade',
  'rebuild',
  'rb',
  'link',
  'ln',
  'import',
  'remove',
  'rm',
  'uninstall',
  'un',
]);

/**
 * pnpm's own commands, which it runs before any script of the same name (`pnpm info react` is pnpm's view, not
 * a script `info`): those `pnpm help --all` lists, their aliases, and the npm commands it passes through or
 * answers as not implemented. Not those that run the project's scripts (`test`, `start`, `install-test`,
 * `approve-builds`, `version`, `recursive`), which the script handlers keep.
 */
const PNPM_BUILTIN = new Set(
  (
    'audit bin c cache cat-file cat-index completion config create deploy doctor env fetch find-hash help ' +
    'ignored-builds init la licenses list ll ls outdated pack patch patch-commit patch-remove prune publish root ' +
    'sbom self-update server setup store unlink dislink why view info show v access adduser bugs deprecate ' +
    'dist-tag docs edit find home issues login logout owner ping pkg prefix profile repo s se search set-script ' +
    'star stars team token unpublish unstar whoami xmas'
  ).split(' '),
);

const CONFIG: ConfigCommand = {
  ...NPM_CONFIG,
  config: ['config', 'c'],
  set: [],
  files: (scope) => (scope === 'project' ? ['.npmrc'] : ['~/.config/pnpm/rc', '~/.npmrc']),
};

export const PNPM_MODULE: ProgramModule = {
  names: ['pnpm'],
  spec,
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  nested: packageManager('pnpm', { grammar: PNPM, installs: PNPM_INSTALLS, builtin: PNPM_BUILTIN }),
  relocation: {
    values: ['--dir', '-C', '--filter', '-F', '--filter-prod', '--script-shell', '--node-options'],
    flags: ['--recursive', '-r', '--workspace-root', '-w'],
  },
  // outdated and audit ask the registry; any command may fetch the pnpm release package.json names.
  network: (cmd) => {
    const sub = subcommandOf(spec, cmd);
    return sub !== undefined && Object.hasOwn(READS, sub);
  },
  oracle: {
    cases: [
      'pnpm ls --depth 0',
      'pnpm list --json --long',
      'pnpm why react',
      'pnpm root',
      'pnpm root -g',
      'pnpm help',
      'pnpm config set a b',
      'pnpm config get a',
      'pnpm lint',
      'pnpm -r --filter web run dev',
      'pnpm exec vitest',
      'pnpm list',
      'pnpm licenses list',
      'pnpm licenses ls --json',
      'pnpm info react',
    ],
  },
};
