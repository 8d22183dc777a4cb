import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { commandProblem, sqliteViewProblem } from '../../../src/bash/programs/sqlite3.js';
import { shown } from './support.js';

beforeAll(loadBash);

describe('sqlite3', () => {
  test.each([
    // A database in WAL mode gets its -wal and -shm files created even when opened read-only: the policy reads
    // which mode it is in from its header (a write below its folder whose names it reads).
    ['sqlite3 -readonly app.db .tables', ['read app.db', 'write .']],
    ['sqlite3 -readonly data/app.db .tables', ['read data/app.db', 'write data']],
    ['sqlite3 -readonly /srv/app.db .tables', ['read /srv/app.db', 'write /srv']],
    // Immutable: no side file, but the schema's views are still read when the policy decides.
    ["sqlite3 -readonly 'file:app.db?immutable=1' .tables", ['read app.db', 'write .']],
    ["sqlite3 'file:app.db?mode=ro&immutable=1' 'SELECT 1'", ['read app.db', 'write .']],
    // Opened for writing: a missing database is created, which the policy reads when it decides.
    ["sqlite3 'file:app.db?immutable=1' .tables", ['read app.db', 'write .']],
    ["sqlite3 app.db 'SELECT 1'", ['read app.db', 'write .']],
    ["sqlite3 -readonly :memory: 'SELECT 1'", []],
  ])('%s', (line, effects) => {
    expect(shown(line)).toMatchObject({ known: true, effects });
  });

  test.each([
    "sqlite3 -readonly app.db \"SELECT writefile('x', 'y')\"",
    'sqlite3 -readonly app.db "VACUUM INTO \'x.db\'"',
    "sqlite3 -readonly app.db 'ATTACH x.db AS x'",
    "sqlite3 -readonly 'file:app.db?vfs=unix-dotfile' .tables",
    "sqlite3 -readonly 'file:~/app.db?mode=ro' .tables",
    'sqlite3 -readonly "$DB" .tables',
    'sqlite3 -A -tvf app.db',
  ])('%s: files not listed', (line) => {
    expect(shown(line).known).toBe(false);
  });

  function verdict(line: string): { readOnly: boolean; reason: string } {
    const cmd = analyze(line).commands[0]!;
    const { readOnly, reason } = checkProgram(programSpec('sqlite3')!, cmd.argv, true);
    return { readOnly, reason };
  }

  test.each([
    'sqlite3 -readonly app.db .tables',
    "sqlite3 :memory: 'SELECT 1'",
    "sqlite3 -json '' 'SELECT sqlite_version()'",
    "sqlite3 -cmd '.mode box' -readonly app.db 'SELECT * FROM t'",
    "sqlite3 -cmd '.headers on' -cmd '.mode csv' 'file:app.db?mode=ro' 'SELECT 1'",
    'sqlite3 -version',
    "sqlite3 app.db 'SELECT * FROM users'",
    "sqlite3 -header -csv app.db 'SELECT 1'",
  ])('%s only reads', (line) => {
    expect(verdict(line)).toMatchObject({ readOnly: true });
  });

  test.each([
    ["sqlite3 -cmd '.shell id' :memory: .tables", /not a read-only dot-command/],
    ["sqlite3 -cmd 'DROP TABLE t' -readonly app.db .tables", /not a read-only statement/],
    ["sqlite3 -cmd 'SELECT 1' :memory:", /stdin/],
    ['sqlite3 -cmd "$Q" :memory: \'SELECT 1\'', /run time/],
    ["sqlite3 :memory: \"SELECT writefile('x', 'y')\"", /writefile/],
    ["sqlite3 -init x.sql :memory: 'SELECT 1'", /runs the commands of a file/],
  ])('%s is not read-only (%s)', (line, why) => {
    const v = verdict(line);
    expect(v.readOnly).toBe(false);
    expect(v.reason).toMatch(why);
  });

  test.each([
    ['sqlite3 app.db', ['stdin stdin']],
    ["sqlite3 -cmd '.mode box' -readonly app.db .tables", []],
    ["sqlite3 -readonly app.db '.shell id'", ['program-option dot-command']],
    ["sqlite3 -readonly app.db '.sh id'", ['program-option dot-command']],
    ['sqlite3 -init ./x.sql app.db .tables', ['script-file -init']],
    ["sqlite3 -cmd '.system id' app.db .tables", ['program-option -cmd']],
    ['sqlite3 -readonly app.db .tables', []],
    ['sqlite3 -version', []],
  ])('%s runs %j', (line, code) => {
    expect(shown(line).code).toEqual(code);
  });

  test.each([
    '.tables',
    '.schema --indent users',
    '.mode box',
    'SELECT * FROM users WHERE id = 1',
    'select name, count(*) from t group by name having count(*) > 1 order by 2 desc limit 5',
    'WITH x AS (SELECT 1 AS a) SELECT a FROM x',
    "SELECT replace(name, 'a', 'b') FROM t",
    'SELECT 1; SELECT 2;',
    'PRAGMA table_info(users)',
    'PRAGMA main.user_version',
    "SELECT * FROM pragma_table_info('t')",
  ])('%s only reads', (text) => {
    expect(commandProblem(text)).toBeUndefined();
  });

  test.each([
    '.shell id',
    '.system id',
    '.output x',
    '.once x',
    '.import x t',
    '.load ./x.so',
    '.save x.db',
    '.backup x.db',
    '.open x.db',
    '.tab',
    '.tables\n.shell id',
    '.schema x;.shell',
    "SELECT load_extension('./x.so')",
    "SELECT readfile('.env')",
    "SELECT writefile('x', 'y')",
    "SELECT edit('x', 'vi')",
    "SELECT * FROM fsdir('.')",
    "SELECT data FROM fsdir WHERE name = '.env'",
    'SELECT * FROM "fsdir"(\'.\')',
    "SELECT * FROM zipfile('a.zip')",
    'ATTACH DATABASE x.db AS x',
    "VACUUM INTO 'x.db'",
    'PRAGMA user_version = 5',
    'PRAGMA user_version(5)',
    'PRAGMA journal_mode=WAL',
    'PRAGMA writable_schema',
    'WITH x AS (SELECT 1) DELETE FROM t',
    'SELECT 1; DROP TABLE t',
    'INSERT INTO t VALUES (1)',
    'REPLACE INTO t VALUES (1)',
    'SELECT ?',
    'SELECT 1 -- comment',
    'SELECT 1 /* c */',
    '',
  ])('%j may do more than read', (text) => {
    expect(commandProblem(text)).toBeDefined();
  });

  test.each([
    ['view', 'CREATE VIEW v AS SELECT lower(name) FROM users'],
    ['view', 'CREATE VIEW "v" (a) AS SELECT 1'],
    ['table', 'CREATE TABLE t (a, b)'],
    ['table', 'CREATE VIRTUAL TABLE d USING fts5(body)'],
    ['index', 'CREATE INDEX i ON t (a)'],
    ['trigger', 'CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM u; END'],
  ])('a schema %s %j only reads when read', (type, sql) => {
    expect(sqliteViewProblem(type, sql)).toBeUndefined();
  });

  test.each([
    ['view', "CREATE VIEW v AS SELECT edit('x', 'sh')"],
    ['view', "CREATE VIEW v AS SELECT writefile('x', 'y')"],
    ['view', 'CREATE VIEW v AS SELECT * FROM fsdir'],
    ['view', 'CREATE VIEW v AS SELECT 1 -- x'],
    ['view', 'CREATE VIEW v AS PRAGMA user_version'],
    ['table', "CREATE VIRTUAL TABLE z USING zipfile('a.zip')"],
    ['table', 'CREATE VIRTUAL TABLE c USING csv(filename=x)'],
    ['other', 'CREATE X'],
  ])('a schema %s %j may do more when read', (type, sql) => {
    expect(sqliteViewProblem(type, sql)).toBeDefined();
  });

  test('the grammar is the options `sqlite3 -help` lists, both spellings, but those left unknown', () => {
    const help = spawnSync('sqlite3', ['-help'], { encoding: 'utf8' });
    expect(help.error, 'sqlite3 is installed (scripts/setup-sandbox.sh)').toBeUndefined();
    const listed = new Map<string, boolean>();
    for (const m of `${help.stdout}${help.stderr}`.matchAll(/^ {3}-(\[no\])?([a-z]+)( [A-Z?.]+)?/gm)) {
      listed.set(m[2]!, m[3] !== undefined);
      if (m[1]) listed.set(`no${m[2]}`, false);
    }
    // -A takes the rest of the line; -lookaside and -pagecache take two values: a line holding one is unknown.
    for (const name of ['A', 'lookaside', 'pagecache']) listed.delete(name);
    const words = programSpec('sqlite3')!.grammar.words;
    const spec = new Map(
      [...words].filter(([word]) => /^-[a-z]/.test(word)).map(([w, n]) => [w.slice(1), n.arity === 'value']),
    );
    expect(Object.fromEntries([...spec].sort())).toEqual(Object.fromEntries([...listed].sort()));
    for (const [word, named] of words) expect(named.name).toBe(`-${word.replace(/^-+/, '')}`);
  });
});
