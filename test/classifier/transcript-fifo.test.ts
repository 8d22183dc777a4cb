import { spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { followTranscript, readTranscript, readTranscriptTail } from '../../src/classifier/index.js';

let dir: string;
let fifos: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'automode-fifo-'));
  // More FIFOs than libuv has file threads (4 by default).
  fifos = [0, 1, 2, 3, 4, 5].map((i) => join(dir, `transcript-${i}.jsonl`));
  for (const fifo of fifos) expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
});

afterAll(() => {
  // Should an open still wait for a writer, this lets it return.
  for (const fifo of fifos) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waits: nothing to release.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms))]);

describe('a transcript that is no regular file', () => {
  it('gives no context, and holds none of the file threads that other reads need', async () => {
    const reads = fifos.flatMap((fifo) => [
      followTranscript(fifo).read(),
      readTranscriptTail(fifo),
      readTranscript(fifo),
    ]);
    const ordinary = join(dir, 'ordinary.txt');
    writeFileSync(ordinary, 'still read');
    expect(await within(readFile(ordinary, 'utf8'), 2_000)).toBe('still read');
    expect(await within(Promise.all(reads), 2_000)).toEqual(reads.map(() => undefined));
  });

  it('gives no context for a folder or a device either', async () => {
    for (const path of [dir, '/dev/zero']) {
      expect(await followTranscript(path).read(), path).toBeUndefined();
      expect(await within(readTranscriptTail(path), 2_000), path).toBeUndefined();
      expect(await within(readTranscript(path), 2_000), path).toBeUndefined();
    }
  });
});
