import { each, NONE, option, UNKNOWN } from './effect-helpers.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { type Grammar, grammar, has, operandWords, optionsNamed } from './options.js';
import { type ConfigCommand, configEffects } from './package-managers.js';
import { everyOptionBut, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from './program.js';

const CONFIG: ConfigCommand = {
  config: ['config'],
  set: [],
  writes: ['set', 'unset', 'edit'],
  reads: ['get', 'list', 'debug'],
  files: (scope) =>
    scope === 'global'
      ? ['/etc/pip.conf', '/etc/xdg/pip/pip.conf']
      : scope === 'site'
        ? [undefined]
        : ['~/.config/pip/pip.conf', '~/.pip/pip.conf'],
  scopeOptions: [],
  scopeFlags: { '--global': 'global', '--site': 'site', '--user': 'user' },
  fileOptions: [],
};

/** pip's general options, as `pip --help` lists them (pip 24); optparse reads a unique prefix of a long option. */
const GENERAL =
  'help/h debug isolated require-virtualenv python= verbose/v version/V quiet/q log= no-input keyring-provider= ' +
  'proxy= retries= timeout= exists-action= trusted-host= cert= client-cert= cache-dir= no-cache-dir ' +
  'disable-pip-version-check no-color no-python-version-warning use-feature= use-deprecated= resume-retries=';

/** General options that change what pip runs, reads or writes, or where it connects. */
const GENERAL_UNSAFE =
  '--debug --python --log --keyring-provider --proxy --exists-action --trusted-host --cert --client-cert ' +
  '--cache-dir --use-feature --use-deprecated';

/** A command that only reads what is installed, with the options (besides the general ones) that keep it so. */
function reads(
  flags: string,
  values: string,
  long: string,
  unsafe: string,
  operands: 'files' | 'inert' | 'none',
  more: Parameters<typeof readOnly>[2] = {},
) {
  const g: Grammar = grammar({ flags: `hvVq${flags}`, values, long: `${GENERAL} ${long}` });
  const spec: SubcommandSpec = {
    grammar: g,
    readOnly: readOnly(() => everyOptionBut(g, `${GENERAL_UNSAFE} ${unsafe}`), operands, more),
  };
  return spec;
}

/** `pip cache` reads with `dir`, `info` and `list [PATTERN]`; `remove` and `purge` delete. */
const CACHE_READS = new Set(['dir', 'info', 'list']);

/**
 * Not `list --outdated` or `index versions` (they ask the package index), not `freeze -r FILE` (a file no rule
 * names), not `config list/get/debug` (an index URL in pip's configuration may carry a password). `--path`
 * names a folder whose installed packages are read (a file effect). Options as pip 23.2's `--help` lists them.
 */
const READS: Record<string, SubcommandSpec> = {
  list: reads(
    'ouel',
    'if',
    'outdated/o uptodate/u editable/e local/l user path= pre format= not-required exclude-editable ' +
      'include-editable exclude= index-url=/i extra-index-url= no-index find-links=/f',
    'o u i f --extra-index-url --no-index',
    'none',
  ),
  show: reads('f', '', 'files/f', '', 'inert'),
  freeze: reads('l', 'r', 'requirement=/r local/l user path= all exclude-editable exclude=', 'r', 'none'),
  check: reads('', '', '', '', 'none'),
  inspect: reads('', '', 'local user path=', '', 'none'),
  hash: reads('', 'a', 'algorithm=/a', '', 'files'),
  debug: reads('', '', 'platform= python-version= implementation= abi=', '', 'none'),
  help: reads('', '', '', '', 'inert', { maxOperands: 1 }),
  cache: reads('', '', 'format=', '', 'inert', {
    check: (parsed, words) => {
      const [action, ...rest] = parsed.operands.map((index) => words[index]!);
      if (!action?.static || !CACHE_READS.has(action.value))
        return 'pip cache removes files but with dir, info, list';
      return rest.length > (action.value === 'list' ? 1 : 0) ? 'pip cache with these arguments' : undefined;
    },
  }),
};

/**
 * pip's other commands, read as before it had a spec: every option is a flag automode does not list, so an
 * allow rule naming the command (`Bash(pip install *)`) vouches for its options as it always did.
 */
const OTHERS = 'install download uninstall config search index wheel completion lock';
const UNMODELLED: SubcommandSpec = {
  grammar: grammar({ flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', unlistedFlags: /./ }),
};

const spec: ProgramSpec = {
  name: 'pip',
  aliases: ['pip3'],
  grammar: grammar({ flags: 'hvVq', long: GENERAL }),
  // `pip --help` prints its usage and `pip --version` its version; given a command, pip hands them to it.
  readOnly: readOnly('h V', 'none'),
  subcommands: { ...READS, ...Object.fromEntries(OTHERS.split(' ').map((name) => [name, UNMODELLED])) },
};

/** pip: its `config` command's files, and the commands that only list what is installed. */
export const PIP_MODULE: ProgramModule = {
  names: ['pip', 'pip3'],
  spec,
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  effects: (cmd) => {
    const parsed = parseCommand(spec, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
    if (!parsed.ok || parsed.unknownSubcommand) return UNKNOWN;
    if (parsed.levels.length === 1) return has(parsed.levels[0]!.parsed, 'h', 'V') ? NONE : UNKNOWN;
    const sub = subcommandOf(spec, cmd);
    if (sub === undefined || !Object.hasOwn(READS, sub)) return UNKNOWN;
    const last = parsed.levels.at(-1)!.parsed;
    const effects = optionsNamed(last, '--path').map((found) => option('read', found.value!));
    if (sub === 'hash') effects.push(...each('read', operandWords(cmd.argv, last)));
    return { effects, known: true };
  },
  oracle: {
    cases: [
      'pip config set global.index-url x',
      'pip config --site set a b',
      'pip3 config --user unset a',
      'pip config list',
      'pip config get global.index-url',
      'pip list',
      'pip list --format json',
      'pip show pip',
      'pip3 show -f pip',
      'pip freeze',
      'pip check',
      'pip inspect --local',
      'pip list --path .',
      'pip freeze --path /usr/lib/python3/dist-packages',
      'pip hash -a sha512 setup.py',
      'pip hash .env',
      'pip cache dir',
      'pip cache info',
      'pip cache list --format=abspath',
      'pip cache purge',
      'pip debug --verbose',
      'pip help install',
      'pip --help',
      'pip -V',
    ],
  },
};
