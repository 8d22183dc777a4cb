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
});

describe('sqlite3 opened read-only: the journals it would create are read from the database header', () => {
  it.each([
    'sqlite3 -readonly app.db .tables',
    "sqlite3 -readonly app.db 'SELECT count(*) FROM t'",
    "sqlite3 'file:data/app.db?mode=ro' .schema",
    'sqlite3 -readonly missing.db .tables',
    'sqlite3 -readonly empty.db .tables',
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
    ['sqlite3 app.db .tables', /without -readonly/],
  ])('%s asks', async (command, why) => {
    const v = await box.bash(command);
    expect(v.decision).toBe('ask');
    expect(v.reason).toMatch(why);
  });
});
