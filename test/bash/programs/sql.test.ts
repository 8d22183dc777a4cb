import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  type Dialect,
  DUCKDB,
  MYSQL,
  POSTGRES,
  SQLITE,
  sqlProblem,
} from '../../../src/bash/programs/sql/index.js';

const DIALECTS: Record<string, Dialect> = {
  sqlite: SQLITE,
  duckdb: DUCKDB,
  postgres: POSTGRES,
  mysql: MYSQL,
};

/** Statements every dialect reads as only reading. */
const READS_EVERYWHERE = [
  'SELECT 1',
  'select 1;',
  'SELECT count(*), max(id) FROM (SELECT 1 AS id) AS t',
  'SELECT lower(name) AS n FROM (SELECT 1 AS name) x WHERE 1 = 1 ORDER BY 1 DESC LIMIT 5',
  "SELECT 'a;b', 'it''s', 'DROP TABLE t -- not a comment'",
  'WITH x AS (SELECT 1 AS a) SELECT a FROM x',
  "SELECT CASE WHEN 1 > 0 THEN 'y' ELSE 'n' END",
  'SELECT row_number() OVER (PARTITION BY a ORDER BY b) FROM (SELECT 1 AS a, 2 AS b) t',
];

/** Statements no dialect reads as only reading. */
const NOT_READS_EVERYWHERE = [
  '',
  ';',
  'DELETE FROM t',
  'delete from t',
  'INSERT INTO t VALUES (1)',
  'UPDATE t SET a = 1',
  'DROP TABLE t',
  'CREATE TABLE t (a int)',
  'ALTER TABLE t ADD COLUMN b int',
  'TRUNCATE t',
  'SELECT 1; DROP TABLE t',
  'SELECT 1;DELETE FROM t',
  'WITH x AS (SELECT 1) DELETE FROM t',
  'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d',
  'EXPLAIN ANALYZE DELETE FROM t',
  'EXPLAIN ANALYZE SELECT 1',
  'EXPLAIN INSERT INTO t VALUES (1)',
  'SELECT * INTO t2 FROM t',
  'SELECT 1 -- comment',
  'SELECT 1 /* c */',
  'SELECT 1 --\nDROP TABLE t',
  'SELECT 1 /*\n*/; DROP TABLE t',
  'SELECT ?',
  'SELECT $1',
  'SELECT :x',
  'SELECT @x',
  "SELECT 'a\\'; DROP TABLE t; -- '",
  "SELECT E'\\''",
  "SELECT x'00'",
  'SELECT * FROM t FOR UPDATE',
  'SELECT * FROM t FOR SHARE',
  'SELECT my_function(1)',
  'SELECT public.lower(name) FROM t',
  'SELECT "evil"(1)',
  'BEGIN',
  'COMMIT',
  'SET x = 1',
  'GRANT ALL ON t TO u',
  'CALL p()',
  'EXEC p',
  "COPY t TO '/tmp/x'",
  'VACUUM',
  'ANALYZE',
  'SELECT 1 # comment',
  'SELECT {fn x}',
  'SELECT [a] FROM t',
];

describe('the SQL allow-lists', () => {
  for (const [name, dialect] of Object.entries(DIALECTS)) {
    test.each(READS_EVERYWHERE)(`${name}: %j only reads`, (sql) => {
      expect(sqlProblem(sql, dialect)).toBeUndefined();
    });
    test.each(NOT_READS_EVERYWHERE)(`${name}: %j may do more than read`, (sql) => {
      expect(sqlProblem(sql, dialect)).toBeDefined();
    });
  }

  test.each([
    ['sqlite', 'SELECT * FROM users WHERE id = 1'],
    ['sqlite', 'PRAGMA table_info(users)'],
    ['sqlite', "SELECT * FROM pragma_table_info('t')"],
    ['sqlite', "SELECT replace(name, 'a', 'b') FROM t"],
    ['sqlite', 'EXPLAIN QUERY PLAN SELECT * FROM t'],
    ['sqlite', "SELECT json_extract(data, '$.a') FROM t"],
    ['postgres', 'SELECT * FROM users LIMIT 10'],
    ['postgres', 'SELECT id::text, now() FROM orders'],
    ['postgres', 'SHOW search_path'],
    ['postgres', 'SHOW ALL'],
    ['postgres', "EXPLAIN SELECT * FROM t WHERE name ILIKE '%shoe%'"],
    ['postgres', 'SELECT pg_size_pretty(pg_database_size(current_database()))'],
    ['postgres', 'TABLE users'],
    ['mysql', 'SHOW TABLES'],
    ['mysql', 'SHOW FULL TABLES FROM app'],
    ['mysql', "SHOW TABLES LIKE 'user%'"],
    ['mysql', 'SHOW CREATE TABLE users'],
    ['mysql', 'DESCRIBE users'],
    ['mysql', 'SELECT id FROM t'],
    ['mysql', 'EXPLAIN SELECT * FROM t'],
    ['duckdb', 'SELECT 42'],
    ['duckdb', 'SELECT * FROM range(10)'],
    ['duckdb', 'SELECT * FROM (VALUES (1), (2)) v(a)'],
    ['duckdb', 'WITH x AS (SELECT 1 AS a) SELECT * FROM x JOIN x AS y USING (a)'],
    [
      'duckdb',
      'WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3), u AS MATERIALIZED (SELECT 2) SELECT * FROM t, u',
    ],
    ['duckdb', 'SHOW TABLES'],
    ['duckdb', 'SHOW ALL TABLES'],
    ['duckdb', 'SELECT version()'],
  ])('%s: %j only reads', (name, sql) => {
    expect(sqlProblem(sql, DIALECTS[name]!)).toBeUndefined();
  });

  test.each([
    // sqlite: the shell's file functions and anything that changes the database or opens another.
    ['sqlite', "SELECT writefile('.git/hooks/pre-commit', 'x')"],
    ['sqlite', "SELECT readfile('.env')"],
    ['sqlite', "SELECT edit('x', 'vi')"],
    ['sqlite', "WITH edit AS (SELECT 1) SELECT edit('x', 'vi')"],
    ['sqlite', 'WITH t AS (SELECT 1) SELECT edit(a, b) FROM t'],
    ['sqlite', "SELECT load_extension('./x.so')"],
    ['sqlite', "SELECT * FROM fsdir('.')"],
    ['sqlite', "SELECT data FROM fsdir WHERE name = '.env'"],
    ['sqlite', 'SELECT * FROM "fsdir"(\'.\')'],
    ['sqlite', "SELECT * FROM zipfile('a.zip')"],
    ['sqlite', "SELECT fts3_tokenizer('simple')"],
    ['sqlite', "ATTACH DATABASE 'x.db' AS x"],
    ['sqlite', "VACUUM INTO 'x.db'"],
    ['sqlite', 'PRAGMA user_version = 5'],
    ['sqlite', 'PRAGMA user_version(5)'],
    ['sqlite', 'PRAGMA journal_mode=WAL'],
    ['sqlite', 'PRAGMA writable_schema'],
    ['sqlite', 'REPLACE INTO t VALUES (1)'],
    ['sqlite', 'INSERT OR REPLACE INTO t VALUES (1)'],
    ['sqlite', 'SHOW TABLES'],
    // duckdb: files, URLs, extensions, other databases, and names that may be files or views.
    ['duckdb', "SELECT * FROM read_csv('data.csv')"],
    ['duckdb', "SELECT * FROM read_text('~/.ssh/id_rsa')"],
    ['duckdb', "SELECT * FROM 'data.csv'"],
    ['duckdb', 'SELECT * FROM "data.parquet"'],
    ['duckdb', 'SELECT * FROM data.parquet'],
    ['duckdb', 'SELECT * FROM users'],
    ['duckdb', 'SELECT * FROM users WINDOW users AS (ORDER BY 1)'],
    ['duckdb', 'SELECT * FROM (SELECT 1) x, y WINDOW y AS (ORDER BY 1)'],
    ['duckdb', 'WITH a AS (SELECT 1) SELECT * FROM a, b'],
    ['duckdb', 'SELECT * FROM range(3), users'],
    ['duckdb', 'SELECT * FROM range(3) JOIN users USING (x)'],
    ['duckdb', "SELECT * FROM read_parquet('https://example.com/x.parquet')"],
    ['duckdb', "SELECT * FROM query('DELETE FROM t')"],
    ['duckdb', "COPY (SELECT 1) TO 'x.csv'"],
    ['duckdb', 'INSTALL httpfs'],
    ['duckdb', 'LOAD httpfs'],
    ['duckdb', "ATTACH 'other.db'"],
    ['duckdb', 'DESCRIBE users'],
    ['duckdb', 'SUMMARIZE users'],
    ['duckdb', 'SHOW users'],
    ['duckdb', "SELECT getenv('AWS_SECRET_ACCESS_KEY')"],
    ['duckdb', 'PRAGMA database_size'],
    // postgres: files, large objects, sequences, other servers, sleeps, settings, statements run from strings.
    ['postgres', "SELECT pg_read_file('/etc/passwd')"],
    ['postgres', "SELECT pg_catalog.pg_read_file('/etc/passwd')"],
    ['postgres', "SELECT lo_export(1, '/tmp/x')"],
    ['postgres', "SELECT nextval('s')"],
    ['postgres', "SELECT setval('s', 1)"],
    ['postgres', "SELECT * FROM dblink('host=evil', 'SELECT 1') AS t(a int)"],
    ['postgres', 'SELECT pg_sleep(10)'],
    ['postgres', "SELECT set_config('a', 'b', false)"],
    ['postgres', "SELECT query_to_xml('DELETE FROM t', true, true, '')"],
    ['postgres', 'SELECT pg_terminate_backend(1)'],
    ['postgres', 'SELECT txid_current()'],
    ['postgres', 'SELECT $$x$$'],
    ['postgres', 'EXPLAIN (ANALYZE) DELETE FROM t'],
    ['postgres', 'EXPLAIN (ANALYZE, BUFFERS) SELECT 1'],
    ['postgres', 'SELECT * FROM t FOR NO KEY UPDATE'],
    ['postgres', 'SHOW search_path; RESET ALL'],
    ['postgres', 'LISTEN x'],
    ['postgres', 'DO $$BEGIN END$$'],
    // mysql: files, locks, sleeps, client commands.
    ['mysql', "SELECT * FROM t INTO OUTFILE '/tmp/x'"],
    ['mysql', "SELECT 1 INTO DUMPFILE '/tmp/x'"],
    ['mysql', "SELECT load_file('/etc/passwd')"],
    ['mysql', "SELECT get_lock('a', 10)"],
    ['mysql', 'SELECT sleep(10)'],
    ['mysql', "SELECT benchmark(1000000, md5('a'))"],
    ['mysql', 'SELECT * FROM t LOCK IN SHARE MODE'],
    ['mysql', "LOAD DATA LOCAL INFILE 'x' INTO TABLE t"],
    ['mysql', 'system id'],
    ['mysql', 'SELECT 1 \\! id'],
    ['mysql', 'SELECT 1\\G'],
    ['mysql', 'source x.sql'],
    ['mysql', 'SHOW GRANTS'],
    ['mysql', "SHOW CREATE USER 'root'"],
    ['mysql', 'USE other'],
    ['mysql', 'SELECT /*! sleep(10) */ 1'],
    ['mysql', 'HANDLER t OPEN'],
  ])('%s: %j may do more than read', (name, sql) => {
    expect(sqlProblem(sql, DIALECTS[name]!)).toBeDefined();
  });

  test('a read-only statement followed by any statement that is not one is not read-only', () => {
    const reads = fc.constantFrom(...READS_EVERYWHERE.filter((s) => !s.endsWith(';')));
    const writes = fc.constantFrom(
      'DELETE FROM t',
      'drop table t',
      'INSERT INTO t VALUES (1)',
      'UPDATE t SET a = 1',
      'CREATE TABLE x (a int)',
    );
    const glue = fc.constantFrom(';', '; ', ';\n', ' ;\t');
    const dialect = fc.constantFrom(...Object.values(DIALECTS));
    fc.assert(
      fc.property(reads, glue, writes, dialect, (read, sep, write, d) => {
        expect(sqlProblem(`${read}${sep}${write}`, d)).toBeDefined();
        expect(sqlProblem(`${write}${sep}${read}`, d)).toBeDefined();
      }),
    );
  });

  test('a comment, a parameter or an escape anywhere in a statement is never read', () => {
    const inserts = fc.constantFrom('--', '/*', '*/', '#', '?', '$1', ':x', '@x', '\\', '$$');
    fc.assert(
      fc.property(fc.constantFrom(...READS_EVERYWHERE), fc.nat(), inserts, (sql, at, insert) => {
        const cut = at % (sql.length + 1);
        const text = `${sql.slice(0, cut)} ${insert} ${sql.slice(cut)}`;
        // Inside a string literal the text is data: only check cuts outside quotes.
        const quotes = (sql.slice(0, cut).match(/'/g) ?? []).length;
        if (quotes % 2 === 1) return;
        for (const d of Object.values(DIALECTS)) expect(sqlProblem(text, d), text).toBeDefined();
      }),
    );
  });
});
