import { contextOfLine, type LineContext, TRANSCRIPT_LIMITS, type TranscriptContext } from './transcript.js';
import { openRegularFile, readAt } from './transcript-file.js';

export interface TailLimits {
  messages: number;
  calls: number;
  /** Read at most this many bytes from the end; a transcript cut there gives what its tail holds. */
  maxBytes: number;
  /** Bytes per read. */
  chunk: number;
}

export const TAIL_LIMITS: TailLimits = {
  ...TRANSCRIPT_LIMITS,
  maxBytes: 16 * 1024 * 1024,
  chunk: 64 * 1024,
};

const NEWLINE = 0x0a;

/**
 * What `contextFromTranscript` gives for the whole file, read from the end backwards: it stops once the last
 * `messages` user messages and `calls` tool calls are in, at the start of the file, or after `maxBytes`.
 * An unreadable file, or one that is no regular file (a FIFO would hold a file thread), gives no context.
 */
export async function readTranscriptTail(
  path: string,
  limits: Partial<TailLimits> = {},
): Promise<TranscriptContext | undefined> {
  const { messages, calls, maxBytes, chunk } = { ...TAIL_LIMITS, ...limits };
  const found: LineContext[] = [];
  let messageCount = 0;
  let callCount = 0;
  const full = () => messageCount >= messages && callCount >= calls;
  const take = (line: Buffer) => {
    const c = contextOfLine(line.toString('utf8'));
    if (!c) return;
    found.push(c);
    messageCount += c.userMessages.length;
    callCount += c.toolCalls.length;
  };
  const opened = await openRegularFile(path);
  if (!opened) return undefined;
  const { file } = opened;
  try {
    let pos = opened.stat.size;
    const stop = Math.max(0, pos - maxBytes);
    // The bytes of the line that began before the chunks read so far.
    let head = Buffer.alloc(0);
    while (pos > stop && !full()) {
      const size = Math.min(chunk, pos - stop);
      pos -= size;
      const read = await readAt(file, pos, size);
      const buf = head.length ? Buffer.concat([read, head]) : read;
      let end = buf.length;
      let nl = buf.lastIndexOf(NEWLINE, end - 1);
      while (nl >= 0 && !full()) {
        take(buf.subarray(nl + 1, end));
        end = nl;
        nl = end > 0 ? buf.lastIndexOf(NEWLINE, end - 1) : -1;
      }
      head = Buffer.from(buf.subarray(0, end));
    }
    if (pos === 0 && !full()) take(head);
  } catch {
    return undefined;
  } finally {
    await file.close();
  }
  const userMessages: string[] = [];
  const toolCalls: { tool: string; input: unknown }[] = [];
  for (let i = found.length - 1; i >= 0; i--) {
    userMessages.push(...(found[i] as LineContext).userMessages);
    toolCalls.push(...(found[i] as LineContext).toolCalls);
  }
  return { userMessages: userMessages.slice(-messages), toolCalls: toolCalls.slice(-calls) };
}
