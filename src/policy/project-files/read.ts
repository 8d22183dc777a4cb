import { closeSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';

/** The most of a settings file read; a longer one is not looked through. */
const MAX_BYTES = 1024 * 1024;

/** A file's text; undefined when there is none; an Error when it cannot be read or is too long. */
export function readBounded(file: string): string | Error | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_BYTES + 1);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      if (read > MAX_BYTES) return new Error('more than can be read');
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : (error as Error);
  }
}

/**
 * A package.json's fields: undefined when there is none, why not when it cannot be read or parsed as an object.
 */
export function readManifest(file: string): Record<string, unknown> | string | undefined {
  const json = readBounded(file);
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = json instanceof Error ? undefined : JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : `${file} cannot be read`;
}

/** Each working folder and every folder above it, as programs look for their settings. */
export function* foldersUp(cwds: readonly string[]): Generator<string> {
  for (const cwd of cwds) {
    for (let at = cwd; ; at = dirname(at)) {
      yield at;
      if (dirname(at) === at) break;
    }
  }
}

export function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function realTarget(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
