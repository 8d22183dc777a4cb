import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import zlib from 'node:zlib';
import { SEVEN_ZIP_LISTING } from '../bash/index.js';

/** Archives larger than this are not read: their write set is unknown. */
export const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** A compressed archive is read up to this many bytes once uncompressed. */
const MAX_EXPANDED_BYTES = 256 * 1024 * 1024;
/** More members than this are not checked one by one. */
export const MAX_MEMBERS = 20_000;

/** One member an archive holds, as it names it. */
export interface Member {
  name: string;
  /** A symbolic link: what is written below it later goes where it leads. */
  link?: boolean;
}

export type Listing = { kind: 'members'; members: Member[] } | { kind: 'unknown'; why: string };

const unknown = (why: string): Listing => ({ kind: 'unknown', why });

/** The whole file, or why it cannot be read within the bound. */
export function readBounded(path: string, max: number): Buffer | string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return `${path} cannot be read`;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return `${path} is not a regular file`;
    if (stat.size > max) return `${path} is larger than ${Math.round(max / 1024 / 1024)} MB`;
    const data = Buffer.alloc(stat.size);
    let read = 0;
    while (read < data.length) {
      const n = readSync(fd, data, read, data.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return data.subarray(0, read);
  } catch {
    return `${path} cannot be read`;
  } finally {
    closeSync(fd);
  }
}

/** The archive's bytes with a gzip (or, where Node has it, zstd) layer taken off; why not, for other layers. */
function uncompressed(data: Buffer): Buffer | string {
  const options = { maxOutputLength: MAX_EXPANDED_BYTES };
  try {
    if (data[0] === 0x1f && data[1] === 0x8b) return zlib.gunzipSync(data, options);
    if (data.readUInt32LE(0) === 0xfd2fb528) {
      const zstd = (zlib as { zstdDecompressSync?: (b: Buffer, o: object) => Buffer }).zstdDecompressSync;
      return zstd ? zstd(data, options) : 'it is compressed with zstd, which this Node cannot read';
    }
  } catch {
    return 'it cannot be uncompressed within the bound';
  }
  if (data.toString('latin1', 0, 3) === 'BZh') return decompressed('bzip2', data);
  if (data.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00])))
    return decompressed('xz', data);
  return data;
}

/** A decompressor that takes longer than this leaves the archive unread. */
const DECOMPRESS_TIMEOUT_MS = 5_000;

/**
 * The bytes uncompressed by the system's own decompressor (`bzip2 -dc`, `xz -dc`: stdin to stdout, no file
 * touched, no settings read from the environment), up to the bound; why not, when it fails, is missing, runs out
 * of time or the output is larger.
 */
function decompressed(program: 'bzip2' | 'xz', data: Buffer): Buffer | string {
  const result = spawnSync(program, ['-dc'], {
    input: data,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    timeout: DECOMPRESS_TIMEOUT_MS,
    maxBuffer: MAX_EXPANDED_BYTES,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  if (result.error || result.status !== 0)
    return `it is compressed with ${program}, which could not be uncompressed within the bound`;
  return result.stdout;
}

/**
 * The members of a tar, zip or cpio archive, from its headers; never runs the program. A 7z archive is listed by
 * the system's 7z (`7z l -slt`: it reads the archive and writes nothing; no password is asked for).
 */
export function listArchive(path: string, format: 'tar' | 'zip' | 'cpio' | '7z'): Listing {
  if (format === '7z') return list7z(path);
  const raw = readBounded(path, MAX_ARCHIVE_BYTES);
  if (typeof raw === 'string') return unknown(raw);
  if (format === 'zip') return listZip(raw);
  const data = uncompressed(raw);
  if (typeof data === 'string') return unknown(data);
  return format === 'tar' ? listTar(data) : listCpio(data);
}

/** The members of archive bytes read from elsewhere (stdin redirected from a file). */
export function listArchiveBytes(data: Buffer, format: 'tar' | 'zip' | 'cpio' | '7z'): Listing {
  if (format === '7z') return unknown('a 7z archive is read from a file only');
  if (format === 'zip') return listZip(data);
  const plain = uncompressed(data);
  if (typeof plain === 'string') return unknown(plain);
  return format === 'tar' ? listTar(plain) : listCpio(plain);
}

function cString(data: Buffer, start: number, length: number): string {
  const slice = data.subarray(start, start + length);
  const end = slice.indexOf(0);
  return slice.subarray(0, end < 0 ? slice.length : end).toString('utf8');
}

function octal(data: Buffer, start: number, length: number): number | undefined {
  if (data[start]! & 0x80) {
    // GNU base-256: big-endian, the top bit set.
    let value = data[start]! & 0x7f;
    for (let i = start + 1; i < start + length; i++) value = value * 256 + data[i]!;
    return value;
  }
  const text = cString(data, start, length).trim();
  if (text === '') return 0;
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : undefined;
}

function checksumOk(header: Buffer): boolean {
  const stored = octal(header, 148, 8);
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  return stored === sum;
}

/** A pax extended header's `path` (or `linkpath`) record. */
function paxPath(data: Buffer): string | undefined {
  let at = 0;
  let path: string | undefined;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number(data.toString('latin1', at, space));
    if (!Number.isInteger(length) || length <= 0) return undefined;
    const record = data.toString('utf8', space + 1, at + length - 1);
    const eq = record.indexOf('=');
    if (record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    at += length;
  }
  return path;
}

/** tar: ustar, GNU (long names) and pax headers. */
export function listTar(data: Buffer): Listing {
  const members: Member[] = [];
  let at = 0;
  let longName: string | undefined;
  while (at + 512 <= data.length) {
    const header = data.subarray(at, at + 512);
    if (header.every((b) => b === 0)) return { kind: 'members', members };
    if (!checksumOk(header)) return unknown('a tar header is damaged');
    const size = octal(header, 124, 12);
    if (size === undefined) return unknown('a tar header is damaged');
    const type = String.fromCharCode(header[156]!);
    const body = data.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = cString(body, 0, body.length);
      continue;
    }
    if (type === 'x') {
      longName = paxPath(body) ?? longName;
      continue;
    }
    if (type === 'K' || type === 'g') continue;
    if (type === 'V' || type === 'M' || type === 'N') return unknown('it uses GNU volume or rename headers');
    const magic = header.toString('latin1', 257, 262);
    const prefix = magic === 'ustar' ? cString(header, 345, 155) : '';
    const short = cString(header, 0, 100);
    const name = longName ?? (prefix ? `${prefix}/${short}` : short);
    longName = undefined;
    members.push(type === '2' ? { name, link: true } : { name });
    if (members.length > MAX_MEMBERS) return unknown(`it holds more than ${MAX_MEMBERS} members`);
  }
  // No end-of-archive blocks: tar stops at the end all the same.
  return at === data.length || data.length === 0
    ? { kind: 'members', members }
    : unknown('the tar archive is cut short');
}

/** zip: the central directory, as unzip reads it. */
export function listZip(data: Buffer): Listing {
  const from = Math.max(0, data.length - 22 - 0xffff);
  let end = -1;
  for (let i = data.length - 22; i >= from; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return unknown('it is not a zip archive');
  const count = data.readUInt16LE(end + 10);
  const offset = data.readUInt32LE(end + 16);
  if (count === 0xffff || offset === 0xffffffff) return unknown('it is a zip64 archive');
  if (count > MAX_MEMBERS) return unknown(`it holds more than ${MAX_MEMBERS} members`);
  const members: Member[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50)
      return unknown('the zip directory is damaged');
    const nameLength = data.readUInt16LE(at + 28);
    const extra = data.readUInt16LE(at + 30);
    const comment = data.readUInt16LE(at + 32);
    const madeBy = data[at + 5]!;
    const attributes = data.readUInt32LE(at + 38);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    const link = madeBy === 3 && ((attributes >>> 16) & 0o170000) === 0o120000;
    members.push(link ? { name, link } : { name });
    at += 46 + nameLength + extra + comment;
  }
  return { kind: 'members', members };
}

/** cpio: the portable ASCII formats (newc, crc, odc). */
export function listCpio(data: Buffer): Listing {
  const members: Member[] = [];
  let at = 0;
  while (at < data.length) {
    const magic = data.toString('latin1', at, at + 6);
    let nameSize: number;
    let fileSize: number;
    let mode: number;
    let headerSize: number;
    let align: number;
    if (magic === '070701' || magic === '070702') {
      const hex = (offset: number) =>
        Number.parseInt(data.toString('latin1', at + offset, at + offset + 8), 16);
      mode = hex(14);
      fileSize = hex(54);
      nameSize = hex(94);
      headerSize = 110;
      align = 4;
    } else if (magic === '070707') {
      const oct = (offset: number, length: number) =>
        Number.parseInt(data.toString('latin1', at + offset, at + offset + length), 8);
      mode = oct(18, 6);
      nameSize = oct(59, 6);
      fileSize = oct(65, 11);
      headerSize = 76;
      align = 1;
    } else return unknown('it is not a cpio archive in a portable format');
    if (![nameSize, fileSize, mode].every(Number.isFinite)) return unknown('a cpio header is damaged');
    const name = cString(data, at + headerSize, nameSize);
    const pad = (n: number) => Math.ceil(n / align) * align;
    at = pad(at + headerSize + nameSize);
    at = pad(at + fileSize);
    if (name === 'TRAILER!!!') return { kind: 'members', members };
    members.push((mode & 0o170000) === 0o120000 ? { name, link: true } : { name });
    if (members.length > MAX_MEMBERS) return unknown(`it holds more than ${MAX_MEMBERS} members`);
  }
  return unknown('the cpio archive has no trailer');
}

/** A 7z listing (`7z l -slt`): one `Path = …` per member after the `----------` line, links by their mode. */
function list7z(path: string): Listing {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat?.isFile()) return unknown(`${path} is not a regular file`);
  if (stat.size > MAX_ARCHIVE_BYTES)
    return unknown(`${path} is larger than ${MAX_ARCHIVE_BYTES / 1024 / 1024} MB`);
  const result = spawnSync('7z', [...SEVEN_ZIP_LISTING, path], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
    timeout: DECOMPRESS_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
    encoding: 'utf8',
  });
  if (result.error || result.status !== 0) return unknown(`7z could not list ${path}`);
  const body = result.stdout.split(/^-{10,}$/m)[1];
  if (body === undefined) return unknown(`7z could not list ${path}`);
  const members: Member[] = [];
  for (const block of body.split(/\n\s*\n/)) {
    const name = /^Path = (.*)$/m.exec(block)?.[1];
    if (name === undefined) continue;
    const link = /^Attributes = .*\bl[rwxsStT-]{9}/m.test(block) || /^Symbolic Link = ./m.test(block);
    members.push(link ? { name, link: true } : { name });
    if (members.length > MAX_MEMBERS) return unknown(`it holds more than ${MAX_MEMBERS} members`);
  }
  return { kind: 'members', members };
}
