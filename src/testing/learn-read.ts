import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isMode, isObject, type Mode } from '../shared/index.js';

/** What became of a call, as its transcript tells it. */
export type CallOutcome =
  /** It ran (a failing command included: it ran and exited non-zero). */
  | 'ran'
  /** The person answered the prompt with no. */
  | 'rejected'
  /** A rule or a hook denied it. */
  | 'denied'
  /** It never ran for another reason (a tool's own check, an interrupted turn), or no result was recorded. */
  | 'other';

/** One tool call read from a session. */
export interface SessionCall {
  tool: string;
  input: Record<string, unknown>;
  /** The folder the call was made in, as the transcript recorded it. */
  cwd?: string;
  /** The permission mode the session was in; undefined when the transcript does not say. */
  mode?: Mode;
  outcome: CallOutcome;
  /** Where the call is written. */
  file: string;
  line: number;
  session: string;
  /** The session's project folder: the first `cwd` of its transcript. */
  project?: string;
  /** Whether a person was asked, when the transcript says (automode's own agent runs do). */
  asked?: boolean;
}

export interface ReadProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

export interface SessionRead {
  calls: SessionCall[];
  files: number;
  /** Lines of a type this reader does not know, by type: counted, never fatal. */
  unknown: Record<string, number>;
  /** Lines that are no JSON object, located; the rest of their file is read. */
  problems: ReadProblem[];
  /** Paths that could not be read at all. */
  errors: ReadProblem[];
}

/** The line types of a Claude Code transcript that carry no tool call. */
const QUIET_TYPES = new Set([
  'summary',
  'system',
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'attachment',
  'custom-title',
  'tag',
  'expect',
]);

const REJECTED = [
  "doesn't want to proceed with this tool use",
  'tool use was rejected',
  'Request interrupted by user for tool use',
];

/** The transcripts Claude Code keeps for a project folder: `~/.claude/projects/<the folder, / and . as ->/`. */
export function projectTranscriptFolder(claudeHome: string, project: string): string {
  return path.join(claudeHome, 'projects', project.replace(/[^A-Za-z0-9]/g, '-'));
}

/**
 * Reads every session under the given files and folders (folders recursively: `*.jsonl` transcripts, and
 * `*.json` runs of `automode agent --json`). Unknown lines are counted; a line that is not JSON is a located
 * problem and the rest of its file is still read; a path that cannot be read is an error.
 */
export async function readSessions(paths: readonly string[]): Promise<SessionRead> {
  const read: SessionRead = { calls: [], files: 0, unknown: {}, problems: [], errors: [] };
  for (const p of paths) {
    const files = await sessionFiles(p, read.errors);
    for (const file of files) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        read.errors.push({ file, message: `cannot read: ${(e as Error).message}` });
        continue;
      }
      read.files++;
      if (/\.jsonl$/i.test(file)) readTranscriptText(text, file, read);
      else readAgentRun(text, file, read);
    }
  }
  return read;
}

async function sessionFiles(p: string, errors: ReadProblem[]): Promise<string[]> {
  let s: Awaited<ReturnType<typeof stat>>;
  try {
    s = await stat(p);
  } catch (e) {
    errors.push({
      file: p,
      message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    });
    return [];
  }
  if (s.isFile()) return [p];
  if (!s.isDirectory()) {
    errors.push({ file: p, message: 'neither a file nor a folder' });
    return [];
  }
  const out: string[] = [];
  const entries = await readdir(p, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    const full = path.join(p, e.name);
    if (e.isDirectory()) out.push(...(await sessionFiles(full, errors)));
    else if (e.isFile() && /\.jsonl?$/i.test(e.name)) out.push(full);
  }
  return out;
}

interface Pending {
  call: SessionCall;
}

/** Reads one Claude Code transcript (JSONL). */
export function readTranscriptText(text: string, file: string, read: SessionRead): void {
  const pending = new Map<string, Pending>();
  const calls: SessionCall[] = [];
  let mode: Mode | undefined;
  let project: string | undefined;
  let session = path.basename(file).replace(/\.jsonl$/i, '');
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    let entry: unknown;
    try {
      entry = JSON.parse(raw);
    } catch (e) {
      read.problems.push({ file, line: i + 1, column: 1, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    if (!isObject(entry)) {
      read.problems.push({ file, line: i + 1, column: 1, message: 'not a JSON object' });
      continue;
    }
    if (typeof entry.sessionId === 'string' && entry.sessionId !== '') session = entry.sessionId;
    if (typeof entry.cwd === 'string' && project === undefined) project = entry.cwd;
    if (isMode(entry.permissionMode)) mode = entry.permissionMode;
    const type = typeof entry.type === 'string' ? entry.type : '';
    const message = isObject(entry.message) ? entry.message : undefined;
    const role = typeof message?.role === 'string' ? message.role : type;
    const content = message?.content;
    if (role === 'assistant' && (type === 'assistant' || type === '')) {
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (!isObject(block) || block.type !== 'tool_use') continue;
        if (typeof block.name !== 'string' || typeof block.id !== 'string') continue;
        const call: SessionCall = {
          tool: block.name,
          input: isObject(block.input) ? block.input : {},
          ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
          ...(mode ? { mode } : {}),
          outcome: 'other',
          file,
          line: i + 1,
          session,
        };
        calls.push(call);
        pending.set(block.id, { call });
      }
    } else if (role === 'user' && (type === 'user' || type === '')) {
      if (!Array.isArray(content)) continue;
      for (const block of content) {
        if (!isObject(block) || block.type !== 'tool_result' || typeof block.tool_use_id !== 'string')
          continue;
        const p = pending.get(block.tool_use_id);
        if (!p) continue;
        pending.delete(block.tool_use_id);
        p.call.outcome = outcomeOf(p.call.tool, block.is_error === true, resultText(block.content));
      }
    } else if (!QUIET_TYPES.has(type)) {
      const name = type || '(no type)';
      read.unknown[name] = (read.unknown[name] ?? 0) + 1;
    }
  }
  for (const c of calls) read.calls.push(project === undefined ? c : { ...c, project });
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => (isObject(b) && b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
    .join('\n');
}

function outcomeOf(tool: string, isError: boolean, text: string): CallOutcome {
  if (REJECTED.some((r) => text.includes(r))) return 'rejected';
  if (!isError) return 'ran';
  if (/^Permission to use .* has been denied|denied by|blocked by/i.test(text)) return 'denied';
  // A command that failed ran (it exited non-zero, or timed out); a tool's own check stops a call before it does.
  if (tool === 'Bash' && !/InputValidationError|<tool_use_error>/.test(text)) return 'ran';
  return 'other';
}

/** Reads the JSON of `automode agent --json`: its `calls`, each with whether a person was asked. */
function readAgentRun(text: string, file: string, read: SessionRead): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    read.problems.push({ file, line: 1, column: 1, message: `not JSON: ${(e as Error).message}` });
    return;
  }
  if (!isObject(value) || !Array.isArray(value.calls)) {
    read.unknown['(not an agent run)'] = (read.unknown['(not an agent run)'] ?? 0) + 1;
    return;
  }
  const session = path.basename(file).replace(/\.json$/i, '');
  for (const record of value.calls) {
    if (!isObject(record) || typeof record.tool !== 'string') {
      read.unknown['(agent call)'] = (read.unknown['(agent call)'] ?? 0) + 1;
      continue;
    }
    const outcome: CallOutcome =
      record.decision === 'allow' ? 'ran' : record.asked === true ? 'rejected' : 'denied';
    read.calls.push({
      tool: record.tool,
      input: isObject(record.input) ? record.input : {},
      outcome,
      file,
      line: 1,
      session,
      asked: record.asked === true,
      ...(typeof value.cwd === 'string' ? { cwd: value.cwd, project: value.cwd } : {}),
    });
  }
}
