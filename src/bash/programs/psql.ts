import type { CommandView, EffectsResult, NestedSpec, Word } from '../types.js';
import { argument, NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeIn, codeSpec } from './specs.js';
import { POSTGRES, sqlProblem } from './sql/index.js';

/** psql's options, as `psql --help` lists them (15): getopt_long, so a unique prefix names a long option. */
const PSQL = grammar({
  flags: 'lVX1abeEnqsSAHtxz0wW?',
  values: 'cdfvLoFPRThpU',
  long:
    'command=/c dbname=/d file=/f list/l set=/v variable=/v version/V no-psqlrc/X single-transaction/1 help?/? ' +
    'echo-all/a echo-errors/b echo-queries/e echo-hidden/E log-file=/L no-readline/n output=/o quiet/q ' +
    'single-step/s single-line/S no-align/A csv field-separator=/F html/H pset=/P record-separator=/R ' +
    'tuples-only/t table-attr=/T expanded/x field-separator-zero/z record-separator-zero/0 host=/h port=/p ' +
    'username=/U no-password/w password/W',
});

/**
 * Options that only pick the database and user of the user's own server or shape the output. Not listed: `-h`,
 * `-p` (another server gets the password from PGPASSWORD or a service file), `-f` and stdin (commands not on
 * the line), `-o`, `-L` (files written, `-o |cmd` a program run), `-v` and `-P` (variables and settings),
 * `-1`, `-s`, `-W` (a password prompt). `-l` lists the server's databases and exits, reading no commands.
 */
const SERVICE_READ = 'c d U X q A t x z 0 F R H --csv w e E l';

/**
 * Backslash commands that describe the database's objects or the connection, with `+` and `S`; not `\l`, the
 * server's every database, as `-l` is not.
 */
const META = /^\\(?:d|d[tivsnfuxTmEpgoaDcCb]|conninfo)\+?S?\+?(?:\s+[\w.*]+)?\s*$/;
const NAME = /^[A-Za-z0-9_][\w.-]*$/;

/**
 * Why one `-c` may do more than read: SQL the PostgreSQL allow-list reads, or one backslash command that lists
 * (psql reads every backslash on the line as another command: `\dt \! id` runs a shell).
 */
export function psqlCommandProblem(text: string): string | undefined {
  if (!text.trimStart().startsWith('\\')) return sqlProblem(text, POSTGRES);
  return META.test(text.trim())
    ? undefined
    : `${text.trim().split(/\s/)[0]} is not a listing backslash command`;
}

function readProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, 'V', '?')) return undefined;
  const commands = parsed.options.filter((o) => o.name === 'c');
  if (commands.length === 0 && !has(parsed, 'l')) return 'psql without -c reads its commands from stdin';
  for (const option of commands) {
    if (!option.value?.static) return 'psql runs a command only known at run time';
    const problem = psqlCommandProblem(option.value.value);
    if (problem) return `psql: ${problem}`;
  }
  const names = [
    ...parsed.options.filter((o) => o.name === 'd' || o.name === 'U').map((o) => o.value),
    ...parsed.operands.map((i) => words[i]),
  ];
  if (parsed.operands.length > 2) return 'psql takes a database and a user name';
  for (const word of names) {
    if (!word?.static || !NAME.test(word.value))
      return `${word?.text ?? ''} may be a connection string naming another server`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'psql',
  grammar: PSQL,
  serviceRead: readOnly(SERVICE_READ, 'inert', {
    check: readProblem,
    why: {
      h: 'sends the password to the server it names',
      p: 'sends the password to the server it names',
      f: 'runs the commands of a file',
      o: 'writes the output to a file or a program',
      L: 'writes a log file',
    },
  }),
};

function parse(cmd: CommandView): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, 1, PSQL, { permute: true, unknown: 'fail', dynamic: 'fail' });
  return parsed.ok ? parsed : undefined;
}

/** Files named by `-f` are read, `-o` and `-L` written; the rest is the server's. */
function psqlEffects(cmd: CommandView): EffectsResult {
  const parsed = parse(cmd);
  if (!parsed) return UNKNOWN;
  if (has(parsed, 'V', '?')) return NONE;
  const effects = [];
  for (const option of parsed.options) {
    if (!option.value) continue;
    if (option.name === 'f') effects.push(argument('read', option.value));
    if (option.name === 'L') effects.push(argument('write', option.value));
    if (option.name === 'o') {
      if (!option.value.static || option.value.value.startsWith('|')) return UNKNOWN;
      effects.push(argument('write', option.value));
    }
  }
  return { effects, known: true };
}

/** Commands from stdin (no `-c`), `-f FILE`, `-o |cmd` and backslash commands not on the list. */
function psqlNested(cmd: CommandView): NestedSpec[] {
  const parsed = parse(cmd);
  if (!parsed) return [codeSpec('program-option', 'psql', 'psql', cmd.argv[0]!)];
  if (has(parsed, 'V', '?')) return [];
  const out: NestedSpec[] = [];
  for (const option of parsed.options) {
    const value = option.value;
    if (!value) continue;
    if (option.name === 'f') out.push(codeIn('script-file', 'psql', '-f', value));
    if (option.name === 'o' && (!value.static || value.value.startsWith('|')))
      out.push(codeIn('program-option', 'psql', '-o', value));
    if (
      option.name === 'c' &&
      (!value.static || (value.value.trimStart().startsWith('\\') && psqlCommandProblem(value.value)))
    )
      out.push(codeIn('program-option', 'psql', '-c', value));
  }
  // `-l` lists the databases and exits before reading any command.
  if (!parsed.options.some((o) => o.name === 'c' || o.name === 'f' || o.name === 'l'))
    out.push(codeSpec('stdin', 'psql', 'stdin', cmd.argv[0]!));
  return out;
}

/**
 * PostgreSQL's client: `psql -c 'SELECT count(*) FROM users' app_dev`, `psql -d app -c '\dt'`. A read of the
 * user's own server where automode.readServices names psql. psql runs the user's own `~/.psqlrc` (unless `-X`),
 * a file outside the project that the agent cannot write without asking; `PSQLRC=` on the line is an
 * assignment automode does not read as harmless.
 */
export const PSQL_MODULE: ProgramModule = {
  names: ['psql'],
  spec,
  effects: psqlEffects,
  nested: psqlNested,
  network: (cmd) => {
    const parsed = parse(cmd);
    return !parsed || !has(parsed, 'V', '?');
  },
  oracle: { cases: ['psql --version', 'psql -V', 'psql --help'] },
};
