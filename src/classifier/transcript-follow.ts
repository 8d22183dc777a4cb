import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { contextOfLine, TRANSCRIPT_LIMITS, type TranscriptContext } from './transcript.js';
import { openRegularFile, readAt } from './transcript-file.js';

/** Reads a growing transcript: each `read` reads only the bytes appended since the last one. */
export interface TranscriptFollower {
  /** The context so far; undefined when the file cannot be read (the model then judges the action alone). */
  read(): Promise<TranscriptContext | undefined>;
  /** Bytes read from the file over the follower's life, for tests and status. */
  readonly bytesRead: number;
}

export interface FollowLimits {
  messages: number;
  calls: number;
  /** Read at most this many bytes per call: more appended since the last read, and only its end is read. */
  maxBytes?: number;
}

/** The first bytes of the file, whose hash tells a transcript rewritten in place (same inode) from a grown one. */
const HEAD_BYTES = 4096;
const MAX_BYTES = 16 * 1024 * 1024;

const hashOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function followTranscript(path: string, limits: FollowLimits = TRANSCRIPT_LIMITS): TranscriptFollower {
  const maxBytes = limits.maxBytes ?? MAX_BYTES;
  let offset = 0;
  let inode: number | bigint | undefined;
  let head = { length: 0, hash: '' };
  let pending: Buffer = Buffer.alloc(0);
  // After skipping to the end of a large append, the first line read is a part of one.
  let partialLine = false;
  let userMessages: string[] = [];
  let toolCalls: { tool: string; input: unknown }[] = [];
  let bytesRead = 0;
  let last: Promise<unknown> = Promise.resolve();

  const restart = () => {
    offset = 0;
    head = { length: 0, hash: '' };
    pending = Buffer.alloc(0);
    partialLine = false;
    userMessages = [];
    toolCalls = [];
  };

  const take = (chunk: Buffer) => {
    let data = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    if (partialLine) {
      const start = data.indexOf(0x0a);
      if (start < 0) {
        pending = Buffer.alloc(0);
        return;
      }
      data = data.subarray(start + 1);
      partialLine = false;
    }
    const end = data.lastIndexOf(0x0a);
    if (end < 0) {
      pending = Buffer.from(data);
      return;
    }
    pending = Buffer.from(data.subarray(end + 1));
    for (const line of data.subarray(0, end).toString('utf8').split('\n')) {
      const c = contextOfLine(line);
      if (!c) continue;
      userMessages.push(...c.userMessages);
      toolCalls.push(...c.toolCalls);
    }
    if (userMessages.length > limits.messages) userMessages = userMessages.slice(-limits.messages);
    if (toolCalls.length > limits.calls) toolCalls = toolCalls.slice(-limits.calls);
  };

  /** Whether the file is still the one read so far: same inode, not shorter, the same first bytes. */
  const sameFile = async (file: FileHandle, ino: number | bigint, size: number) =>
    ino === inode && size >= offset && hashOf(await readAt(file, 0, head.length)) === head.hash;

  const readAppended = async (): Promise<TranscriptContext | undefined> => {
    const opened = await openRegularFile(path);
    if (!opened) {
      restart();
      inode = undefined;
      return undefined;
    }
    const { file, stat } = opened;
    try {
      if (!(await sameFile(file, stat.ino, stat.size))) restart();
      inode = stat.ino;
      if (stat.size - offset > maxBytes) {
        restart();
        offset = stat.size - maxBytes;
        partialLine = offset > 0;
      }
      while (offset < stat.size) {
        const chunk = await readAt(file, offset, Math.min(64 * 1024, stat.size - offset));
        if (chunk.length === 0) break;
        offset += chunk.length;
        bytesRead += chunk.length;
        take(chunk);
      }
      if (head.length < HEAD_BYTES && head.length < stat.size) {
        const bytes = await readAt(file, 0, Math.min(HEAD_BYTES, stat.size));
        head = { length: bytes.length, hash: hashOf(bytes) };
      }
      return { userMessages: [...userMessages], toolCalls: [...toolCalls] };
    } catch {
      restart();
      return undefined;
    } finally {
      await file.close();
    }
  };

  return {
    read() {
      // Calls of one session may judge at once: their reads run one after the other, each from the last offset.
      const next = last.then(readAppended);
      last = next;
      return next;
    },
    get bytesRead() {
      return bytesRead;
    },
  };
}
