import { NONE, UNKNOWN } from './effect-helpers.js';
import { type ProgramModule, subcommandOf } from './module.js';
import { type Grammar, grammar } from './options.js';
import { type ConfigCommand, configEffects } from './package-managers.js';
import { everyOptionBut, type ProgramSpec, readOnly, type SubcommandSpec } from './program.js';

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
function reads(flags: string, values: string, long: string, unsafe: string, operands: 'inert' | 'none') {
  const g: Grammar = grammar({ flags: `hvVq${flags}`, values, long: `${GENERAL} ${long}` });
  const spec: SubcommandSpec = {
    grammar: g,
    readOnly: readOnly(() => everyOptionBut(g, `${GENERAL_UNSAFE} ${unsafe}`), operands),
  };
  return spec;
}

/** Not `list --outdated` (asks the package index), not `--path` or `freeze -r FILE` (files no rule names). */
const READS: Record<string, SubcommandSpec> = {
  list: reads(
    'ouel',
    'if',
    'outdated/o uptodate/u editable/e local/l user path= pre format= not-required exclude-editable ' +
      'include-editable exclude= index-url=/i extra-index-url= no-index find-links=/f',
    'o u i f --extra-index-url --no-index --path',
    'none',
  ),
  show: reads('f', '', 'files/f', '', 'inert'),
  freeze: reads(
    'l',
    'r',
    'requirement=/r local/l user path= all exclude-editable exclude=',
    'r --path',
    'none',
  ),
  check: reads('', '', '', '', 'none'),
};

/**
 * pip's other commands, read as before it had a spec: every option is a flag automode does not list, so an
 * allow rule naming the command (`Bash(pip install *)`) vouches for its options as it always did.
 */
const OTHERS =
  'install download uninstall inspect config search cache index wheel hash completion debug help lock';
const UNMODELLED: SubcommandSpec = {
  grammar: grammar({ flags: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', unlistedFlags: /./ }),
};

const spec: ProgramSpec = {
  name: 'pip',
  aliases: ['pip3'],
  grammar: grammar({ flags: 'hvVq', long: GENERAL }),
  readOnly: readOnly(''),
  subcommands: { ...READS, ...Object.fromEntries(OTHERS.split(' ').map((name) => [name, UNMODELLED])) },
};

/** pip: its `config` command's files, and the commands that only list what is installed. */
export const PIP_MODULE: ProgramModule = {
  names: ['pip', 'pip3'],
  spec,
  configEffects: (cmd) => configEffects(CONFIG, cmd),
  effects: (cmd) => {
    const sub = subcommandOf(spec, cmd);
    return sub !== undefined && Object.hasOwn(READS, sub) ? NONE : UNKNOWN;
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
    ],
  },
};
