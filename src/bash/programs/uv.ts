import type { Word } from '../types.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed } from './options.js';
import { everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';
import { RUNNERS } from './runners.js';

/**
 * uv's options that every command reads (clap's global arguments), as uv 0.12's `crates/uv-cli/src/lib.rs`
 * declares them (uv is not installed here: its source is the oracle). clap reads no abbreviation.
 */
const GLOBAL =
  'quiet/q verbose/v color= no-color native-tls no-native-tls system-certs no-system-certs offline no-offline ' +
  'no-progress managed-python no-managed-python no-python-downloads allow-python-downloads python-fetch= ' +
  'python-preference= allow-insecure-host= trusted-host= preview no-preview preview-features= preview-feature= ' +
  'isolated show-settings no-installer-metadata directory= project= config-file= no-config no-cache/n ' +
  'no-cache-dir cache-dir= help/h';

/**
 * Global options that move uv to another project or configuration, trust a server's certificate, print the
 * settings (index URLs may carry a password), fetch Python or turn on unreleased behaviour.
 */
const GLOBAL_UNSAFE =
  '--directory --project --config-file --cache-dir --allow-insecure-host --trusted-host --show-settings ' +
  '--allow-python-downloads --python-fetch --python-preference --preview --preview-features --preview-feature';

/** A command that only reads, with its own options (and the global ones) but the unsafe. */
function reads(
  flags: string,
  values: string,
  long: string,
  unsafe: string,
  operands: 'inert' | 'none',
  more: Parameters<typeof readOnly>[2] = {},
): SubcommandSpec {
  const g = grammar({ flags: `qvnh${flags}`, values, long: `${GLOBAL} ${long}`, abbreviate: false });
  return {
    grammar: g,
    readOnly: readOnly(() => everyOptionBut(g, `${GLOBAL_UNSAFE} ${unsafe}`), operands, more),
  };
}

/**
 * The interpreter options of the `uv pip` commands: `--python PATH` runs that program to read its environment,
 * `--target`, `--prefix` and `--path` read another folder.
 */
const PIP_ENV = 'python=/p system no-system target=/t prefix=';
const PIP_ENV_UNSAFE = 'p t --prefix';

/** `uv pip list --outdated` and `uv pip tree --outdated` ask the package index (with the index's credentials). */
const TREE_DISPLAY = 'depth=/d prune= package= no-dedupe invert reverse outdated show-sizes';

/** `uv tree` locks the project (writing uv.lock) but with `--frozen`, which reads uv.lock as it is. */
function frozen(parsed: Parsed, words: readonly Word[]): string | undefined {
  const end = parsed.dashdash ?? words.length;
  const kept = words.slice(1, end).some((w) => w.static && w.value === '--frozen');
  return kept ? undefined : 'uv tree locks the project, writing uv.lock (read-only with --frozen)';
}

/** `uv version` prints the project's version; given a version or `--bump` it writes pyproject.toml and locks. */
function printsVersion(parsed: Parsed): string | undefined {
  return parsed.operands.length > 0 || has(parsed, '--bump')
    ? 'uv version sets the project version'
    : undefined;
}

/** Any word after `--help`: the options are flags automode does not read, as they were before uv had a spec. */
const ANY_FLAGS = grammar({
  flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  long: 'help/h',
  unlistedFlags: /./,
});

/** A command given `--help` (and nothing else) prints its usage and exits; otherwise it does its work. */
const HELP_ONLY: SubcommandSpec = {
  grammar: ANY_FLAGS,
  readOnly: readOnly('h', 'none', {
    check: (parsed) => (has(parsed, 'h') ? undefined : 'uv installs, locks, builds or runs'),
  }),
};

/** The safe global options, at a level that only names a subcommand (`uv -q pip list`); alone it prints usage. */
function level(g: ReturnType<typeof grammar>) {
  return readOnly(() => everyOptionBut(g, GLOBAL_UNSAFE), 'none');
}

function namespace(names: string, own: Record<string, SubcommandSpec>, aliases: Record<string, string> = {}) {
  const subcommands: Record<string, SubcommandSpec> = {};
  for (const name of names.split(' ')) subcommands[name] = own[name] ?? HELP_ONLY;
  const g = grammar({ flags: 'qvnh', long: GLOBAL, abbreviate: false });
  const spec: SubcommandSpec = { grammar: g, readOnly: level(g), subcommands, subcommandAliases: aliases };
  return spec;
}

const PIP = namespace(
  'compile sync install uninstall freeze list show tree check debug',
  {
    list: reads(
      'e',
      'pt',
      `editable/e exclude-editable exclude= format= outdated no-outdated strict no-strict ${PIP_ENV} ` +
        'disable-pip-version-check',
      `${PIP_ENV_UNSAFE} --outdated`,
      'none',
    ),
    freeze: reads(
      '',
      'pt',
      `exclude-editable exclude= strict no-strict path= ${PIP_ENV} disable-pip-version-check`,
      `${PIP_ENV_UNSAFE} --path`,
      'none',
    ),
    show: reads(
      'f',
      'pt',
      `strict no-strict files/f ${PIP_ENV} disable-pip-version-check`,
      PIP_ENV_UNSAFE,
      'inert',
    ),
    tree: reads(
      '',
      'pd',
      `show-version-specifiers ${TREE_DISPLAY} strict no-strict python=/p system no-system disable-pip-version-check`,
      'p --outdated',
      'none',
    ),
    check: reads('', 'p', 'python=/p system no-system python-version= python-platform=', 'p', 'none'),
  },
  { ls: 'list' },
);

const PYTHON = namespace(
  'list install upgrade find pin dir uninstall update-shell',
  {
    // `--python-downloads-json-url` fetches the list of downloads from a server of the command's choosing.
    list: reads(
      '',
      '',
      'all-versions all-platforms all-arches all_architectures only-installed only-downloads show-urls ' +
        'output-format= python-downloads-json-url=',
      '--python-downloads-json-url',
      'inert',
      { maxOperands: 1 },
    ),
    find: reads(
      '',
      '',
      'no-project no_workspace system no-system script= show-version resolve-links python-downloads-json-url=',
      '--script --python-downloads-json-url',
      'inert',
      { maxOperands: 1 },
    ),
    dir: reads('', '', 'bin', '', 'none'),
  },
  { ls: 'list', ensurepath: 'update-shell' },
);

const TOOL = namespace(
  'run uvx install upgrade list audit uninstall update-shell dir',
  {
    list: reads(
      '',
      '',
      'show-paths show-version-specifiers show-with show-extras show-python outdated no-outdated',
      '--outdated',
      'none',
    ),
    dir: reads('', '', 'bin', '', 'none'),
  },
  { ls: 'list', update: 'upgrade', ensurepath: 'update-shell' },
);

const CACHE = namespace('clean prune dir size', { dir: reads('', '', '', '', 'none') }, { clear: 'clean' });

const COMMANDS =
  'auth run init add remove version sync lock upgrade export tree format check audit tool python pip venv build ' +
  'publish workspace build-backend cache self clean generate-shell-completion help';

const TOP = grammar({ flags: 'qvnhV', long: `${GLOBAL} version/V`, abbreviate: false });

const spec: ProgramSpec = {
  name: 'uv',
  grammar: TOP,
  // `uv --help` and `uv --version` print and exit (bare `uv` prints its usage too).
  readOnly: level(TOP),
  subcommands: {
    ...Object.fromEntries(COMMANDS.split(' ').map((name) => [name, HELP_ONLY])),
    auth: namespace('login logout token dir helper', {}),
    workspace: namespace('metadata dir list', {}),
    self: namespace('update version', {}),
    pip: PIP,
    python: PYTHON,
    tool: TOOL,
    cache: CACHE,
    help: reads('', '', 'no-pager', '', 'inert'),
    version: reads(
      '',
      'p',
      'bump= dry-run short output-format= no-sync active no-active locked frozen package= python=/p',
      '--dry-run --no-sync --active p',
      'inert',
      { check: printsVersion },
    ),
    tree: reads(
      '',
      'pd',
      `universal format= ${TREE_DISPLAY} locked frozen python-version= python-platform= python=/p ` +
        'dev no-dev only-dev group= no-group= no-default-groups only-group= all-groups',
      'p --outdated',
      'none',
      { check: frozen },
    ),
  },
  subcommandAliases: { virtualenv: 'venv', v: 'venv' },
};

/**
 * uv: its usage and version, `uv help`, `uv version` without a new version, what is installed in an
 * environment (`uv pip list/freeze/show/tree/check`), the locked dependency tree (`uv tree --frozen`), the
 * Pythons and tools it knows of and its own folders. It runs the environment's interpreter to read it: the policy
 * asks where the project's `.venv` holds an interpreter of its own (see `projectInterpreter`). `uv run` wraps a
 * command (the runner's handler); sync, lock, add, install and the rest stay asked.
 */
export const UV_MODULE: ProgramModule = {
  names: ['uv'],
  spec,
  nested: RUNNERS.uv!,
  // uv is not installed on this machine or in CI: these run where it is.
  oracle: {
    cases: [
      'uv --help',
      'uv help pip',
      'uv version --short',
      'uv pip list',
      'uv pip list --format json',
      'uv pip freeze --exclude-editable',
      'uv pip show -f requests',
      'uv pip tree -d 2',
      'uv pip check',
      'uv tree --frozen --depth 1',
      'uv tree --frozen --universal',
      'uv python list --only-installed',
      'uv python find',
      'uv python dir',
      'uv cache dir',
      'uv tool dir --bin',
      'uv tool list --show-paths',
      'uv sync --help',
    ],
  },
};
