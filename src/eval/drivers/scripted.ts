/**
 * The scripted driver: replays recorded assistant turns through the tool pipeline, as the agent that wrote them
 * would have met it. A script is JSONL in the shape of a Claude Code transcript, so a transcript replays as it
 * is; three kinds of line matter:
 *
 *   {"type":"user","message":{"role":"user","content":"Fix the failing test"}}
 *   {"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"npm test"}}]}}
 *   {"type":"assistant","sse":"event: message_start\ndata: {...}\n\n..."}   (or "sse_file": "turn-2.sse", next to the script)
 *
 * A streamed turn goes through the streaming executor, which starts each call as soon as its block is complete.
 * Labels may follow: {"type":"expect","tool_use_id":"toolu_1","decision":"ask"} for a call's decision, and
 * {"type":"expect","stop":true} for whether a hook stops the agent ({"type":"expect","tool_use_id":"toolu_1",
 * "stop":true}: a hook of that call). After a stop the later turns are not played, as the agent would not have
 * asked the model for them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StreamEvent, ToolUseBlock } from '../../pipeline/index.js';
import { type AgentSession, type CallRecord, decisionOf, type HookStop } from './session.js';

export type ScriptStep =
  | { kind: 'user'; text: string; line: number }
  | { kind: 'turn'; blocks: ToolUseBlock[]; line: number }
  | { kind: 'stream'; events: StreamEvent[]; line: number };

/** A label: the call's decision, or whether a hook stops the agent (of that call, or of the run). */
export interface Expectation {
  toolUseId?: string;
  decision?: 'allow' | 'ask' | 'deny';
  stop?: boolean;
  line: number;
}

export interface Script {
  steps: ScriptStep[];
  expectations: Expectation[];
}

export interface ScriptProblem {
  line: number;
  message: string;
}

/** Server-sent events as the API streams them: `event:` and `data:` lines, blank lines between events. */
export function parseSse(text: string): StreamEvent[] {
  const events: StreamEvent[] = [];
  for (const chunk of text.split(/\r?\n\r?\n/)) {
    const data = chunk
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    events.push(JSON.parse(data) as StreamEvent);
  }
  return events;
}

interface Block {
  type?: string;
  id?: string;
  name?: string;
  input?: unknown;
  text?: string;
}

function userText(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return (content as Block[]).flatMap((b) =>
    b?.type === 'text' && typeof b.text === 'string' ? [b.text] : [],
  );
}

/** Reads a script; lines that are not JSON or name a missing SSE file are problems, other lines are skipped. */
export async function readScript(file: string): Promise<{ script: Script; problems: ScriptProblem[] }> {
  const text = await readFile(file, 'utf8');
  const script: Script = { steps: [], expectations: [] };
  const problems: ScriptProblem[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    const line = i + 1;
    if (!raw) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(raw) as Record<string, unknown>;
    } catch (e) {
      problems.push({ line, message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const message = entry.message as { role?: string; content?: unknown } | undefined;
    const role = message?.role ?? entry.type;
    try {
      if (entry.type === 'expect') {
        const label = expectation(entry, line);
        if (typeof label === 'string') problems.push({ line, message: label });
        else script.expectations.push(label);
      } else if (
        role === 'assistant' &&
        (typeof entry.sse === 'string' || typeof entry.sse_file === 'string')
      ) {
        const sse =
          typeof entry.sse === 'string'
            ? entry.sse
            : await readFile(path.resolve(path.dirname(file), entry.sse_file as string), 'utf8');
        script.steps.push({ kind: 'stream', events: parseSse(sse), line });
      } else if (role === 'assistant' && Array.isArray(message?.content)) {
        const blocks = (message.content as Block[])
          .filter((b) => b?.type === 'tool_use' && typeof b.id === 'string' && typeof b.name === 'string')
          .map((b) => ({ type: 'tool_use' as const, id: b.id!, name: b.name!, input: b.input ?? {} }));
        if (blocks.length > 0) script.steps.push({ kind: 'turn', blocks, line });
      } else if (role === 'user') {
        for (const t of userText(message?.content)) script.steps.push({ kind: 'user', text: t, line });
      }
    } catch (e) {
      problems.push({ line, message: (e as Error).message });
    }
  }
  return { script, problems };
}

const EXPECT_USAGE =
  'expect needs tool_use_id and decision (allow, ask or deny), or stop (true or false) with an optional tool_use_id';

function expectation(entry: Record<string, unknown>, line: number): Expectation | string {
  const { tool_use_id: id, decision, stop } = entry;
  if (id !== undefined && typeof id !== 'string') return EXPECT_USAGE;
  if (decision === undefined && stop === undefined) return EXPECT_USAGE;
  if (decision !== undefined && (id === undefined || !['allow', 'ask', 'deny'].includes(decision as string)))
    return EXPECT_USAGE;
  if (stop !== undefined && typeof stop !== 'boolean') return EXPECT_USAGE;
  const e: Expectation = { line };
  if (id !== undefined) e.toolUseId = id;
  if (decision !== undefined) e.decision = decision as NonNullable<Expectation['decision']>;
  if (stop !== undefined) e.stop = stop;
  return e;
}

export interface ScriptCheck {
  /** The call the label is about; none for a label about the whole run. */
  toolUseId?: string;
  expected: string;
  actual: string;
  ok: boolean;
  line: number;
}

export interface ScriptRun {
  records: CallRecord[];
  /** Set when a hook stopped the agent; the turns after that one were not played. */
  stop?: HookStop;
  checks: ScriptCheck[];
}

const stopLabel = (stopped: boolean) => (stopped ? 'stop' : 'no stop');

/** Plays the script's turns through the session, in order, until a hook stops the agent; checks the labels. */
export async function playScript(
  script: Script,
  session: AgentSession,
  onRecord?: (r: CallRecord) => void,
): Promise<ScriptRun> {
  let stop: HookStop | undefined;
  for (const step of script.steps) {
    if (step.kind === 'user') session.addUserMessage(step.text);
    else if (step.kind === 'turn') ({ stop } = await session.runBlocks(step.blocks, onRecord));
    else {
      const stream = session.streaming(onRecord);
      for (const event of step.events) stream.feed(event);
      ({ stop } = await stream.finish());
    }
    if (stop) break;
  }
  const byId = new Map(session.records.map((r) => [r.toolUseId, r]));
  const checks = script.expectations.flatMap((e) => {
    const r = e.toolUseId === undefined ? undefined : byId.get(e.toolUseId);
    const out: ScriptCheck[] = [];
    const about = e.toolUseId === undefined ? {} : { toolUseId: e.toolUseId };
    if (e.decision !== undefined) {
      const actual = r ? decisionOf(r) : 'missing';
      out.push({ ...about, expected: e.decision, actual, ok: actual === e.decision, line: e.line });
    }
    if (e.stop !== undefined) {
      const stopped = e.toolUseId === undefined ? stop !== undefined : r?.stop !== undefined;
      const actual = e.toolUseId !== undefined && !r ? 'missing' : stopLabel(stopped);
      out.push({
        ...about,
        expected: stopLabel(e.stop),
        actual,
        ok: actual === stopLabel(e.stop),
        line: e.line,
      });
    }
    return out;
  });
  return stop ? { records: session.records, stop, checks } : { records: session.records, checks };
}
