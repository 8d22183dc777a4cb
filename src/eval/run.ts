import path from 'node:path';
import type { ToolCall, TranscriptContext } from '../classifier/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { Decision } from '../policy/index.js';
import type { Mode } from '../shared/index.js';
import { type EvalCase, isDangerous, type Severity } from './case-schema.js';
import type { Decided, Decider, Execution } from './decide.js';
import { type ModelCallRecord, meter } from './metering.js';
import { type EvalStage, stageOf } from './stages.js';
import { EVAL_PROJECT, moveInto } from './workspace.js';

export interface CaseResult {
  id: string;
  category: string;
  severity?: Severity;
  expect: Decision;
  dangerous: boolean;
  tool: string;
  /** The command, or the tool and its input, on one line. */
  call: string;
  actual: Decision;
  stage: EvalStage;
  by: string;
  reason: string;
  /** The permission rule or pattern rule that decided, or the prose rule the model cited. */
  rule?: string;
  model?: { stage: 1 | 2; decision?: string; rule?: string; cached: boolean; failure?: string };
  calls: ModelCallRecord[];
  /** What the user waits: the decision's own time, with model calls as long as their results say. */
  latencyMs: number;
  /** The case could not be decided at all (an exception, an input the tool refuses): it counts as ask. */
  error?: string;
  /** With `--execute`: how the allowed call ran. */
  execution?: Execution;
  /** A hook asked the agent to stop after this call (`continue: false`, or a PermissionRequest interrupt). */
  stop?: string;
}

export interface EvalRunOptions {
  decider: Decider;
  model?: ModelCaller;
  /** Mode of cases that name none (default auto). */
  mode?: Mode;
  /** The folder calls are made in (default the fixed evaluation project). */
  project?: string;
  /** A real workspace the calls are moved into (their paths below the fixed project and home too). */
  workspace?: { project: string; home: string };
  /** Sessions decided at once (default 4). */
  concurrency?: number;
  onCase?: (result: CaseResult) => void;
  signal?: AbortSignal;
}

export function toolCall(
  c: EvalCase,
  options: Pick<EvalRunOptions, 'mode' | 'project' | 'workspace'>,
): ToolCall {
  const tool = c.tool ?? 'Bash';
  const input = c.command !== undefined ? { command: c.command } : (c.input ?? {});
  const w = options.workspace;
  return {
    tool,
    input: w ? moveInto(input, w) : input,
    cwd: path.resolve(w?.project ?? options.project ?? EVAL_PROJECT, c.cwd ?? '.'),
    mode: c.mode ?? options.mode ?? 'auto',
  };
}

export function describeCall(call: { tool: string; input: Record<string, unknown> }): string {
  const command = call.input.command;
  if (call.tool === 'Bash' && typeof command === 'string') return command.replace(/\r?\n/g, ' ⏎ ');
  return `${call.tool} ${JSON.stringify(call.input)}`;
}

export function contextOf(c: EvalCase): TranscriptContext | undefined {
  if (!c.context) return undefined;
  const context: TranscriptContext = {};
  if (c.context.userMessages) context.userMessages = c.context.userMessages;
  if (c.context.toolCalls) context.toolCalls = c.context.toolCalls;
  return context;
}

/** Cases grouped by session, in dataset order; a case without one is a session of its own. */
function sessions<T extends EvalCase>(cases: readonly T[]): T[][] {
  const named = new Map<string, T[]>();
  const groups: T[][] = [];
  for (const c of cases) {
    if (c.session === undefined) groups.push([c]);
    else {
      let group = named.get(c.session);
      if (!group) {
        group = [];
        named.set(c.session, group);
        groups.push(group);
      }
      group.push(c);
    }
  }
  return groups;
}

/** Runs `work` over the items, at most `limit` at a time. */
export async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

/** What a result says of its case and call, decided or not. */
function caseFields(c: EvalCase, call: ToolCall) {
  const fields = {
    id: c.id,
    category: c.category,
    expect: c.expect,
    dangerous: isDangerous(c),
    tool: call.tool,
    call: describeCall(call),
  };
  return c.severity ? { ...fields, severity: c.severity } : fields;
}

function result(c: EvalCase, call: ToolCall, decided: Decided, calls: ModelCallRecord[], ms: number) {
  const { verdict } = decided;
  const waited = calls.reduce((sum, x) => sum + x.waitedMs, 0);
  const reported = calls.reduce((sum, x) => sum + x.latencyMs, 0);
  const r: CaseResult = {
    ...caseFields(c, call),
    actual: decided.decision ?? verdict.decision,
    stage: stageOf(decided),
    by: decided.source ?? verdict.by,
    reason: decided.reason ?? verdict.reason,
    calls,
    latencyMs: Math.max(0, ms - waited) + reported,
  };
  if (decided.error !== undefined) r.error = decided.error;
  if (decided.execution) r.execution = decided.execution;
  if (decided.stop !== undefined) r.stop = decided.stop;
  const rule = verdict.rule?.label ?? verdict.rule?.text ?? verdict.model?.rule;
  if (rule) r.rule = rule;
  const m = verdict.model;
  if (m) {
    r.model = { stage: m.stage, cached: m.cached };
    if (m.decision) r.model.decision = m.decision;
    if (m.rule) r.model.rule = m.rule;
    if (m.failure) r.model.failure = m.failure;
  }
  return r;
}

/** Decides every case, sessions in parallel, and returns the results in dataset order. */
export async function runEval(cases: readonly EvalCase[], options: EvalRunOptions): Promise<CaseResult[]> {
  const results = new Map<EvalCase, CaseResult>();
  await pool(sessions(cases), options.concurrency ?? 4, async (group) => {
    const metered = options.model ? meter(options.model) : undefined;
    const decide = options.decider.session(metered?.caller);
    for (const c of group) {
      if (options.signal?.aborted) return;
      const call = toolCall(c, options);
      const started = performance.now();
      let r: CaseResult;
      try {
        const decided = await decide(call, contextOf(c));
        r = result(c, call, decided, metered?.take() ?? [], performance.now() - started);
      } catch (e) {
        r = {
          ...caseFields(c, call),
          actual: 'ask',
          stage: 'error',
          by: 'error',
          reason: `the case could not be decided: ${(e as Error).message}`,
          calls: metered?.take() ?? [],
          latencyMs: performance.now() - started,
          error: (e as Error).message,
        };
      }
      results.set(c, r);
      options.onCase?.(r);
    }
  });
  return cases.flatMap((c) => results.get(c) ?? []);
}
