import { type FileHandle, open } from 'node:fs/promises';
import { contextOfLine, TRANSCRIPT_LIMITS, type TranscriptContext } from './transcript.js';

/** Reads a growing transcript: each `read` reads only the bytes appended since the last one. */
export interface TranscriptFollower {
  /** The context so far; undefined when the file cannot be read (the model then judges the action alone). */
  read(): Promise<TranscriptContext | undefined>;
  /** Bytes read from the file over the follower's life, for tests and status. */
  readonly bytesRead: number;
}

export function followTranscript(path: string, limits = TRANSCRIPT_LIMITS): TranscriptFollower {
  let offset = 0;
  let inode: number | bigint | undefined;
  let pending: Buffer = Buffer.alloc(0);
  let userMessages: string[] = [];
  let toolCalls: { tool: string; input: unknown }[] = [];
  let bytesRead = 0;
  let last: Promise<unknown> = Promise.resolve();

  const restart = () => {
    offset = 0;
    pending = Buffer.alloc(0);
    userMessages = [];
    toolCalls = [];
  };

  const take = (chunk: Buffer) => {
    const data = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const end = data.lastIndexOf(0x0a);
    if (end < 0) {
      pending = data;
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

  const readAppended = async (): Promise<TranscriptContext | undefined> => {
    let file: FileHandle;
    try {
      file = await open(path, 'r');
    } catch {
      restart();
      inode = undefined;
      return undefined;
    }
    try {
      const stat = await file.stat();
      if (stat.ino !== inode || stat.size < offset) restart();
      inode = stat.ino;
      const buffer = Buffer.alloc(64 * 1024);
      while (offset < stat.size) {
        const { bytesRead: n } = await file.read(
          buffer,
          0,
          Math.min(buffer.length, stat.size - offset),
          offset,
        );
        if (n === 0) break;
        offset += n;
        bytesRead += n;
        take(buffer.subarray(0, n));
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
