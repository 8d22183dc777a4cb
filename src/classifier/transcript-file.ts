import { constants, type Stats } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * Opens a transcript only if it is a regular file. A plain open of a FIFO waits for a writer on one of libuv's
 * four file threads: a few such calls would leave no thread for any other file. O_NONBLOCK makes that open
 * return at once; fstat then refuses anything but a regular file (FIFO, socket, device, folder).
 * Undefined when the path cannot be opened or is no regular file: no transcript, never an error.
 */
export async function openRegularFile(path: string): Promise<{ file: FileHandle; stat: Stats } | undefined> {
  let file: FileHandle;
  try {
    file = await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const stat = await file.stat();
    if (stat.isFile()) return { file, stat };
  } catch {
    // Unreadable: as if absent.
  }
  await file.close().catch(() => undefined);
  return undefined;
}

/** Reads `length` bytes at `position`, or fewer at the end of the file. */
export async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const { bytesRead } = await file.read(buffer, got, length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buffer.subarray(0, got);
}
