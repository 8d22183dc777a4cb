import type { CommandView, EffectsResult, NestedSpec, Word } from '../types.js';
import { NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeSpec } from './specs.js';
import { MYSQL, sqlProblem } from './sql/index.js';

/**
 * The mysql client's options, from MySQL 8.0's reference manual ("mysql Client Options"; the client does not run
 * where the oracles run). my_getopt reads a unique prefix of a long option as the option. Options not listed
 * (the `--skip-`/`--enable-` spellings among them) fail the parse: such a line is never a read.
 */
const MYSQL_GRAMMAR = grammar({
  flags: 'ABCEGHINLUVXbcfinoqrstvw?',
  optional: 'p',
  values: 'DPSehuT',
  long:
    'auto-rehash auto-vertical-output batch/B binary-as-hex binary-mode bind-address= character-sets-dir= ' +
    'column-names column-type-info comments/c compress/C compression-algorithms= connect-expired-password ' +
    'connect-timeout= database=/D debug-check debug-info/T default-auth= default-character-set= ' +
    'defaults-extra-file= defaults-file= defaults-group-suffix= delimiter= dns-srv-name= ' +
    'enable-cleartext-plugin execute=/e force/f get-server-public-key help/? histignore= host=/h html/H ' +
    'ignore-spaces/i init-command= line-numbers load-data-local-dir= local-infile login-path= ' +
    'max-allowed-packet= max-join-size= named-commands/G net-buffer-length= no-auto-rehash/A no-beep/b ' +
    'no-defaults one-database/o pager? password?/p plugin-dir= port=/P print-defaults prompt= protocol= ' +
    'quick/q raw/r reconnect safe-updates/U select-limit= server-public-key-path= show-warnings ' +
    'sigint-ignore silent/s skip-column-names/N skip-line-numbers/L skip-pager skip-reconnect socket=/S ' +
    'ssl-ca= ssl-capath= ssl-cert= ssl-cipher= ssl-crl= ssl-crlpath= ssl-key= ssl-mode= table/t tee= ' +
    'tls-version= unbuffered/n user=/u verbose/v version/V vertical/E wait/w xml/X',
});

/**
 * Options that pick the database and user of the user's own server or shape the output. Not listed: `-h`, `-P`,
 * `-S`, `--protocol` (another server gets the password of `~/.my.cnf`), the option files (`--defaults-file`,
 * `--defaults-extra-file`, `--login-path`: settings from elsewhere), `--init-command`, `--pager`, `--tee`,
 * `--ssl-*`, `--local-infile`, `--plugin-dir`, `-p` (a password prompt or on the line).
 */
const SERVICE_READ = 'e D u B N t s r E H X q n --column-names --show-warnings --binary-as-hex';
const NAME = /^[A-Za-z0-9_$][\w$.-]*$/;

function readProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'V', '?')) return undefined;
  const statements = parsed.options.filter((o) => o.name === 'e');
  if (statements.length === 0) return 'mysql without -e reads its statements from stdin';
  for (const option of statements) {
    if (!option.value?.static) return 'mysql runs a statement only known at run time';
    const problem = sqlProblem(option.value.value, MYSQL);
    if (problem) return `mysql: ${problem}`;
  }
  if (parsed.operands.length > 1) return 'mysql takes one database name';
  const names = [
    ...parsed.options.filter((o) => o.name === 'D' || o.name === 'u').map((o) => o.value),
    ...parsed.operands.map((i) => words[i]),
  ];
  for (const word of names) {
    if (!word?.static || !NAME.test(word.value)) return `${word?.text ?? ''} is not a plain name`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'mysql',
  grammar: MYSQL_GRAMMAR,
  serviceRead: readOnly(SERVICE_READ, 'inert', {
    check: readProblem,
    why: {
      h: 'sends the password to the server it names',
      P: 'sends the password to the server it names',
      S: 'sends the password to the server it names',
      '--init-command': 'runs a statement first',
      '--pager': 'runs a program',
      '--tee': 'writes a file',
      '--defaults-file': 'reads settings from a file',
      '--defaults-extra-file': 'reads settings from a file',
    },
  }),
};

function parse(cmd: CommandView): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, 1, MYSQL_GRAMMAR, {
    permute: true,
    unknown: 'fail',
    dynamic: 'fail',
  });
  return parsed.ok ? parsed : undefined;
}

const QUIET = new Set(SERVICE_READ.split(' ').concat(['V', '?']));

/** The options on the service-read list touch no file; any other may (`--tee`, option files, `--pager`). */
function mysqlEffects(cmd: CommandView): EffectsResult {
  const parsed = parse(cmd);
  if (!parsed?.options.every((o) => QUIET.has(o.name))) return UNKNOWN;
  return NONE;
}

/** Statements from stdin when no `-e` is given; `--pager` and `--init-command` run what the line does not show. */
function mysqlNested(cmd: CommandView): NestedSpec[] {
  const parsed = parse(cmd);
  if (!parsed) return [codeSpec('program-option', 'mysql', 'mysql', cmd.argv[0]!)];
  if (has(parsed, 'V', '?')) return [];
  if (!parsed.options.some((o) => o.name === 'e')) return [codeSpec('stdin', 'mysql', 'stdin', cmd.argv[0]!)];
  return [];
}

/**
 * MySQL's (and MariaDB's) client: `mysql -e 'SHOW TABLES' app_dev`, `mysql -B -N -e 'SELECT id FROM t' app`. A
 * read of the user's own server where automode.readServices names mysql. It reads option files from /etc, its
 * install and the user's home (`~/.my.cnf`), never from the working folder unless an option names one.
 */
export const MYSQL_MODULE: ProgramModule = {
  names: ['mysql'],
  spec,
  effects: mysqlEffects,
  nested: mysqlNested,
  network: (cmd) => {
    const parsed = parse(cmd);
    return !parsed || !has(parsed, 'V', '?');
  },
};
