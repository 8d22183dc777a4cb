import type { CommandView, EffectsResult, FileEffect, NestedSpec, Word } from '../types.js';
import { argument, treeWrite, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { dashWords, has, lastValue, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeIn, codeSpec } from './specs.js';
import {
  sqlProblem as readsOnly,
  statementsProblem as readsOnlyTokens,
  SQLITE,
  tokenize,
} from './sql/index.js';

/**
 * The sqlite3 shell's options, as `sqlite3 -help` lists them (3.40): whole words, each also spelt with two dashes.
 * `-A` (the rest of the line is an archive command), `-lookaside` and `-pagecache` (two values each) and the
 * unlisted testing options are left out: a line holding one does not parse, so it is never read-only.
 */
const FLAGS =
  'append ascii bail batch box column csv deserialize echo header noheader help html interactive json line ' +
  'list markdown memtrace nofollow quote readonly safe stats table tabs version zip';
const VALUES = 'cmd init maxsize mmap newline nonce nullvalue separator vfs';

const SQLITE3 = dashWords(FLAGS, VALUES);

/** Options that only shape the output or refuse more: the ones that open, run or read anything else are not. */
const READ_ONLY_OPTIONS = [
  ...'ascii bail batch box column csv echo header noheader help html json line list markdown nofollow quote readonly safe table tabs version'.split(
    ' ',
  ),
  'cmd',
  'newline',
  'nullvalue',
  'separator',
].map((name) => `-${name}`);

/**
 * Dot-commands that only print the schema, the shell's settings or its help, or set how results are printed.
 * Their arguments are names, patterns and mode words (`.schema --indent users`, `.mode box`).
 */
const DOT_COMMANDS = new Set(
  'tables schema fullschema indexes indices databases dbinfo help show version mode headers header width nullvalue separator timer eqp'.split(
    ' ',
  ),
);
const DOT_ARGUMENT = /^[\w%*.,:-]+$/;

/** Why an SQL argument may do more than read, or undefined when every statement only reads. */
export function sqlProblem(sql: string): string | undefined {
  return readsOnly(sql, SQLITE);
}

/** Virtual tables whose modules only index the database's own rows. */
const READ_MODULES = new Set(['fts3', 'fts4', 'fts5', 'rtree', 'rtree_i32']);

/**
 * Why a row of a database's schema may make a statement that reads it do more: a view runs its query, whose
 * calls must be on the allow-list (the shell's `edit()` runs a program); a virtual table reads through its module.
 */
export function sqliteViewProblem(type: string, sql: string): string | undefined {
  if (type === 'index' || type === 'trigger') return undefined;
  const list = tokenize(sql);
  if (!list) return 'its definition is not read';
  if (type === 'table') {
    if (list[1]?.text !== 'virtual') return undefined;
    const using = list.findIndex((t) => t.kind === 'word' && t.text === 'using');
    const module = list[using + 1];
    return module && READ_MODULES.has(module.text)
      ? undefined
      : `a virtual table of module ${module?.text ?? ''}`;
  }
  if (type !== 'view') return `a schema entry of type ${type}`;
  let depth = 0;
  for (const [i, token] of list.entries()) {
    if (token.text === '(') depth++;
    else if (token.text === ')') depth--;
    else if (depth === 0 && token.kind === 'word' && token.text === 'as') {
      const query = list.slice(i + 1);
      if (query[0]?.kind !== 'word' || !SQLITE.statements.has(query[0].text) || query[0].text === 'pragma')
        return 'its query is not read';
      return readsOnlyTokens(query, SQLITE);
    }
  }
  return 'its query is not read';
}

/** Why a command argument (`.tables`, `SELECT …`) may do more than read, or undefined. */
export function commandProblem(text: string): string | undefined {
  if (!text.startsWith('.')) return sqlProblem(text);
  if (/[\0-\x1f\x7f]/.test(text)) return 'a dot-command on several lines';
  const [name, ...args] = text.slice(1).split(' ').filter(Boolean);
  if (!name || !DOT_COMMANDS.has(name)) return `.${name ?? ''} is not a read-only dot-command`;
  const bad = args.find((arg) => !DOT_ARGUMENT.test(arg));
  return bad === undefined ? undefined : `.${name} ${bad} is not read`;
}

interface Database {
  path?: Word;
  immutable: boolean;
  readonly: boolean;
}

/** The database operand as the shell opens it: a path, `file:PATH?…` (only mode=ro and immutable=1 read) or none. */
function database(word: Word | undefined): Database | undefined {
  if (!word) return { immutable: false, readonly: false };
  if (!word.static) return undefined;
  const value = word.value;
  if (value === '' || value === ':memory:') return { immutable: false, readonly: false };
  if (!value.startsWith('file:')) return { path: word, immutable: false, readonly: false };
  const m = /^file:([^?#%]+)(?:\?([^#%]*))?$/.exec(value);
  if (!m || m[1]!.startsWith('//') || m[1]!.startsWith('~')) return undefined;
  const params = (m[2] ?? '').split('&').filter(Boolean);
  if (!params.every((p) => p === 'mode=ro' || p === 'immutable=1')) return undefined;
  const path = { ...word, text: m[1]!, value: m[1]! };
  return { path, immutable: params.includes('immutable=1'), readonly: params.includes('mode=ro') };
}

/**
 * The database a command line opens and whether read-only (`-readonly`, or a `file:` URI with `mode=ro`), and
 * why its commands may do more than read (none given: the shell reads them from stdin); or why the database
 * cannot be read from the words. The read-only check and the effects both decide by it.
 */
function opened(
  parsed: Parsed,
  words: readonly Word[],
): { problem: string } | { db: Database; readonly: boolean; commandProblem?: string } {
  const operands = parsed.operands.map((i) => words[i]!);
  const db = database(operands[0]);
  if (!db)
    return {
      problem: 'sqlite3 opens a database only known at run time or with URI parameters that are not read',
    };
  const readonly = db.readonly || has(parsed, '-readonly');
  if (operands.length <= 1)
    return { db, readonly, commandProblem: 'sqlite3 without a command reads its commands from stdin' };
  for (const word of [...cmdValues(parsed), ...operands.slice(1)]) {
    if (!word.static)
      return { db, readonly, commandProblem: 'sqlite3 runs a command only known at run time' };
    const problem = commandProblem(word.value);
    if (problem) return { db, readonly, commandProblem: `sqlite3: ${problem}` };
  }
  return { db, readonly };
}

/** The commands `-cmd` runs before the others, in order. */
function cmdValues(parsed: Parsed): Word[] {
  return parsed.options.flatMap((found) => (found.name === '-cmd' && found.value ? [found.value] : []));
}

function parse(cmd: CommandView): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, 1, SQLITE3, { permute: true, unknown: 'fail', dynamic: 'fail' });
  return parsed.ok ? parsed : undefined;
}

/** The folder a database lies in, where its journals go (`.` for a bare name). */
function folderOf(path: Word): Word {
  const cut = (text: string) => {
    const at = text.replace(/\/+$/, '').lastIndexOf('/');
    return at < 0 ? '.' : at === 0 ? '/' : text.slice(0, at);
  };
  return { ...path, text: cut(path.text), value: cut(path.value) };
}

/**
 * The database is read, and what a connection that only reads creates beside it is read from the database when
 * the policy decides (a tree write of its folder, names `sqlite`): the `-wal` and `-shm` files of a database in
 * WAL mode (a read-only reader leaves them; `immutable=1` creates none), the database itself when it is missing
 * and the connection may write (the shell creates it empty); and whether its views only read. Commands the
 * allow-list does not read may write any file.
 */
function sqliteEffects(cmd: CommandView): EffectsResult {
  const parsed = parse(cmd);
  if (!parsed || !readOnlyOptions(parsed)) return UNKNOWN;
  if (has(parsed, '-version', '-help')) return { effects: [], known: true };
  const open = opened(parsed, cmd.argv);
  if ('problem' in open || open.commandProblem !== undefined) return UNKNOWN;
  const { db, readonly } = open;
  if (!db.path) return { effects: [], known: true };
  const names = {
    kind: 'sqlite' as const,
    database: db.path,
    ...(readonly ? {} : { writable: true as const }),
    ...(db.immutable ? { immutable: true as const } : {}),
  };
  const effects: FileEffect[] = [argument('read', db.path), treeWrite(folderOf(db.path), 'argument', names)];
  return { effects, known: true };
}

function readOnlyOptions(parsed: Parsed): boolean {
  return parsed.options.every((option) => READ_ONLY_OPTIONS.includes(option.name));
}

/**
 * Read-only: every option only shapes the output and at least one command is given, each (and each `-cmd`) a
 * dot-command or SQL the allow-lists read (with none, the shell reads its commands from stdin). What opening the
 * database writes (a missing one is created unless `-readonly`) is its file effects'.
 */
function readOnlyCheck(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, '-version', '-help')) return undefined;
  const open = opened(parsed, words);
  if ('problem' in open) return open.problem;
  return open.commandProblem;
}

const spec: ProgramSpec = {
  name: 'sqlite3',
  grammar: SQLITE3,
  readOnly: readOnly(READ_ONLY_OPTIONS.join(' '), 'inert', {
    check: readOnlyCheck,
    why: {
      '-init': 'runs the commands of a file',
      '-interactive': 'reads commands from the terminal',
      '-append': 'opens the database appended to another file',
      '-zip': 'opens a ZIP archive as the database',
      '-deserialize': 'opens the database another way',
      '-vfs': 'opens the database through another VFS',
      '-nonce': 'lets commands out of safe mode',
    },
  }),
};

/**
 * What the shell runs that the command line does not show as a read: commands read from stdin (none given),
 * `-init FILE`, `-cmd`, and dot-commands outside the allow-list (`.shell`, `.system`, `.load` …).
 */
function sqliteNested(cmd: CommandView): NestedSpec[] {
  const parsed = parse(cmd);
  if (!parsed) return [codeSpec('program-option', 'sqlite3', 'sqlite3', cmd.argv[0]!)];
  if (has(parsed, '-version', '-help')) return [];
  const out: NestedSpec[] = [];
  const init = lastValue(parsed, '-init');
  if (init) out.push(codeIn('script-file', 'sqlite3', '-init', init));
  for (const run of cmdValues(parsed)) {
    if (!run.static || commandProblem(run.value)) out.push(codeIn('program-option', 'sqlite3', '-cmd', run));
  }
  const commands = parsed.operands.slice(1).map((i) => cmd.argv[i]!);
  if (commands.length === 0) out.push(codeSpec('stdin', 'sqlite3', 'stdin', cmd.argv[0]!));
  for (const word of commands) {
    if (!word.static || (word.value.startsWith('.') && commandProblem(word.value)))
      out.push(codeIn('program-option', 'sqlite3', 'dot-command', word));
  }
  return out;
}

/** The SQLite shell: `sqlite3 -readonly app.db .tables`, `sqlite3 'file:app.db?mode=ro&immutable=1' 'SELECT …'`. */
export const SQLITE3_MODULE: ProgramModule = {
  names: ['sqlite3'],
  spec,
  effects: sqliteEffects,
  nested: sqliteNested,
  oracle: {
    cases: [
      'sqlite3 -readonly app.db .tables',
      'sqlite3 -readonly app.db .schema',
      "sqlite3 -readonly app.db 'SELECT count(*) FROM t'",
      "sqlite3 -readonly 'file:app.db?immutable=1' .tables 'SELECT * FROM t'",
      "sqlite3 'file:missing.db?immutable=1' .tables",
      "sqlite3 'file:missing.db?immutable=1&mode=ro' .tables",
      "sqlite3 -readonly -json 'file:app.db?mode=ro' 'SELECT * FROM t LIMIT 1'",
      'sqlite3 -readonly wal.db .tables',
      'sqlite3 -readonly journal.db .tables',
      "sqlite3 -readonly journal.db 'SELECT count(*) FROM t'",
      "sqlite3 'file:journal.db?mode=ro' .schema .dbinfo",
      'sqlite3 -readonly missing.db .tables',
      "sqlite3 'file:wal.db?mode=ro&immutable=1' .tables",
      "sqlite3 -readonly app.db \"SELECT writefile('.git/hooks/pre-commit', 'x')\"",
      'sqlite3 -readonly app.db "VACUUM INTO \'.git/hooks/pre-commit\'"',
      'sqlite3 -readonly app.db "SELECT readfile(\'.env\')"',
      'sqlite3 -readonly app.db ".output .git/hooks/pre-commit" \'SELECT 1\'',
      "sqlite3 -readonly app.db '.shell cat .env'",
      'sqlite3 app.db .tables',
      'sqlite3 new.db .tables',
      'sqlite3 -readonly .env .tables',
      "sqlite3 :memory: 'SELECT 1'",
      "sqlite3 -cmd '.mode box' -readonly 'file:app.db?immutable=1' 'SELECT * FROM t'",
      "sqlite3 -cmd '.shell cat .env' :memory: 'SELECT 1'",
      "sqlite3 :memory: \"SELECT writefile('.git/hooks/pre-commit', 'x')\"",
      'sqlite3 :memory: "ATTACH \'made.db\' AS m"',
      "sqlite3 journal.db 'SELECT * FROM t'",
      'sqlite3 journal.db .tables .schema',
      "sqlite3 app.db 'SELECT count(*) FROM t'",
      "sqlite3 missing.db 'SELECT 1'",
      "sqlite3 -readonly views.db 'SELECT * FROM v'",
      "sqlite3 views.db 'SELECT * FROM t'",
    ],
    operands: ['app.db', 'journal.db', 'wal.db', 'views.db', ':memory:'],
  },
};
