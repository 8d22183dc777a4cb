import type { HookOutcome, PreToolUseOutcome } from '../hooks/index.js';
import { runPostToolUseHooks } from '../hooks/index.js';
import type { ToolUseContext } from './context.js';
import { classifyToolError, errorText } from './errors.js';
import { hookInput, hookOptions } from './hook-input.js';
import {
  appendText,
  type FailedStage,
  type HookMessage,
  type ToolResultContent,
  textOf,
} from './messages.js';
import { persistLargeResult } from './results.js';
import type { ExecOutcome } from './run-call.js';
import type { AnyTool } from './tool.js';

export function hookMessage(toolUseId: string, event: string, o: HookOutcome): HookMessage | undefined {
  if (o.systemMessages.length === 0 && o.errors.length === 0 && o.stop === undefined) return undefined;
  const m: HookMessage = {
    type: 'hook',
    toolUseId,
    event,
    systemMessages: o.systemMessages,
    errors: o.errors,
  };
  if (o.stop !== undefined) m.stop = o.stop;
  return m;
}

export interface Completion {
  content: ToolResultContent;
  error?: { stage: FailedStage; kind: string };
  hook?: HookMessage;
}

export interface CompleteInput {
  ctx: ToolUseContext;
  tool: AnyTool;
  input: Record<string, unknown>;
  toolUseId: string;
  outcome: ExecOutcome;
  pre: PreToolUseOutcome;
  notices: string[];
  signal?: AbortSignal | undefined;
}

/** Stages 6 and 7: the result mapped (and saved to disk when too large), then PostToolUse(Failure) hooks. */
export async function completeCall(c: CompleteInput): Promise<Completion> {
  const { ctx, tool, outcome, toolUseId } = c;
  let content: ToolResultContent;
  let error: Completion['error'];
  if (outcome.ok) {
    try {
      content = tool.mapToolResult(outcome.output as never, toolUseId);
    } catch (e) {
      content = `Error: ${tool.name} could not format its result: ${errorText(e)}`;
      error = { stage: 'result', kind: classifyToolError(e) };
    }
  } else {
    content = outcome.message;
    error = { stage: outcome.kind === 'Interrupted' ? 'cancelled' : 'execution', kind: outcome.kind };
  }
  content = await persistOrCut(content, tool, ctx, toolUseId);

  const base = hookInput(ctx, tool.name, c.input, toolUseId);
  const event = outcome.ok ? 'PostToolUse' : 'PostToolUseFailure';
  const input = outcome.ok
    ? { ...base, tool_response: outcome.output }
    : { ...base, error: outcome.message, is_interrupt: outcome.kind === 'Interrupted' };
  const post = await runPostToolUseHooks(ctx.hooks, event, input, hookOptions(ctx, c.signal));
  const extra = [
    ...c.pre.additionalContext.map((t) => `PreToolUse hook context: ${t}`),
    ...post.additionalContext.map((t) => `${event} hook context: ${t}`),
    ...post.blocks.map((b) => `${event} hook feedback: ${b}`),
    ...c.notices,
  ];
  for (const text of extra) content = appendText(content, text);
  const done: Completion = { content };
  if (error) done.error = error;
  const hook = hookMessage(toolUseId, event, post);
  if (hook) done.hook = hook;
  return done;
}

async function persistOrCut(
  content: ToolResultContent,
  tool: AnyTool,
  ctx: ToolUseContext,
  toolUseId: string,
): Promise<ToolResultContent> {
  try {
    return await persistLargeResult(content, tool.maxResultSizeChars, ctx.resultsDir, toolUseId);
  } catch (e) {
    const limit = tool.maxResultSizeChars;
    return `${textOf(content).slice(0, limit)}\n[output cut at ${limit} characters; it could not be saved: ${errorText(e)}]`;
  }
}
