import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandboxClassifier } from './helpers.js';

function sqlite(db: string, sql: string): void {
  execFileSync('sqlite3', [db, sql], { stdio: 'ignore' });
}

/** Databases in each journal mode, an empty one, one with a journal left beside it, and a file that is none. */
const box = useSandboxClassifier(async (b) => {
  const p = b.project;
  await mkdir(path.join(p, 'data'), { recursive: true });
  sqlite(path.join(p, 'app.db'), 'CREATE TABLE t(x); INSERT INTO t VALUES (1);');
  sqlite(path.join(p, 'data/app.db'), 'CREATE TABLE t(x);');
  sqlite(path.join(p, 'wal.db'), 'PRAGMA journal_mode=wal; CREATE TABLE t(x);');
  sqlite(path.join(p, 'left.db'), 'CREATE TABLE t(x);');
  await writeFile(path.join(p, 'left.db-journal'), 'x');
  await writeFile(path.join(p, 'empty.db'), '');
  await writeFile(path.join(p, 'notes.txt'), 'not a database\n');
  // Views run their queries when a statement reads them: the shell's edit() runs a program, even read-only.
  sqlite(
    path.join(p, 'views.db'),
    'CREATE TABLE users(id, name); CREATE VIEW names AS SELECT lower(name) AS n FROM users; CREATE INDEX i ON users(name); CREATE TRIGGER tr AFTER INSERT ON users BEGIN SELECT 1; END;',
  );
  sqlite(path.join(p, 'edit.db'), "CREATE TABLE t(x); CREATE VIEW v AS SELECT edit('x', 'touch ran') AS a;");
  sqlite(path.join(p, 'files.db'), "CREATE VIEW v AS SELECT readfile('.env') AS a;");
  sqlite(path.join(p, 'fts.db'), 'CREATE VIRTUAL TABLE docs USING fts5(body);');
  sqlite(path.join(p, 'zip.db'), "CREATE VIRTUAL TABLE z USING zipfile('a.zip');");
});

describe('sqlite3 opened read-only: the journals it would create are read from the database header', () => {
  it.each([
    'sqlite3 -readonly app.db .tables',
    "sqlite3 -readonly app.db 'SELECT count(*) FROM t'",
    "sqlite3 'file:data/app.db?mode=ro' .schema",
    'sqlite3 -readonly missing.db .tables',
    'sqlite3 -readonly empty.db .tables',
    "sqlite3 -readonly views.db 'SELECT * FROM names'",
    "sqlite3 -readonly fts.db 'SELECT count(*) FROM docs'",
    "sqlite3 'file:views.db?immutable=1' 'SELECT n FROM names'",
  ])('%s is allowed: a database in rollback-journal mode (or none) gets no file created', async (command) => {
    expect((await box.bash(command)).decision).toBe('allow');
  });

  it.each([
    ['sqlite3 -readonly wal.db .tables', /no rule allows/],
    ['sqlite3 -readonly left.db .tables', /left\.db-journal is left from an earlier connection/],
    ['sqlite3 -readonly notes.txt .tables', /notes\.txt is not an SQLite database/],
    [
      "sqlite3 app.db 'PRAGMA journal_mode=wal'; sqlite3 -readonly app.db .tables",
      /may change what it reads first/,
    ],
    ['sqlite3 missing.db .tables', /missing\.db/],
    ["sqlite3 missing.db 'SELECT 1'", /missing\.db/],
    ["sqlite3 wal.db 'SELECT * FROM t'", /no rule allows/],
    ["sqlite3 left.db 'SELECT * FROM t'", /left\.db-journal is left from an earlier connection/],
    ["sqlite3 -readonly edit.db 'SELECT * FROM v'", /view v .*edit\(\) is not a known read-only function/],
    ["sqlite3 'file:edit.db?mode=ro&immutable=1' .tables", /view v .*edit\(\)/],
    ["sqlite3 edit.db 'SELECT count(*) FROM t'", /view v .*edit\(\)/],
    ["sqlite3 -readonly files.db 'SELECT * FROM v'", /readfile\(\)/],
    ["sqlite3 -readonly zip.db 'SELECT * FROM z'", /virtual table of module zipfile/],
  ])('%s asks', async (command, why) => {
    const v = await box.bash(command);
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(why);
  });
});

describe('sqlite3 opened for writing runs only reads: what it creates is read from the database too', () => {
  it.each([
    'sqlite3 app.db .tables',
    "sqlite3 app.db 'SELECT * FROM t'",
    "sqlite3 -json app.db 'SELECT count(*) FROM t'",
    "sqlite3 -header -csv data/app.db 'SELECT 1'",
    "sqlite3 views.db 'SELECT * FROM names ORDER BY n'",
    'sqlite3 empty.db .schema',
  ])('%s is allowed: a database in rollback-journal mode gets no file created', async (command) => {
    const v = await box.bash(command);
    expect(v.decision, v.reason).toBe('allow');
  });

  it.each([
    "sqlite3 app.db 'DELETE FROM t'",
    "sqlite3 app.db 'SELECT 1; DROP TABLE t'",
    'sqlite3 app.db',
    "sqlite3 app.db '.output x.txt' 'SELECT 1'",
    "sqlite3 app.db \"SELECT writefile('x', 'y')\"",
  ])('%s asks', async (command) => {
    expect((await box.bash(command)).decision).toBe('ask');
  });
});
