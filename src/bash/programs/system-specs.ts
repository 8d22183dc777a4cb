import type { Word } from '../types.js';
import { grammar, type Parsed } from './options.js';
import { everyOption, everyOptionBut, type ProgramSpec, readOnly } from './program.js';
import { leadingText } from './words.js';

const HELP = 'help version';

export const DATE = grammar({
  flags: 'uRI',
  values: 'dfrs',
  optional: 'I',
  long:
    'date=/d file=/f reference=/r set=/s utc/u universal/u rfc-email/R iso-8601?/I rfc-3339= debug ' +
    `resolution ${HELP}`,
});

export const HOSTNAME = grammar({
  flags: 'aAbdfiIsyvhV',
  values: 'F',
  long:
    'alias/a all-fqdns/A boot/b domain/d fqdn/f long/f file=/F ip-address/i all-ip-addresses/I short/s ' +
    'yp/y nis/y help/h version/V',
});

export const PS = grammar({
  flags: 'AaedNFfHjlMPyLmTcVwxXZ',
  values: 'CGgpqstuUoOkD',
  long:
    'deselect/N Group=/G group=/g pid=/p ppid= quick-pid=/q sid=/s tty=/t user=/u User=/U format=/o ' +
    'context headers no-headers cols= columns= width= rows= lines= version/V help? sort=/k forest info ' +
    'cumulative',
  abbreviate: false,
});

/** `date MMDDhhmm` sets the clock; only `+FORMAT` operands print. */
function dateOperands(parsed: Parsed, words: readonly Word[]): string | undefined {
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!leadingText(word).startsWith('+')) return `date ${word.text} sets the clock`;
  }
  return undefined;
}

function simple(
  name: string,
  g: ReturnType<typeof grammar>,
  operands: 'files' | 'inert' | 'none',
): ProgramSpec {
  return { name, grammar: g, readOnly: readOnly(() => everyOption(g), operands) };
}

const ONLY_HELP = grammar({ long: HELP });

const PRINTENV = grammar({ flags: '0', long: `null/0 ${HELP}` });

/** Variables that hold no credential: where programs are, who and where the user is, how text is shown. */
const PLAIN_VARIABLES = new Set(
  (
    'PATH HOME USER LOGNAME SHELL PWD OLDPWD LANG LANGUAGE TERM COLORTERM EDITOR VISUAL PAGER TMPDIR TZ ' +
    'HOSTNAME SHLVL COLUMNS LINES NODE_ENV CI GOPATH GOROOT JAVA_HOME VIRTUAL_ENV CONDA_PREFIX PYTHONPATH ' +
    'CARGO_HOME RUSTUP_HOME NVM_DIR XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME ' +
    'XDG_RUNTIME_DIR DISPLAY MANPATH INFOPATH'
  ).split(' '),
);

/** `printenv` alone prints every variable, tokens included; by name, only variables known to hold none. */
function printenvNames(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (parsed.operands.length === 0) return 'printenv prints every variable, credentials included';
  for (const index of parsed.operands) {
    const word = words[index]!;
    if (!word.static || !(PLAIN_VARIABLES.has(word.value) || /^LC_[A-Z]+$/.test(word.value)))
      return `printenv ${word.text} may print a credential`;
  }
  return undefined;
}

const NUMFMT = grammar({
  flags: 'z',
  values: 'd',
  long:
    'debug delimiter=/d field= format= from= from-unit= grouping header? invalid= padding= round= ' +
    `suffix= to= to-unit= zero-terminated/z ${HELP}`,
});

export const SYSTEM_SPECS: readonly ProgramSpec[] = [
  simple('sleep', ONLY_HELP, 'inert'),
  simple(
    'seq',
    grammar({ flags: 'w', values: 'fs', long: `equal-width/w format=/f separator=/s ${HELP}` }),
    'inert',
  ),
  { ...simple('expr', ONLY_HELP, 'inert'), permute: false },
  simple('whoami', ONLY_HELP, 'none'),
  {
    name: 'printenv',
    grammar: PRINTENV,
    readOnly: readOnly(() => everyOption(PRINTENV), 'inert', { check: printenvNames }),
  },
  simple('numfmt', NUMFMT, 'inert'),
  simple(
    'id',
    grammar({
      flags: 'aZgGnruz',
      long: `context/Z group/g groups/G name/n real/r user/u zero/z ${HELP}`,
    }),
    'inert',
  ),
  simple('groups', ONLY_HELP, 'inert'),
  simple(
    'uname',
    grammar({
      flags: 'asnrvmpio',
      long:
        'all/a kernel-name/s nodename/n kernel-release/r kernel-version/v machine/m processor/p ' +
        `hardware-platform/i operating-system/o ${HELP}`,
    }),
    'none',
  ),
  simple('nproc', grammar({ long: `all ignore= ${HELP}` }), 'none'),
  simple('arch', ONLY_HELP, 'none'),
  simple('uptime', grammar({ flags: 'pshV', long: 'pretty/p since/s help/h version/V' }), 'none'),
  simple('tty', grammar({ flags: 's', long: `silent/s quiet/s ${HELP}` }), 'none'),
  simple(
    'locale',
    grammar({
      flags: 'amckvV',
      long: 'all-locales/a charmaps/m category-name/c keyword-name/k verbose/v help usage version/V',
    }),
    'inert',
  ),
  simple(
    'free',
    grammar({
      flags: 'bkmghltvwV',
      values: 'sc',
      long:
        'bytes/b kilo mega giga tera peta kibi/k mebi/m gibi/g tebi pebi human/h si lohi/l total/t ' +
        'committed/v seconds=/s count=/c wide/w help version/V',
    }),
    'none',
  ),
  simple('ps', PS, 'inert'),
  { ...simple('which', grammar({ flags: 'a', abbreviate: false }), 'inert'), permute: false },
  {
    name: 'date',
    grammar: DATE,
    readOnly: readOnly(() => everyOptionBut(DATE, 's f'), 'inert', {
      check: dateOperands,
      why: { s: 'sets the clock', f: 'reads dates from a file no rule names' },
    }),
  },
  {
    name: 'hostname',
    grammar: HOSTNAME,
    readOnly: readOnly(() => everyOptionBut(HOSTNAME, 'b F'), 'none', {
      why: { b: 'sets the host name', F: 'sets the host name from a file' },
    }),
  },
];
