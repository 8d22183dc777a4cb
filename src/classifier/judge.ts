import type { Analysis } from '../bash/index.js';
import type { CallUsage, ModelCaller, ModelRequest, Stage } from '../llm/index.js';
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
  /** Limit for each stage's call, retries included. */
  timeoutMs?: number;
}

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
  const callOptions = (stage: Stage) => ({
    stage,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });

  const first = await caller.call(request(caller, input, 1), callOptions(1));
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

  const second = await caller.call(request(caller, input, 2), callOptions(2));
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
