import type { Dialect } from './dialects.js';
import { statements, type Token, tokenize } from './tokens.js';

export { type Dialect, DUCKDB, MYSQL, POSTGRES, SQLITE } from './dialects.js';
export { type Token, tokenize } from './tokens.js';

/**
 * Words that write, lock, change the session or open something else wherever they stand in a statement
 * (`WITH x AS (…) DELETE`, `SELECT … INTO`, `FOR UPDATE`, `LOCK IN SHARE MODE`, `EXPLAIN ANALYZE`, which runs it).
 */
const WRITE_WORDS = new Set(
  (
    'insert update delete merge replace upsert create drop alter truncate attach detach vacuum reindex analyze ' +
    'begin commit rollback savepoint into outfile dumpfile pragma returning trigger lock share set copy call ' +
    'exec execute grant revoke install prepare deallocate'
  ).split(' '),
);

const NAME = /^[a-z_][a-z0-9_]*$/;

/** Why an SQL text may do more than read in this dialect, or undefined when every statement only reads. */
export function sqlProblem(sql: string, dialect: Dialect): string | undefined {
  const list = tokenize(sql);
  if (!list) return 'SQL with comments, parameters, escapes or characters automode does not read';
  return statementsProblem(list, dialect);
}

/** Why the statements of a token list may do more than read, or undefined when each only reads. */
export function statementsProblem(list: readonly Token[], dialect: Dialect): string | undefined {
  const all = statements(list);
  if (all.length === 0) return 'an empty statement';
  for (const statement of all) {
    const problem = statementProblem(statement, dialect);
    if (problem) return problem;
  }
  return undefined;
}

function statementProblem(statement: Token[], dialect: Dialect): string | undefined {
  const first = statement[0]!;
  if (first.kind !== 'word' || !dialect.statements.has(first.text))
    return `${first.text} is not a read-only statement`;
  if (first.text === 'pragma') return pragmaProblem(statement);
  if (first.text === 'show') return showProblem(statement.slice(1), dialect);
  if ((first.text === 'describe' || first.text === 'desc') && !dialect.tableNames) {
    if (statement[1]?.text !== 'select') return `${first.text.toUpperCase()} of a name may read a file`;
  }
  return bodyProblem(statement, dialect);
}

/** Every word of a statement: no word that writes, every call on the allow-list, every name a plain one. */
function bodyProblem(statement: Token[], dialect: Dialect): string | undefined {
  const ctes = withNames(statement);
  for (const [i, token] of statement.entries()) {
    const next = statement[i + 1];
    if (!dialect.tableNames && token.kind === 'word' && (token.text === 'from' || token.text === 'join')) {
      const problem = sourceProblem(statement, i + 1, ctes);
      if (problem) return problem;
    }
    if (token.kind !== 'word' && token.kind !== 'quoted') continue;
    const call = next?.text === '(';
    if (token.kind === 'word' && WRITE_WORDS.has(token.text) && !(token.text === 'replace' && call))
      return `${token.text.toUpperCase()} can write`;
    if (token.kind === 'word' && dialect.keywords.has(token.text)) continue;
    if (call && aliasColumns(statement, i)) continue;
    if (call) {
      if (statement[i - 1]?.text === '.') return `${token.text}() is a function of a schema, not a built-in`;
      if (!dialect.functions.has(token.text)) return `${token.text}() is not a known read-only function`;
      continue;
    }
    if (!NAME.test(token.text)) return `the name ${token.text} is not read`;
    if (dialect.fileNames?.has(token.text)) return `${token.text} reads or writes files`;
  }
  return undefined;
}

/** The names a leading `WITH` defines: `WITH [RECURSIVE] a [(cols)] AS [[NOT] MATERIALIZED] (…), b AS (…)`. */
function withNames(statement: readonly Token[]): Set<string> {
  const names = new Set<string>();
  if (statement[0]?.text !== 'with') return names;
  let i = statement[1]?.text === 'recursive' ? 2 : 1;
  const skipParens = () => {
    let depth = 0;
    do {
      const text = statement[i]?.text;
      if (text === undefined) return false;
      if (text === '(') depth++;
      else if (text === ')') depth--;
      i++;
    } while (depth > 0);
    return true;
  };
  for (;;) {
    const name = statement[i];
    if (name?.kind !== 'word') return names;
    i++;
    if (statement[i]?.text === '(' && !skipParens()) return names;
    if (statement[i]?.text !== 'as') return names;
    i++;
    if (statement[i]?.text === 'not') i++;
    if (statement[i]?.text === 'materialized') i++;
    if (statement[i]?.text !== '(' || !skipParens()) return names;
    names.add(name.text);
    if (statement[i]?.text !== ',') return names;
    i++;
  }
}

/**
 * `(VALUES …) v(a, b)`, `AS t(a)`, `WITH t(a) AS (…)`: a name with its columns after a source or before a
 * query's `AS (`, not a call.
 */
function aliasColumns(statement: readonly Token[], at: number): boolean {
  const before = statement[at - 1];
  const source = before && (before.text === ')' || (before.kind === 'word' && before.text === 'as'));
  for (let i = at + 2; i < statement.length; i++) {
    const token = statement[i]!;
    if (token.text === ')') {
      const after = statement.slice(i + 1, i + 4).map((t) => t.text);
      const query = after[0] === 'as' && ['(', 'not', 'materialized'].includes(after[1] ?? '');
      return i > at + 2 && (source || query);
    }
    const expected = (i - at) % 2 === 0 ? token.kind === 'word' && NAME.test(token.text) : token.text === ',';
    if (!expected) return false;
  }
  return false;
}

/**
 * Where DuckDB reads names as tables, a name it does not find may be a file it reads (`FROM 'data.csv'`,
 * `FROM data.parquet`) and a view may read any file: only a subquery, a listed function or a name the statement
 * defines (`WITH x AS (…)`) is read. After the first source, each `,` at the same depth starts another.
 */
function sourceProblem(statement: Token[], at: number, ctes: ReadonlySet<string>): string | undefined {
  let depth = 0;
  let expect = true;
  for (let i = at; i < statement.length; i++) {
    const token = statement[i]!;
    if (expect) {
      const call = statement[i + 1]?.text === '(';
      if (token.text === '(' || (token.kind === 'word' && (call || ctes.has(token.text)))) expect = false;
      else if (token.kind === 'word' && token.text === 'lateral') continue;
      else return `${token.text} names a table, which DuckDB may read from a file`;
    }
    if (token.text === '(') depth++;
    else if (token.text === ')') {
      if (depth === 0) return undefined;
      depth--;
    } else if (depth === 0 && token.text === ',') expect = true;
    else if (
      depth === 0 &&
      token.kind === 'word' &&
      /^(where|group|order|limit|union|join|having|window|qualify|on|using)$/.test(token.text)
    )
      return undefined;
  }
  return undefined;
}

function showProblem(rest: Token[], dialect: Dialect): string | undefined {
  if (rest.length === 0) return 'SHOW of nothing';
  if (!dialect.show) {
    return rest.length === 1 && rest[0]!.kind === 'word' ? undefined : 'SHOW with more than a setting name';
  }
  for (const [i, token] of rest.entries()) {
    if (token.kind === 'word' && dialect.show.has(token.text)) continue;
    const after = rest[i - 1]?.text;
    const named =
      dialect.name !== 'duckdb' &&
      after !== undefined &&
      ['from', 'in', '.', 'table', 'view'].includes(after);
    if (named && token.kind === 'word' && NAME.test(token.text)) continue;
    if (dialect.name !== 'duckdb' && after === 'like' && token.kind === 'string') continue;
    if (dialect.name !== 'duckdb' && token.text === '.') continue;
    return `SHOW ${token.text} is not a known listing`;
  }
  return undefined;
}

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

/** SQLite's PRAGMA that reads: a listed name with no value, or a name in () where the pragma takes one. */
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
