import type { Analysis } from '../bash/index.js';
import type { CallOptions, CallResult, CallUsage, ModelCaller, ModelRequest, Stage } from '../llm/index.js';
import { forcedToolResult } from '../llm/index.js';
import type { ProseRules } from '../rules/index.js';
import { STAGE1_TOOL, STAGE2_TOOL } from './model-parts.js';
import {
  STAGE1_INSTRUCTION,
  STAGE1_TOOL_SPEC,
  STAGE2_INSTRUCTION,
  STAGE2_TOOL_SPEC,
  Stage1Answer,
  Stage2Answer,
  systemPrompt,
  userMessage,
} from './prompt.js';
import type { TranscriptContext } from './transcript.js';
import type { Judgement } from './types.js';

export interface JudgeInput {
  prose: ProseRules;
  tool: string;
  input: Record<string, unknown>;
  analysis?: Analysis;
  context?: TranscriptContext;
  /** Auto mode: why the rules would ask a person (soft asks), one line each, for the model to weigh. */
  soft?: readonly string[];
}

export interface JudgeOptions {
  signal?: AbortSignal;
  /** Limit for each stage's call, retries included (default 30 s). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** Some models answer a forced `tool_choice` with an error; they are asked with `auto` and must still call it. */
function toolChoice(model: string, name: string): ModelRequest['tool_choice'] {
  return /sonnet-5/.test(model) ? { type: 'auto' } : { type: 'tool', name };
}

function request(caller: ModelCaller, input: JudgeInput, stage: Stage): ModelRequest {
  const tool = stage === 1 ? STAGE1_TOOL_SPEC : STAGE2_TOOL_SPEC;
  const base: ModelRequest = {
    max_tokens: stage === 1 ? 128 : 1024,
    system: [{ type: 'text', text: systemPrompt(input.prose), cache_control: { type: 'ephemeral' } }],
    tools: [tool],
    messages: [
      {
        role: 'user',
        content: [
          {
            type: 'text',
            text: userMessage(input.tool, input.input, input.analysis, input.context, input.soft),
          },
          { type: 'text', text: stage === 1 ? STAGE1_INSTRUCTION : STAGE2_INSTRUCTION },
        ],
      },
    ],
  };
  const model = caller.resolve(base, stage).model;
  return { ...base, tool_choice: toolChoice(model, tool.name) };
}

/** Past the caller's own deadline, how long the judge still waits for it before giving up on it. */
const GRACE_MS = 1_000;

/**
 * One stage's call, whatever the caller does: an embedder's caller that throws, rejects, ignores the deadline or
 * the abort signal still yields a failure (the classifier asks), at the latest a moment after its deadline.
 */
async function guardedCall(
  caller: ModelCaller,
  input: JudgeInput,
  stage: Stage,
  options: CallOptions,
  deadlineMs: number,
): Promise<CallResult> {
  const started = performance.now();
  const failure = (kind: 'timeout' | 'aborted' | 'malformed', message: string): CallResult => ({
    ok: false,
    kind,
    message,
    attempts: 1,
    latencyMs: performance.now() - started,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stops = new Promise<CallResult>((resolve) => {
    timer = setTimeout(
      () => resolve(failure('timeout', `the model did not answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
    const signal = options.signal;
    if (signal) {
      onAbort = () => resolve(failure('aborted', 'the classification was cancelled'));
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  try {
    const called = Promise.resolve()
      .then(() => caller.call(request(caller, input, stage), options))
      .catch((e: unknown) =>
        failure('malformed', `the model caller failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    return await Promise.race([called, stops]);
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Two stages: a short first pass tuned to flag anything that might break a deny rule, then, only for what it
 * flagged, a review that gives the decision. Any failure is a value; the caller asks.
 */
export async function judge(
  caller: ModelCaller,
  input: JudgeInput,
  options: JudgeOptions = {},
): Promise<Judgement> {
  const started = performance.now();
  const usage: CallUsage[] = [];
  const elapsed = () => performance.now() - started;
  const callOptions = (stage: Stage): CallOptions => ({
    stage,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const deadline = (options.timeoutMs ?? DEFAULT_TIMEOUT_MS) + GRACE_MS;
  const call = (stage: Stage) => guardedCall(caller, input, stage, callOptions(stage), deadline);

  const first = await call(1);
  if (!first.ok)
    return { ok: false, stage: 1, kind: first.kind, message: first.message, usage, latencyMs: elapsed() };
  usage.push(first.usage);
  const flagged = forcedToolResult(first.message, STAGE1_TOOL, Stage1Answer);
  if (!flagged.ok) {
    return { ok: false, stage: 1, kind: flagged.kind, message: flagged.message, usage, latencyMs: elapsed() };
  }
  if (!flagged.input.flag) {
    return {
      ok: true,
      decision: 'allow',
      stage: 1,
      reason: 'the first pass flagged no rule',
      usage,
      latencyMs: elapsed(),
    };
  }

  const second = await call(2);
  if (!second.ok)
    return { ok: false, stage: 2, kind: second.kind, message: second.message, usage, latencyMs: elapsed() };
  usage.push(second.usage);
  const decided = forcedToolResult(second.message, STAGE2_TOOL, Stage2Answer);
  if (!decided.ok) {
    return { ok: false, stage: 2, kind: decided.kind, message: decided.message, usage, latencyMs: elapsed() };
  }
  const a = decided.input;
  const result: Judgement = {
    ok: true,
    decision: a.decision,
    stage: 2,
    reason: a.reason,
    usage,
    latencyMs: elapsed(),
  };
  if (a.rule) result.rule = a.rule;
  if (a.allow_exception) result.exception = a.allow_exception;
  result.userRequested = a.user_requested;
  return result;
}
