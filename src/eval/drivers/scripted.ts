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
 * Labels may follow: {"type":"expect","tool_use_id":"toolu_1","decision":"ask"}.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { StreamEvent, ToolUseBlock } from '../../pipeline/index.js';
import { type AgentSession, type CallRecord, decisionOf } from './session.js';

export type ScriptStep =
  | { kind: 'user'; text: string; line: number }
  | { kind: 'turn'; blocks: ToolUseBlock[]; line: number }
  | { kind: 'stream'; events: StreamEvent[]; line: number };

export interface Expectation {
  toolUseId: string;
  decision: 'allow' | 'ask' | 'deny';
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
        const decision = entry.decision;
        if (typeof entry.tool_use_id !== 'string' || !['allow', 'ask', 'deny'].includes(decision as string)) {
          problems.push({ line, message: 'expect needs tool_use_id and decision (allow, ask or deny)' });
        } else {
          script.expectations.push({
            toolUseId: entry.tool_use_id,
            decision: decision as Expectation['decision'],
            line,
          });
        }
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

export interface ScriptRun {
  records: CallRecord[];
  checks: { toolUseId: string; expected: string; actual: string; ok: boolean; line: number }[];
}

/** Plays the script's turns through the session, in order, and checks the labels. */
export async function playScript(
  script: Script,
  session: AgentSession,
  onRecord?: (r: CallRecord) => void,
): Promise<ScriptRun> {
  for (const step of script.steps) {
    if (step.kind === 'user') session.addUserMessage(step.text);
    else if (step.kind === 'turn') await session.runBlocks(step.blocks, onRecord);
    else {
      const stream = session.streaming(onRecord);
      for (const event of step.events) stream.feed(event);
      await stream.finish();
    }
  }
  const byId = new Map(session.records.map((r) => [r.toolUseId, r]));
  const checks = script.expectations.map((e) => {
    const r = byId.get(e.toolUseId);
    const actual = r ? decisionOf(r) : 'missing';
    return { toolUseId: e.toolUseId, expected: e.decision, actual, ok: actual === e.decision, line: e.line };
  });
  return { records: session.records, checks };
}
