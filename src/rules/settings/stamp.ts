import { createHash } from 'node:crypto';
import { type BigIntStats, readdir, readdirSync, readFile, readFileSync, stat, statSync } from 'node:fs';

/**
 * What a settings file (or a folder of them) was when it was read: its stat signature taken BEFORE the read,
 * and a hash of exactly what was read. A write during the read changes the signature, so it is never missed.
 */
export interface FileStamp {
  path: string;
  kind: 'file' | 'folder';
  /** Inode, size, modification and change times; `-` when it did not exist. */
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
const bytesOf = (path: string) =>
  new Promise<Buffer>((resolve, reject) => readFile(path, (e, b) => (e ? reject(e) : resolve(b))));
const namesIn = (path: string) =>
  new Promise<string[]>((resolve, reject) => readdir(path, (e, n) => (e ? reject(e) : resolve(n))));

/** Reads a file, recording its stamp in `stamps`; throws as readFile does (ENOENT for a missing file). */
export async function readStamped(file: string, stamps?: FileStamp[]): Promise<string> {
  const before = await statOf(file).then(signed, () => MISSING);
  let bytes: Buffer;
  try {
    bytes = await bytesOf(file);
  } catch (e) {
    stamps?.push({ path: file, kind: 'file', ...before, hash: '' });
    throw e;
  }
  stamps?.push(withHash({ path: file, kind: 'file', ...before }, () => hashOf(bytes)));
  return bytes.toString('utf8');
}

/** Lists a folder, recording its stamp in `stamps`; throws as readdir does. */
export async function listStamped(folder: string, stamps?: FileStamp[]): Promise<string[]> {
  const before = await statOf(folder).then(signed, () => MISSING);
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
    return stamp.kind === 'file' ? hashOf(readFileSync(stamp.path)) : namesHash(readdirSync(stamp.path));
  } catch {
    return '';
  }
}

/**
 * Whether the file is still what was read: the same signature, and, while the signature is recent enough that
 * a write could have kept it, the same content. `now` is taken before this check.
 */
export function stampHolds(stamp: FileStamp, now: number = Date.now()): boolean {
  let current: Signed;
  try {
    // Without throwIfNoEntry a missing file costs an exception with its stack: most sources have no file.
    const stats = statSync(stamp.path, { bigint: true, throwIfNoEntry: false });
    current = stats ? signed(stats) : MISSING;
  } catch {
    current = MISSING;
  }
  if (current.signature !== stamp.signature) return false;
  if (stamp.settled || current === MISSING) return true;
  if (currentHash(stamp) !== stamp.hash) return false;
  if (now - current.changedMs > RACY_MS) stamp.settled = true;
  return true;
}
