import { closeSync, lstatSync, openSync, readSync, statSync } from 'node:fs';

const MAGIC = 'SQLite format 3\0';

/**
 * What opening the SQLite database at `path` read-only creates beside it, from the database's header (read-only,
 * 20 bytes): nothing when there is no file (the shell cannot open it), an empty file (an empty database) or a
 * database in rollback-journal mode (bytes 18 and 19 are 1) with no `-wal` or `-journal` beside it; its `-wal`
 * and `-shm` files when it is in WAL mode (2), which a reader creates and leaves. Anything else: why not.
 */
export function sqliteReadWrites(path: string): string[] | { why: string } {
  const unknown = (why: string) => ({ why });
  // Looked at before it is opened: opening a FIFO would wait for a writer.
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch {
    return unknown(`${path} cannot be read`);
  }
  if (!stat) return [];
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
  const [write, read] = [header[18], header[19]];
  if (write === 2 && read === 2) return [`${path}-wal`, `${path}-shm`];
  if (write !== 1 || read !== 1) return unknown(`${path} is in a journal mode automode does not read`);
  for (const beside of ['-wal', '-journal']) {
    if (lstatSync(`${path}${beside}`, { throwIfNoEntry: false }))
      return unknown(`${path}${beside} is left from an earlier connection, which a reader may replay`);
  }
  return [];
}
