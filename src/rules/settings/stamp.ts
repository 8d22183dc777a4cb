import { createHash } from 'node:crypto';
import {
  type BigIntStats,
  close,
  closeSync,
  constants,
  fstat,
  fstatSync,
  open,
  openSync,
  read,
  readdir,
  readdirSync,
  readSync,
  stat,
  statSync,
} from 'node:fs';

/**
 * What a settings file (or a folder of them) was when it was read: its stat signature taken BEFORE the read,
 * and a hash of exactly what was read. A write during the read changes the signature, so it is never missed.
 */
export interface FileStamp {
  path: string;
  kind: 'file' | 'folder';
  /**
   * Inode, size, modification and change times; `-` when it did not exist; `!CODE` when it could not be looked
   * at (a symlink loop, no permission): such a stamp never holds, so the source is looked at again every time.
   */
  signature: string;
  /** The change time in ms, to tell a signature a later write of the same size could repeat. */
  changedMs: number;
  /** The modification time in ms (0 when it did not exist). */
  modifiedMs: number;
  /** Hash of the bytes read (of the sorted names, for a folder); empty when nothing could be read. */
  hash: string;
  /** Set once the content was checked after the change time was older than the clock's granularity. */
  settled?: boolean;
}

/**
 * File systems keep times at a coarse granularity (a few ms, up to 2 s on FAT): within it, an in-place write of
 * the same size can leave the signature as it was, so a stamp that recent is confirmed by reading again.
 */
export const RACY_MS = 2_000;

type Signed = Pick<FileStamp, 'signature' | 'changedMs' | 'modifiedMs'>;

const MISSING: Signed = { signature: '-', changedMs: 0, modifiedMs: 0 };

/** What a failed stat means for a stamp: missing for a path that is not there, else a signature that never holds. */
function failedStat(e: unknown): Signed {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return MISSING;
  return { signature: `!${code ?? 'error'}`, changedMs: 0, modifiedMs: 0 };
}

const unreadable = (s: Signed) => s.signature.startsWith('!');

/**
 * The most a settings file may hold. Claude Code's own are a few kilobytes; a larger one is a mistake or a trap
 * (a file that never ends, a link to /dev/zero), and is a settings error rather than a read that never ends.
 */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** Why a file is refused before any byte is read, as an error with a code, or undefined for a regular file. */
function refusal(stats: {
  isFile(): boolean;
  isFIFO(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
  isSocket(): boolean;
  isDirectory(): boolean;
  size: number | bigint;
}): NodeJS.ErrnoException | undefined {
  if (!stats.isFile()) {
    const what = stats.isFIFO()
      ? 'a FIFO'
      : stats.isCharacterDevice()
        ? 'a character device'
        : stats.isBlockDevice()
          ? 'a block device'
          : stats.isSocket()
            ? 'a socket'
            : stats.isDirectory()
              ? 'a folder'
              : 'something else';
    const code = stats.isDirectory() ? 'EISDIR' : 'ENOTREG';
    return Object.assign(new Error(`${code}: it is ${what}, and settings are read only from regular files`), {
      code,
    });
  }
  if (Number(stats.size) > MAX_SETTINGS_BYTES) return tooLarge();
}

const tooLarge = () =>
  Object.assign(new Error(`EFBIG: the file is over ${MAX_SETTINGS_BYTES} bytes: not a settings file`), {
    code: 'EFBIG',
  });

/** Opening a FIFO for reading waits for a writer; non-blocking, it does not (and a regular file reads as usual). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

function signed(s: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): Signed {
  return {
    signature: `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`,
    changedMs: Math.max(Number(s.ctimeNs / 1_000_000n), Number(s.mtimeNs / 1_000_000n)),
    modifiedMs: Number(s.mtimeNs / 1_000_000n),
  };
}

const hashOf = (data: string | Buffer) => createHash('sha1').update(data).digest('hex');
const namesHash = (names: string[]) => hashOf(names.sort().join('\0'));

/**
 * The stamp, its hash computed when first read: a one-shot process (the command hook) never compares stamps,
 * and never loads node:crypto for them.
 */
function withHash(stamp: Omit<FileStamp, 'hash'>, hash: () => string): FileStamp {
  let value: string | undefined;
  return Object.defineProperty(stamp as FileStamp, 'hash', {
    enumerable: true,
    configurable: true,
    get: () => {
      value ??= hash();
      return value;
    },
  });
}

// The callback forms of node:fs: node:fs/promises is a module of its own that a hook call would load for this.
const statOf = (path: string) =>
  new Promise<BigIntStats>((resolve, reject) =>
    stat(path, { bigint: true }, (e, s) => (e ? reject(e) : resolve(s))),
  );

/**
 * A regular file's bytes, at most MAX_SETTINGS_BYTES, and its stat signature taken on the open file before the
 * read (a write during the read changes it). A FIFO, a device or a socket is refused unread, and a file that
 * grows past the bound while read is refused too.
 */
function bytesOf(path: string): Promise<{ bytes: Buffer; before: Signed }> {
  return new Promise((resolve, reject) => {
    open(path, OPEN_FLAGS, (e, fd) => {
      if (e) return reject(e);
      const done = (error: Error | undefined, value?: { bytes: Buffer; before: Signed }) =>
        close(fd, () => (error ? reject(error) : resolve(value as { bytes: Buffer; before: Signed })));
      fstat(fd, { bigint: true }, (e2, stats) => {
        if (e2) return done(e2);
        const refused = refusal(stats);
        if (refused) return done(refused);
        const before = signed(stats);
        const chunks: Buffer[] = [];
        let total = 0;
        const next = () => {
          const buffer = Buffer.allocUnsafe(Math.min(MAX_SETTINGS_BYTES + 1 - total, 64 * 1024) || 1);
          read(fd, buffer, 0, buffer.length, null, (e3, n) => {
            if (e3) return done(e3);
            if (n === 0) return done(undefined, { bytes: Buffer.concat(chunks, total), before });
            chunks.push(buffer.subarray(0, n));
            total += n;
            if (total > MAX_SETTINGS_BYTES) return done(tooLarge());
            next();
          });
        };
        next();
      });
    });
  });
}

/**
 * bytesOf, synchronously: the bytes, or undefined when they cannot be read or are refused (not a regular file,
 * over MAX_SETTINGS_BYTES). For any file automode reads on the agent's behalf that a project could make a FIFO.
 */
export function readRegularFileSync(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    if (refusal(fstatSync(fd))) return undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buffer = Buffer.allocUnsafe(64 * 1024);
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) return Buffer.concat(chunks, total);
      chunks.push(buffer.subarray(0, n));
      total += n;
      if (total > MAX_SETTINGS_BYTES) return undefined;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

const namesIn = (path: string) =>
  new Promise<string[]>((resolve, reject) => readdir(path, (e, n) => (e ? reject(e) : resolve(n))));

/**
 * Reads a regular file of at most MAX_SETTINGS_BYTES, recording its stamp in `stamps`; throws as readFile does
 * (ENOENT for a missing file), and for anything else at the path (ENOTREG, EISDIR) or a larger file (EFBIG).
 */
export async function readStamped(file: string, stamps?: FileStamp[]): Promise<string> {
  let read: { bytes: Buffer; before: Signed };
  try {
    read = await bytesOf(file);
  } catch (e) {
    // Missing stays missing (a file created later changes the stamp); anything else is looked at every time.
    const code = (e as NodeJS.ErrnoException).code;
    const before =
      code === 'ENOENT' || code === 'ENOTDIR' ? await statOf(file).then(signed, failedStat) : failedStat(e);
    stamps?.push({ path: file, kind: 'file', ...before, hash: '' });
    throw e;
  }
  const { bytes, before } = read;
  stamps?.push(withHash({ path: file, kind: 'file', ...before }, () => hashOf(bytes)));
  return bytes.toString('utf8');
}

/** Lists a folder, recording its stamp in `stamps`; throws as readdir does. */
export async function listStamped(folder: string, stamps?: FileStamp[]): Promise<string[]> {
  const before = await statOf(folder).then(signed, failedStat);
  let names: string[];
  try {
    names = await namesIn(folder);
  } catch (e) {
    stamps?.push({ path: folder, kind: 'folder', ...before, hash: '' });
    throw e;
  }
  const listed = [...names];
  stamps?.push(withHash({ path: folder, kind: 'folder', ...before }, () => namesHash(listed)));
  return names;
}

function currentHash(stamp: FileStamp): string {
  try {
    if (stamp.kind === 'folder') return namesHash(readdirSync(stamp.path));
    const bytes = readRegularFileSync(stamp.path);
    return bytes ? hashOf(bytes) : '';
  } catch {
    return '';
  }
}

/**
 * Whether the file is still what was read: the same signature, and, while the signature is recent enough that
 * a write could have kept it, the same content. `now` is taken before this check.
 */
export function stampHolds(stamp: FileStamp, now: number = Date.now()): boolean {
  if (unreadable(stamp)) return false;
  let current: Signed;
  try {
    // Without throwIfNoEntry a missing file costs an exception with its stack: most sources have no file.
    const stats = statSync(stamp.path, { bigint: true, throwIfNoEntry: false });
    current = stats ? signed(stats) : MISSING;
  } catch (e) {
    current = failedStat(e);
  }
  if (current.signature !== stamp.signature) return false;
  if (stamp.settled || current === MISSING) return true;
  if (currentHash(stamp) !== stamp.hash) return false;
  if (now - current.changedMs > RACY_MS) stamp.settled = true;
  return true;
}
