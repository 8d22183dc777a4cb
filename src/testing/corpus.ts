import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isMode, isObject, parseJsonObject } from '../shared/index.js';
import type { CallSpec } from './call.js';
import type { Problem } from './results.js';
import { readSuite } from './suite.js';

/** The shipped corpus of everyday and dangerous agent calls that `automode diff` classifies by default. */
export const SHIPPED_CORPUS = fileURLToPath(new URL('../../defaults/diff-corpus.jsonl', import.meta.url));

/** The labelled corpus of dangerous commands (and everyday ones) the critique checks rules against. */
export const DANGEROUS_CORPUS = fileURLToPath(
  new URL('../../defaults/dangerous-commands.json', import.meta.url),
);

/** Every dangerous command automode ships: the labelled corpus's, and the shipped diff corpus's `dangerous/` calls. */
export async function dangerousCommands(): Promise<string[]> {
  const labelled = JSON.parse(await readFile(DANGEROUS_CORPUS, 'utf8')) as {
    dangerous: { command: string }[];
  };
  const { entries } = await readCorpus(SHIPPED_CORPUS);
  const fromDiff = entries
    .filter((e) => e.id.startsWith('dangerous/') && (e.call.tool ?? 'Bash') === 'Bash')
    .flatMap((e) => (typeof e.call.command === 'string' ? [e.call.command] : []));
  return [...new Set([...labelled.dangerous.map((d) => d.command), ...fromDiff])];
}

export interface CorpusEntry {
  /** The line's `id` or `name`, else `file:line`. */
  id: string;
  file: string;
  line: number;
  call: CallSpec;
}

/**
 * Reads a corpus: JSON lines (`{id?, tool?, command | input, cwd?, mode?}` or PreToolUse-shaped
 * `{tool_name, tool_input, cwd?, permission_mode?}`), a test file (YAML, or `*.automode-test.json`), or plain text
 * with one shell command a line (`#` starts a comment).
 */
export async function readCorpus(file: string): Promise<{ entries: CorpusEntry[]; problems: Problem[] }> {
  if (/\.ya?ml$|\.automode-test\.json$/i.test(file)) return readTestFileCorpus(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { entries: [], problems: [{ file, message: `cannot read corpus: ${(err as Error).message}` }] };
  }
  const entries: CorpusEntry[] = [];
  const problems: Problem[] = [];
  const json = /\.jsonl?$/i.test(file);
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || (!json && trimmed.startsWith('#'))) return;
    if (!json) {
      entries.push({
        id: `${file}:${line}`,
        file,
        line,
        call: { tool: 'Bash', command: raw.replace(/\r$/, '') },
      });
      return;
    }
    const parsed = parseLine(trimmed);
    if ('error' in parsed) problems.push({ file, line, column: 1, message: parsed.error });
    else entries.push({ id: parsed.id ?? `${file}:${line}`, file, line, call: parsed.call });
  });
  return { entries, problems };
}

function parseLine(text: string): { id?: string; call: CallSpec } | { error: string } {
  const parsed = parseJsonObject(text);
  if ('error' in parsed) return { error: parsed.syntax ? `not JSON: ${parsed.error}` : 'not a JSON object' };
  const o = parsed.value;
  const tool = o.tool_name ?? o.tool ?? 'Bash';
  const input = o.tool_input ?? o.input;
  const mode = o.permission_mode ?? o.mode;
  if (typeof tool !== 'string' || tool === '') return { error: 'tool must be a non-empty string' };
  if (input !== undefined && !isObject(input)) {
    return { error: 'input must be an object' };
  }
  if (o.command !== undefined && typeof o.command !== 'string') return { error: 'command must be a string' };
  if ((o.command === undefined) === (input === undefined))
    return { error: 'give exactly one of command, input' };
  if (mode !== undefined && !isMode(mode)) return { error: `unknown mode ${String(mode)}` };
  const call: CallSpec = { tool };
  if (typeof o.command === 'string') call.command = o.command;
  if (input !== undefined) call.input = input;
  if (typeof o.cwd === 'string') call.cwd = o.cwd;
  if (mode !== undefined) call.mode = mode;
  if (
    typeof o.context === 'string' ||
    (Array.isArray(o.context) && o.context.every((m) => typeof m === 'string'))
  ) {
    call.context = o.context as string | string[];
  }
  const id = typeof o.id === 'string' ? o.id : typeof o.name === 'string' ? o.name : undefined;
  return { ...(id === undefined ? {} : { id }), call };
}

async function readTestFileCorpus(file: string): Promise<{ entries: CorpusEntry[]; problems: Problem[] }> {
  const read = await readSuite(file);
  if ('problems' in read) return { entries: [], problems: read.problems };
  const entries = read.suite.cases.map((c) => ({ id: c.name, file, line: c.line ?? 1, call: c.call }));
  return { entries, problems: [] };
}

/** Drops repeated calls (same tool, input, folder and mode), keeping the first. */
export function uniqueCalls(entries: readonly CorpusEntry[]): CorpusEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const c = e.call;
    const key = JSON.stringify([
      c.tool ?? 'Bash',
      c.input ?? { command: c.command },
      c.cwd ?? '.',
      c.mode ?? '',
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
