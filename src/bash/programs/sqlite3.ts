import type { CommandView, EffectsResult, FileEffect, NestedSpec, Word } from '../types.js';
import { argument, treeWrite, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { grammar, has, lastValue, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeIn, codeSpec } from './specs.js';

/**
 * The sqlite3 shell's options, as `sqlite3 -help` lists them (3.40): whole words, each also spelt with two dashes.
 * `-A` (the rest of the line is an archive command), `-lookaside` and `-pagecache` (two values each) and the
 * unlisted testing options are left out: a line holding one does not parse, so it is never read-only.
 */
const FLAGS =
  'append ascii bail batch box column csv deserialize echo header noheader help html interactive json line ' +
  'list markdown memtrace nofollow quote readonly safe stats table tabs version zip';
const VALUES = 'cmd init maxsize mmap newline nonce nullvalue separator vfs';

const SQLITE3 = grammar({
  words: [
    ...FLAGS.split(' ').flatMap((name) => [`-${name}/-${name}`, `--${name}/-${name}`]),
    ...VALUES.split(' ').flatMap((name) => [`-${name}=/-${name}`, `--${name}=/-${name}`]),
  ].join(' '),
  abbreviate: false,
});

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

/** Statements that only read, by their first word. */
const READ_STATEMENTS = new Set(['select', 'values', 'with', 'explain']);

/** Words that begin or are part of a statement that writes, opens another file or changes the connection. */
const WRITE_WORDS = new Set(
  'insert update delete replace create drop alter attach detach vacuum reindex analyze begin commit end rollback savepoint release into pragma returning trigger'.split(
    ' ',
  ),
);

/**
 * Functions and table-valued functions that compute from their arguments and the database: neither the shell's
 * file functions (readfile, writefile, edit, fsdir, zipfile), nor load_extension, nor fts3_tokenizer.
 */
const FUNCTIONS = new Set(
  (
    'abs avg char coalesce concat concat_ws count cume_dist date datetime dense_rank first_value format ' +
    'glob group_concat hex ifnull iif instr json json_array json_array_length json_each json_extract ' +
    'json_group_array json_group_object json_object json_quote json_tree json_type json_valid julianday lag ' +
    'last_value lead length like likelihood likely lower ltrim max min nth_value ntile nullif percent_rank ' +
    'printf quote rank round row_number rtrim sign sqlite_version string_agg strftime substr substring sum ' +
    'time total trim typeof unicode unixepoch unlikely upper ceil ceiling floor ln log log10 log2 exp pow ' +
    'power replace sqrt mod pi acos asin atan atan2 cos sin tan degrees radians generate_series ' +
    'pragma_table_info pragma_table_xinfo pragma_index_list pragma_index_info pragma_index_xinfo ' +
    'pragma_foreign_key_list pragma_table_list pragma_database_list'
  ).split(' '),
);

/** SQL keywords a `(` may follow (`IN (`, `EXISTS (`, `AS (`, `OVER (`): syntax, not a call. */
const KEYWORDS = new Set(
  (
    'select from where and or not in exists as using over filter cast values on by then else when case join ' +
    'is between like glob distinct all union intersect except having limit offset group order with ' +
    'recursive partition window escape collate asc desc inner left right full cross outer natural null ' +
    'materialized explain query plan'
  ).split(' '),
);

/** Pragmas that print a table's, an index's or the database's description; those taking a name take it in (). */
const PRAGMAS_WITH_NAME = new Set(
  'table_info table_xinfo index_list index_info index_xinfo foreign_key_list foreign_key_check integrity_check quick_check table_list'.split(
    ' ',
  ),
);
const PRAGMAS = new Set([
  ...PRAGMAS_WITH_NAME,
  ...'database_list collation_list function_list module_list pragma_list compile_options user_version schema_version application_id page_count page_size freelist_count encoding journal_mode data_version'.split(
    ' ',
  ),
]);

type Token = { kind: 'word' | 'quoted' | 'string' | 'number' | 'punct'; text: string };

/** SQL tokens; undefined for a parameter, a comment or anything the allow-list does not read. */
function tokens(sql: string): Token[] | undefined {
  const out: Token[] = [];
  const re =
    /\s+|([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"]|"")*"|`(?:[^`]|``)*`)|('(?:[^']|'')*')|(\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)|(\|\||<=|>=|<>|!=|==|<<|>>|[(),.;*=<>+\-/%&|~])/y;
  let at = 0;
  while (at < sql.length) {
    re.lastIndex = at;
    const m = re.exec(sql);
    if (!m) return undefined;
    at = re.lastIndex;
    if (m[1]) out.push({ kind: 'word', text: m[1].toLowerCase() });
    else if (m[2]) out.push({ kind: 'quoted', text: m[2].slice(1, -1).toLowerCase() });
    else if (m[3]) out.push({ kind: 'string', text: m[3] });
    else if (m[4]) out.push({ kind: 'number', text: m[4] });
    else if (m[5]) {
      // `--` starts a comment, `/*` one too: left out rather than read.
      const last = out.at(-1);
      if (
        (m[5] === '-' || m[5] === '*') &&
        last?.kind === 'punct' &&
        last.text === (m[5] === '-' ? '-' : '/')
      )
        return undefined;
      out.push({ kind: 'punct', text: m[5] });
    }
  }
  return out;
}

function pragmaProblem(statement: Token[]): string | undefined {
  let i = 1;
  if (statement[i + 1]?.text === '.') i += 2;
  const name = statement[i];
  if (name?.kind !== 'word' || !PRAGMAS.has(name.text))
    return `PRAGMA ${name?.text ?? ''} can change the database`;
  const rest = statement.slice(i + 1);
  if (rest.length === 0) return undefined;
  const [open, arg, close, ...more] = rest;
  if (
    PRAGMAS_WITH_NAME.has(name.text) &&
    open?.text === '(' &&
    arg &&
    arg.kind !== 'punct' &&
    close?.text === ')' &&
    more.length === 0
  )
    return undefined;
  return `PRAGMA ${name.text} with a value can change the database`;
}

function statementProblem(statement: Token[]): string | undefined {
  const first = statement[0]!;
  if (first.kind === 'word' && first.text === 'pragma') return pragmaProblem(statement);
  if (first.kind !== 'word' || !READ_STATEMENTS.has(first.text))
    return `${first.text} is not a read-only statement`;
  for (const [i, token] of statement.entries()) {
    if (token.kind !== 'word' && token.kind !== 'quoted') continue;
    const call = statement[i + 1]?.text === '(';
    if (token.kind === 'word' && WRITE_WORDS.has(token.text) && !(token.text === 'replace' && call))
      return `${token.text.toUpperCase()} can write`;
    if (token.kind === 'word' && KEYWORDS.has(token.text)) continue;
    if (call && !FUNCTIONS.has(token.text)) return `${token.text}() is not a known read-only function`;
    if (!call && !/^[a-z_][a-z0-9_]*$/.test(token.text)) return `the name ${token.text} is not read`;
    // A name the shell binds to its file functions reads or writes files (fsdir, zipfile) even without ().
    if (
      !call &&
      /^(fsdir|zipfile|zipfile_cds|readfile|writefile|edit|load_extension|fts3_tokenizer)$/.test(token.text)
    )
      return `${token.text} reads or writes files`;
  }
  return undefined;
}

/** Why an SQL argument may do more than read, or undefined when every statement only reads. */
export function sqlProblem(sql: string): string | undefined {
  const list = tokens(sql);
  if (!list) return 'SQL with parameters, comments or characters automode does not read';
  let statement: Token[] = [];
  let count = 0;
  for (const token of [...list, { kind: 'punct', text: ';' } as Token]) {
    if (token.text !== ';' || token.kind !== 'punct') {
      statement.push(token);
      continue;
    }
    if (statement.length > 0) {
      const problem = statementProblem(statement);
      if (problem) return problem;
      count++;
    }
    statement = [];
  }
  return count === 0 ? 'an empty statement' : undefined;
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
 * The database is read. Opened read-only (`-readonly`, `mode=ro`), a database in WAL mode still gets its `-wal`
 * and `-shm` files created beside it: only the file's header says which mode it is in, so the policy reads it
 * when it decides (a tree write of the database's folder, names `sqlite`), unless `immutable=1` is given too
 * (immutable alone creates a missing file). Opened for writing, the database and its journals are written.
 * Commands the allow-list does not read may write any file.
 */
function sqliteEffects(cmd: CommandView): EffectsResult {
  const parsed = parse(cmd);
  if (!parsed || !readOnlyOptions(parsed)) return UNKNOWN;
  if (has(parsed, '-version', '-help')) return { effects: [], known: true };
  const open = opened(parsed, cmd.argv);
  if ('problem' in open || open.commandProblem !== undefined) return UNKNOWN;
  const { db, readonly } = open;
  if (!db.path) return { effects: [], known: true };
  const beside = (suffix: string): Word => ({
    ...db.path!,
    text: `${db.path!.text}${suffix}`,
    value: `${db.path!.value}${suffix}`,
  });
  const effects: FileEffect[] = [argument('read', db.path)];
  if (!readonly)
    effects.push(
      argument('write', db.path),
      argument('create', beside('-journal')),
      argument('create', beside('-wal')),
      argument('create', beside('-shm')),
    );
  else if (!db.immutable)
    effects.push(treeWrite(folderOf(db.path), 'argument', { kind: 'sqlite', database: db.path }));
  return { effects, known: true };
}

function readOnlyOptions(parsed: Parsed): boolean {
  return parsed.options.every((option) => READ_ONLY_OPTIONS.includes(option.name));
}

/**
 * Read-only: every option only shapes the output, the database is opened read-only (`-readonly`, or a `file:`
 * URI with `mode=ro`) or is none (`:memory:`), and at least one command is given, each (and each `-cmd`) a
 * dot-command or SQL the allow-lists read (with none, the shell reads its commands from stdin).
 */
function readOnlyCheck(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, '-version', '-help')) return undefined;
  const open = opened(parsed, words);
  if ('problem' in open) return open.problem;
  if (!open.readonly && open.db.path)
    return 'sqlite3 without -readonly (or a file: URI with mode=ro) can write the database';
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
    ],
    operands: ['app.db', 'journal.db', 'wal.db', ':memory:'],
  },
};
