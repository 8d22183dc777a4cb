import type { Word } from '../types.js';
import { NONE, UNKNOWN } from './effect-helpers.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { type Grammar, grammar, has, lastValue, type Parsed } from './options.js';
import { everyOptionBut, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from './program.js';
import { checkProgram } from './read-only.js';

/**
 * Homebrew, as its own source declares each command's options (github:Homebrew/brew, Library/Homebrew/cmd/*.rb
 * and dev-cmd/*.rb, each command's `cmd_args`; the global switches from cli/parser.rb; the aliases from
 * commands.rb; which commands update first from utils/auto-update.sh). `--all` of `info`, `deps` and `options`
 * is the older spelling of `--eval-all` (earlier releases' cmd/info.rb, cmd/options.rb), read as it. Ruby's OptionParser reads a long option
 * by any prefix, case-insensitively: only exact spellings are read here, so an abbreviation is never read-only.
 *
 * Left out of the read-only commands, and why:
 * - `bundle` (every subcommand), `tap NAME`: brew first runs `brew update --auto-update` (utils/auto-update.sh's
 *   AUTO_UPDATE_COMMANDS), which rewrites its repository, taps and caches from the network; `bundle` also
 *   evaluates the project's Brewfile, which is Ruby. `outdated` updates so too, unless the line sets
 *   `HOMEBREW_NO_AUTO_UPDATE` (`BREW_AUTO_UPDATES`, checked when the command is decided); not `--fetch-HEAD`,
 *   which fetches the HEAD installs' repositories.
 * - `home`, `docs`, `info --github`, `search --debian` and the other package-database switches: open a browser.
 * - `fetch`: downloads packages into Homebrew's cache. `--env` and `config`: print the proxies (`config` every
 *   non-default setting, cmd/config.rb via system_config.rb), credentials in their URLs included: only variables
 *   named like a token or password are masked (extend/ENV/sensitive.rb).
 * - `shellenv`: on macOS 14 and later writes `$HOMEBREW_PREFIX/etc/paths` when it is missing (cmd/shellenv.sh).
 * - `deps --brewfile`: evaluates a Brewfile. Operands that name a file (`x.rb`, `x.json`, a bottle, a path or a
 *   URL): brew evaluates the formula or cask code in it. `cat` and `log` read any existing name with a dot as a
 *   path (`cat`) or run git in its folder (`log`): their names carry no dot.
 *
 * Formulae and casks named by name are read from Homebrew's API data or the taps the user installed: brew
 * reading its own installed data, as a program reads its plugins. External commands (`brew foo` from a tap or
 * PATH) run their own code, and `brew help foo` defers to it: only internal commands are known.
 */

const GLOBAL = 'debug/d quiet/q verbose/v help/h';
const SHORT = 'dqvh';

/** A formula or cask by name, a version after `@` (`python@3.11`): never a file, path, URL or tap. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9+_-]*(@\d+(\.\d+)*)?$/;
/** The same without a dot: `cat` and `log` read a name holding a dot as a path when it exists. */
const BARE_NAME = /^[A-Za-z0-9][A-Za-z0-9+_-]*(@\d+)?$/;
const TAP = /^[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+$/;

/** Internal commands (cmd/ and dev-cmd/), and their aliases: `brew help NAME` prints their usage. */
const INTERNAL = new Set(
  (
    '--cache --caskroom --cellar --env --prefix --repository --taps --version advisory-match alias analytics ' +
    'as-console-user audit autoremove benchmark bottle bump bump-cask-pr bump-compatibility-version ' +
    'bump-formula-pr bump-revision bump-unversioned-casks bundle casks cat cleanup command ' +
    'command-not-found-init commands completions config contributions create debugger deps desc ' +
    'determine-test-runners developer dispatch-build-bottle docs doctor edit exec extract fetch formula ' +
    'formula-analytics formulae generate-advisories-api generate-analytics-api generate-cask-api ' +
    'generate-cask-ci-matrix generate-formula-api generate-internal-api generate-man-completions ' +
    'generate-vulns-advisories generate-zap gist-logs help home info install install-bundler-gems irb leaves ' +
    'lgtm link linkage list livecheck log mcp-server migrate missing nodenv-sync options outdated pin ' +
    'postinstall pr-automerge pr-publish pr-pull pr-upload prof pyenv-sync rbenv-sync readall reinstall ' +
    'release rubocop ruby rubydoc sandbox-exec search services setup-ruby sh shellenv source style tab tap ' +
    'tap-info tap-new test test-bot tests trust typecheck unalias unbottled uninstall unlink unpack unpin ' +
    'untap untrust update update-if-needed update-license-data update-maintainers update-perl-resources ' +
    'update-portable-ruby update-python-resources update-report update-reset update-sponsors update-test ' +
    'upgrade uses vendor-gems vendor-install verify version-install vulns which-formula which-update ' +
    'ls homepage -S up ln instal uninstal post_install rm remove abv dr --repo environment --config -v lc tc x'
  ).split(' '),
);

type OperandCheck = (word: Word, parsed: Parsed) => string | undefined;

function operandsAre(check: OperandCheck, max?: number) {
  return (parsed: Parsed, words: readonly Word[]): string | undefined => {
    if (max !== undefined && parsed.operands.length > max) return `brew with ${parsed.operands.length} names`;
    for (const index of parsed.operands) {
      const word = words[index]!;
      if (!word.static) return `brew ${word.text} is only known at run time`;
      const problem = check(word, parsed);
      if (problem) return problem;
    }
    return undefined;
  };
}

const named: OperandCheck = (word) =>
  NAME.test(word.value) ? undefined : `brew reads ${word.text} as a file, path or URL whose code it runs`;
const bareNamed: OperandCheck = (word) =>
  BARE_NAME.test(word.value) ? undefined : `brew reads ${word.text} as a path`;
const tapNamed: OperandCheck = (word) =>
  TAP.test(word.value) ? undefined : `${word.text} is not a tap name`;
const anyText: OperandCheck = () => undefined;

interface Level {
  flags?: string;
  values?: string;
  optional?: string;
  long?: string;
  /** Options (by reported name) that are not read-only. */
  unsafe?: string;
  operands?: 'none' | OperandCheck;
  max?: number;
  why?: Record<string, string>;
  /** A further condition on the options. */
  check?: (parsed: Parsed) => string | undefined;
}

/** One command's level: its own options and the global ones, the unsafe ones left out of the allow-list. */
function command(level: Level): SubcommandSpec {
  const g: Grammar = grammar({
    flags: `${SHORT}${level.flags ?? ''}`,
    values: level.values ?? '',
    optional: level.optional ?? '',
    long: `${GLOBAL} ${level.long ?? ''}`,
    abbreviate: false,
  });
  const operands =
    level.operands === 'none' || !level.operands ? undefined : operandsAre(level.operands, level.max);
  const options = level.check;
  const check = (parsed: Parsed, words: readonly Word[]): string | undefined =>
    options?.(parsed) ?? operands?.(parsed, words);
  return {
    grammar: g,
    readOnly: readOnly(
      () => everyOptionBut(g, level.unsafe ?? ''),
      level.operands === 'none' ? 'none' : 'inert',
      {
        check,
        ...(level.why ? { why: level.why } : {}),
      },
    ),
  };
}

/** `brew CMD --help` (or `-h`) prints CMD's usage whatever else is given: only that form is known. */
const HELP_ONLY: SubcommandSpec = {
  grammar: grammar({ flags: 'h', long: 'help/h', abbreviate: false }),
  readOnly: readOnly('h', 'none', {
    check: (parsed) => (has(parsed, 'h') ? undefined : 'only brew --help is known for this command'),
  }),
};

/** Commands that change what is installed, its taps or settings, run code or print credentials: only their help is read-only. */
const WRITING =
  'install reinstall upgrade uninstall update update-reset untap link unlink pin unpin cleanup autoremove ' +
  'migrate postinstall edit create gist-logs services bundle developer readall audit bottle bump ' +
  'bump-formula-pr bump-cask-pr test style livecheck fetch home docs config shellenv --env';

const FORMULA_OR_CASK = 'formula/--formula formulae/--formula cask/--cask casks/--cask';

const READS: Record<string, SubcommandSpec> = {
  list: command({
    flags: '1lrt',
    long:
      `${FORMULA_OR_CASK} full-name versions json multiple pinned installed-on-request no-installed-on-request ` +
      'installed-as-dependency poured-from-bottle built-from-source',
    operands: named,
  }),
  info: command({
    long:
      `${FORMULA_OR_CASK} analytics days= category= github-packages-downloads github fetch-manifest json? ` +
      'installed eval-all all/--eval-all variations sizes',
    unsafe: '--github --github-packages-downloads --fetch-manifest',
    why: {
      '--github': 'opens a browser',
      '--github-packages-downloads': 'scrapes a web page no rule names',
      '--fetch-manifest': 'fetches a package manifest',
    },
    operands: named,
  }),
  search: command({
    long:
      `${FORMULA_OR_CASK} desc eval-all pull-request open closed ` +
      'repology macports fink opensuse fedora archlinux debian ubuntu',
    unsafe: '--repology --macports --fink --opensuse --fedora --archlinux --debian --ubuntu',
    why: Object.fromEntries(
      'repology macports fink opensuse fedora archlinux debian ubuntu'
        .split(' ')
        .map((name) => [`--${name}`, 'opens a browser']),
    ),
    operands: anyText,
  }),
  deps: command({
    flags: 'n1',
    long:
      `${FORMULA_OR_CASK} topological/n direct/1 declared/1 1/1 union full-name include-implicit include-build ` +
      'include-optional include-test skip-recommended include-requirements tree prune graph dot annotate ' +
      'installed brewfile? missing eval-all all/--eval-all for-each HEAD os= arch=',
    unsafe: '--brewfile',
    why: { '--brewfile': 'evaluates a Brewfile, which is Ruby' },
    operands: named,
  }),
  uses: command({
    long:
      `${FORMULA_OR_CASK} recursive installed missing eval-all include-implicit include-build include-test ` +
      'include-optional skip-recommended',
    operands: named,
  }),
  outdated: command({
    flags: 'g',
    long:
      `${FORMULA_OR_CASK} json? minimum-version= min-version=/--minimum-version fetch-HEAD greedy/g ` +
      'greedy-latest greedy-auto-updates',
    unsafe: '--fetch-HEAD',
    why: { '--fetch-HEAD': 'fetches the repositories of HEAD installs' },
    operands: named,
  }),
  leaves: command({
    flags: 'rp',
    long: 'installed-on-request/r installed-as-dependency/p',
    operands: 'none',
  }),
  missing: command({ long: 'hide=', operands: named }),
  doctor: command({ flags: 'D', long: 'list-checks json audit-debug/D', operands: 'none' }),
  desc: command({
    flags: 'snd',
    long: `${FORMULA_OR_CASK} search/s name/n description/d eval-all`,
    // Searched text is only matched; a name is loaded.
    operands: (word, parsed) => (has(parsed, 's', 'n', 'd') ? undefined : named(word, parsed)),
  }),
  options: command({
    long: 'compact installed eval-all all/--eval-all command=',
    unsafe: '--command',
    operands: named,
  }),
  'tap-info': command({ long: 'installed json?', operands: tapNamed }),
  formulae: command({ operands: 'none' }),
  casks: command({ operands: 'none' }),
  commands: command({ long: 'include-aliases', operands: 'none' }),
  '--cache': command({
    flags: 's',
    long: `${FORMULA_OR_CASK} os= arch= build-from-source/s force-bottle bottle-tag= HEAD`,
    operands: named,
  }),
  '--cellar': command({ operands: named }),
  '--caskroom': command({ operands: named }),
  '--prefix': command({ long: 'unbrewed installed', operands: named }),
  '--repository': command({ operands: tapNamed }),
  '--taps': command({ operands: 'none' }),
  '--version': command({ operands: 'none' }),
  log: command({
    flags: 'pu1',
    values: 'n',
    long: `${FORMULA_OR_CASK} patch/p stat oneline max-count=/n`,
    operands: bareNamed,
    max: 1,
    // The count is handed to git.
    check: (parsed) => {
      const count = lastValue(parsed, 'n');
      return count && !(count.static && /^\d+$/.test(count.value))
        ? `brew log -n ${count.text} is not a count`
        : undefined;
    },
  }),
  cat: command({ long: FORMULA_OR_CASK, operands: bareNamed }),
  help: command({
    operands: (word) =>
      INTERNAL.has(word.value) ? undefined : `brew help ${word.text} may run an external command`,
    max: 1,
  }),
  analytics: command({
    operands: (word) =>
      word.value === 'state' ? undefined : `brew analytics ${word.text} changes a setting`,
    max: 1,
  }),
  // With no name it lists the taps; with one it taps (and updates brew first).
  // Given any word but its help, brew updates itself first.
  tap: command({
    flags: 'f',
    long: 'custom-remote repair eval-all force/f',
    unsafe: 'f --custom-remote --repair --eval-all d q v',
    operands: 'none',
  }),
};

const spec: ProgramSpec = {
  name: 'brew',
  // The command is the first word: `--prefix`, `-S` and `-v` name commands, not options.
  grammar: grammar({ options: /(?!)/ }),
  subcommands: {
    ...Object.fromEntries(WRITING.split(' ').map((name) => [name, HELP_ONLY])),
    ...READS,
  },
  subcommandAliases: {
    ls: 'list',
    homepage: 'home',
    '-S': 'search',
    up: 'update',
    ln: 'link',
    instal: 'install',
    uninstal: 'uninstall',
    post_install: 'postinstall',
    rm: 'uninstall',
    remove: 'uninstall',
    abv: 'info',
    dr: 'doctor',
    '--repo': '--repository',
    '--config': 'config',
    environment: '--env',
    '-v': '--version',
    '--help': 'help',
    '-h': 'help',
  },
};

/** Commands brew runs `brew update --auto-update` before, unless `HOMEBREW_NO_AUTO_UPDATE` is set. */
export const BREW_AUTO_UPDATES: ReadonlySet<string> = new Set(['outdated']);

/** The command a brew line names (`outdated`), for the check made when it is decided. */
export function brewCommand(words: readonly Word[]): string | undefined {
  const parsed = parseCommand(spec, words, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return undefined;
  return parsed.levels.at(-1)!.name.split(' ').slice(1).join(' ') || undefined;
}

/** Commands that read only Homebrew's own folders and files (the rest may fetch its API data). */
const LOCAL = new Set(
  'list leaves missing formulae casks commands --cellar --caskroom --prefix --repository --taps --version log cat help analytics tap'.split(
    ' ',
  ),
);

/** brew: the commands that list or describe what is installed or available, and every command's help. */
export const BREW_MODULE: ProgramModule = {
  names: ['brew'],
  spec,
  effects: (cmd) => (checkProgram(spec, cmd.argv, false).readOnly ? NONE : UNKNOWN),
  network: (cmd) => {
    const sub = subcommandOf(spec, cmd);
    const help = cmd.argv.some((word) => word.value === '--help' || word.value === '-h');
    return sub === undefined || !(LOCAL.has(sub) || help);
  },
};
