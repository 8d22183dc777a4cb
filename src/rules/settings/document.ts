import { setTimeout as sleep } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { DiagnosticCode } from '../types.js';
import { jsonLocator } from './json-locations.js';
import { type FileStamp, readStamped } from './stamp.js';
import type { Position, Segment } from './types.js';

export interface LocatedDocument {
  value: unknown;
  /** Position of the node at the path, or of its nearest existing ancestor. */
  locate(path: readonly Segment[]): Position | undefined;
}

export interface DocumentError {
  code: DiagnosticCode;
  message: string;
  line?: number;
  column?: number;
}

export type ReadOutcome =
  | { status: 'missing' }
  | { status: 'failed'; error: DocumentError }
  | { status: 'ok'; document: LocatedDocument };

export type Format = 'json' | 'yaml';

export function formatOf(file: string): Format {
  return /\.ya?ml$/i.test(file) ? 'yaml' : 'json';
}

/**
 * How long an empty file must have stayed unchanged to be read as one. Claude Code reads an empty or blank
 * settings file as no settings, without an error (2.1.88, `parseSettingsFileUncached` in
 * src/utils/settings/settings.ts), but its watcher takes a change only once the file has been still for 1 s
 * (`FILE_STABILITY_THRESHOLD_MS` with chokidar's `awaitWriteFinish`, src/utils/settings/changeDetector.ts): a file
 * truncated to be rewritten leaves its rules in force meanwhile. automode waits that long for a file emptied less
 * than 1 s ago, and one emptied again while it waited is unreadable (a classifier built on it never allows).
 */
export const SETTLE_MS = 1000;

/**
 * Parsed documents kept by their exact text and format (see readDocument's `keep`): the same text always parses
 * to the same document, so the key is everything the answer depends on.
 */
export type ParsedTexts = LRUCache<string, ReadOutcome>;

/** A `keep` for readDocument holding the parses of the 16 texts used last. */
export function parsedTexts(): ParsedTexts {
  return new LRUCache({ max: 16 });
}

/**
 * Reads and parses a file; `stamps` receives what the file was when read (see `FileStamp`). With `keep`, the
 * file is still read every time, and its parse is taken from `keep` when the text read is one parsed before (the
 * returned document is then the same object, to be treated as read-only).
 */
export async function readDocument(
  file: string,
  format: Format = formatOf(file),
  stamps?: FileStamp[],
  settleMs: number = SETTLE_MS,
  keep?: ParsedTexts,
): Promise<ReadOutcome> {
  const read = await readSettled(file, settleMs);
  stamps?.push(...read.stamps);
  if ('status' in read.outcome) return read.outcome;
  const key = `${format}\0${read.outcome.text}`;
  const kept = keep?.get(key);
  if (kept) return kept;
  const parsed = await parseText(read.outcome.text, format);
  const outcome: ReadOutcome =
    'error' in parsed ? { status: 'failed', error: parsed.error } : { status: 'ok', document: parsed };
  keep?.set(key, outcome);
  return outcome;
}

/** The text, waiting for an empty file changed less than `settleMs` ago (see SETTLE_MS); its stamps. */
async function readSettled(
  file: string,
  settleMs: number,
): Promise<{ outcome: { text: string } | ReadOutcome; stamps: FileStamp[] }> {
  let stamps: FileStamp[] = [];
  let read = await readText(file, stamps);
  if ('status' in read) return { outcome: read, stamps };
  const young = (changed: number | undefined) => changed !== undefined && changed + settleMs > Date.now();
  if (!read.text.trim() && young(read.changed)) {
    await sleep(Math.min(settleMs, (read.changed as number) + settleMs - Date.now()));
    stamps = [];
    read = await readText(file, stamps);
    if ('status' in read) return { outcome: read, stamps };
    if (!read.text.trim() && young(read.changed))
      return {
        outcome: {
          status: 'failed',
          error: {
            code: 'read-failed',
            message: `the file is empty and was changed less than ${settleMs} ms ago: still being written?`,
          },
        },
        stamps,
      };
  }
  return { outcome: read, stamps };
}

/** The text of a file, and when a regular file last changed; or why there is none. */
async function readText(
  file: string,
  stamps: FileStamp[],
): Promise<{ text: string; changed?: number } | ReadOutcome> {
  try {
    const text = await readStamped(file, stamps);
    const changed = stamps.at(-1)?.modifiedMs;
    return changed ? { text, changed } : { text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { status: 'missing' };
    return {
      status: 'failed',
      error: { code: 'read-failed', message: `cannot read file: ${(err as Error).message}` },
    };
  }
}

/** Parses JSON (strictly) or YAML; an empty or blank text is an empty object. YAML support loads on demand. */
export async function parseText(
  text: string,
  format: Format,
): Promise<LocatedDocument | { error: DocumentError }> {
  text = text.replace(/^\uFEFF/, '');
  if (!text.trim()) return { value: {}, locate: () => undefined };
  if (format === 'json') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { error: jsonError(text, (err as Error).message) };
    }
    return { value, locate: jsonLocator(text) };
  }
  const { isMap, isSeq, LineCounter, parseDocument } = await import('yaml');
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    return { error: { code: 'invalid-yaml', message: first.message.split('\n')[0]!, line, column: col } };
  }
  return {
    value: doc.toJS(),
    locate(path) {
      for (let depth = path.length; depth >= 0; depth--) {
        const node = doc.getIn(path.slice(0, depth), true) as
          | { range?: [number, number, number] }
          | undefined;
        const offset = node?.range?.[0];
        if (offset !== undefined) {
          const { line, col } = lineCounter.linePos(offset);
          return { line, column: col };
        }
        if (depth === 0 && (isMap(doc.contents) || isSeq(doc.contents))) return { line: 1, column: 1 };
      }
      return undefined;
    },
  };
}

function jsonError(text: string, message: string): DocumentError {
  const clean = message.replace(/ in JSON at position \d+.*$/s, '').replace(/, .*is not valid JSON$/s, '');
  const offset = jsonErrorOffset(text, message);
  const before = text.slice(0, offset).split('\n');
  return { code: 'invalid-json', message: clean, line: before.length, column: before.at(-1)!.length + 1 };
}

/** V8 leaves the position out of some messages: find the shortest prefix that fails before its end. */
function jsonErrorOffset(text: string, message: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  if (/end of JSON input/.test(message)) return text.length;
  let low = 1;
  let high = text.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (failsBeforeEnd(text.slice(0, middle))) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}

function failsBeforeEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (err) {
    const message = (err as Error).message;
    const at = /at position (\d+)/.exec(message);
    if (at) return Number(at[1]) < prefix.length;
    return !/end of JSON input/.test(message);
  }
}

export function toPointer(path: readonly Segment[]): string {
  return path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}
