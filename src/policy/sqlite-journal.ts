import { spawnSync } from 'node:child_process';
import { closeSync, lstatSync, openSync, readSync, statSync } from 'node:fs';
import { sqliteViewProblem } from '../bash/index.js';

const MAGIC = 'SQLite format 3\0';
const SCHEMA_TIMEOUT_MS = 5_000;

/**
 * What a connection to the SQLite database at `path` that runs only reads creates beside it, from the database's
 * header (read-only, 20 bytes): nothing when there is no file (the shell cannot open it read-only; opened for
 * writing, it creates the file empty), an empty file (an empty database), an `immutable` one, or a database in
 * rollback-journal mode (bytes 18 and 19 are 1) with no `-wal` or `-journal` beside it; its `-wal` and `-shm`
 * files when it is in WAL mode (2), which a read-only reader creates and leaves (a writable one removes them when
 * it closes). A view whose query calls a function the allow-list does not read (the shell's `edit()` runs a
 * program) would run with the statement that reads it: the schema is read too. Anything else: why not.
 */
export function sqliteReadWrites(
  path: string,
  how: { writable?: true; immutable?: true } = {},
): string[] | { why: string } {
  const unknown = (why: string) => ({ why });
  // Looked at before it is opened: opening a FIFO would wait for a writer.
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    return unknown(`${path} cannot be read`);
  }
  if (!stat) return how.writable ? [path] : [];
  if (!stat.isFile()) return unknown(`${path} is not a regular file`);
  if (stat.size === 0) return [];
  const header = Buffer.alloc(20);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    if (readSync(fd, header, 0, 20, 0) < 20) return unknown(`${path} is not an SQLite database`);
  } catch {
    return unknown(`${path} cannot be read`);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (header.subarray(0, 16).toString('latin1') !== MAGIC)
    return unknown(`${path} is not an SQLite database`);
  const schema = schemaProblem(path);
  if (schema) return unknown(schema);
  if (how.immutable) return [];
  const [write, read] = [header[18], header[19]];
  if (write === 2 && read === 2) return [`${path}-wal`, `${path}-shm`];
  if (write !== 1 || read !== 1) return unknown(`${path} is in a journal mode automode does not read`);
  for (const beside of ['-wal', '-journal']) {
    if (lstatSync(`${path}${beside}`, { throwIfNoEntry: false }))
      return unknown(`${path}${beside} is left from an earlier connection, which a reader may replay`);
  }
  return [];
}

/**
 * Why the schema of the database may make a read do more, from its `sqlite_master` rows as the system's sqlite3
 * prints them (`-safe`, immutable and read-only: no file, lock or journal is touched; no start-up file). Views
 * must only read, by the same allow-list as a statement; virtual tables only of the full-text and R*Tree modules.
 */
function schemaProblem(path: string): string | undefined {
  const uri = `file:${path.replace(/[%?#]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)}?mode=ro&immutable=1`;
  const result = spawnSync(
    'sqlite3',
    ['-init', '/dev/null', '-safe', '-readonly', '-json', uri, 'SELECT type, name, sql FROM sqlite_master'],
    {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
      timeout: SCHEMA_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
      encoding: 'utf8',
    },
  );
  if (result.error || result.status !== 0) return `the schema of ${path} could not be read`;
  let rows: unknown;
  try {
    rows = result.stdout.trim() === '' ? [] : JSON.parse(result.stdout);
  } catch {
    return `the schema of ${path} could not be read`;
  }
  if (!Array.isArray(rows)) return `the schema of ${path} could not be read`;
  for (const row of rows as { type?: unknown; name?: unknown; sql?: unknown }[]) {
    if (typeof row.sql !== 'string') continue;
    const problem = sqliteViewProblem(String(row.type), row.sql);
    if (problem) return `${String(row.type)} ${String(row.name)} in ${path}: ${problem}`;
  }
  return undefined;
}
