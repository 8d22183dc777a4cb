import { randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const TOKEN_SHAPE = /^[0-9a-f]{64}$/;

/**
 * The service's token. The one already in its file is kept, so that a hook configured with it goes on working
 * after a restart, but only while the file is still private: a regular file (not a link) of this user, readable
 * by no one else, holding a token of the shape the service writes. Otherwise, or when rotating, a new token
 * replaces it.
 */
export function serviceToken(file: string, rotate = false): string {
  const kept = rotate ? undefined : privateToken(file);
  if (kept) return kept;
  const token = randomBytes(32).toString('hex');
  writePrivate(file, `${token}\n`);
  return token;
}

function privateToken(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || (stat.mode & 0o077) !== 0) return undefined;
    if (process.getuid && stat.uid !== process.getuid()) return undefined;
    const token = readFileSync(fd, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? token : undefined;
  } finally {
    closeSync(fd);
  }
}

/** Writes a file only this user can read, replacing whatever had the name (a link is removed, not followed). */
export function writePrivate(file: string, text: string): void {
  rmSync(file, { force: true });
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
}
