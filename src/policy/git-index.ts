import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** Index files larger than this are not read: the caller looks through the folder instead. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** One entry of the index: its path and the stat data git compares the work tree's file against. */
export interface IndexEntry {
  path: string;
  mtimeSeconds: number;
  size: number;
  mode: number;
}

const cache = new Map<string, { key: string; paths: readonly string[]; entries: readonly IndexEntry[] }>();

/**
 * The paths git tracks in the repository whose git folder is `gitDir` (its index, `.git/index`), relative to
 * the top of the work tree; undefined when the index cannot be read or is in a form not known here (the caller
 * then reads the whole folder). Versions 2, 3 and 4 of the format; sparse-index directory entries count as the
 * folder they stand for. Cached by the file's identity, size and change time.
 */
export function trackedPaths(gitDir: string): readonly string[] | undefined {
  return readIndex(gitDir)?.paths;
}

/** The index's entries with their stat data (see `trackedPaths`). */
export function indexEntries(gitDir: string): readonly IndexEntry[] | undefined {
  return readIndex(gitDir)?.entries;
}

function readIndex(gitDir: string): { paths: readonly string[]; entries: readonly IndexEntry[] } | undefined {
  const file = join(gitDir, 'index');
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_INDEX_BYTES) return undefined;
    const key = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
    const cached = cache.get(file);
    if (cached?.key === key) return cached;
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    const entries = parseIndex(data);
    if (!entries) return undefined;
    const parsed = { key, paths: entries.map((e) => e.path), entries };
    cache.set(file, parsed);
    return parsed;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Entry fields before the flags: ctime, mtime, dev, ino, mode, uid, gid, size (4 bytes each), the object id. */
const FIXED = 40 + 20;

function parseIndex(data: Buffer): IndexEntry[] | undefined {
  if (data.length < 12 || data.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = data.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = data.readUInt32BE(8);
  const paths: IndexEntry[] = [];
  let at = 12;
  let previous = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + FIXED + 2 > data.length) return undefined;
    at += FIXED;
    const flags = data.readUInt16BE(at);
    at += 2;
    if (flags & 0x4000) {
      if (version < 3) return undefined;
      at += 2;
    }
    let name: Buffer;
    if (version === 4) {
      let strip = 0;
      let byte: number;
      let first = true;
      do {
        if (at >= data.length) return undefined;
        byte = data[at++]!;
        if (!first) strip += 1;
        strip = (strip << 7) | (byte & 0x7f);
        first = false;
      } while (byte & 0x80);
      const end = data.indexOf(0, at);
      if (end < 0 || strip > previous.length) return undefined;
      name = Buffer.concat([previous.subarray(0, previous.length - strip), data.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = data.indexOf(0, at);
      if (end < 0) return undefined;
      name = data.subarray(at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes from their start.
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = Buffer.from(name);
    paths.push({
      path: name.toString('utf8').replace(/\/$/, ''),
      mtimeSeconds: data.readUInt32BE(start + 8),
      mode: data.readUInt32BE(start + 24),
      size: data.readUInt32BE(start + 36),
    });
  }
  return paths;
}
