import type { Classifier, Speculation, ToolCall } from '../../classifier/index.js';
import type { ToolUseContext } from '../context.js';
import type { ToolUseBlock } from '../messages.js';
import { validateToolInput } from '../validate.js';

/** A classification started when the call's block was complete, before the call itself started. */
export interface EarlySpeculation {
  /** The classifier it was asked of: an "always allow" since then makes it stale. */
  classifier: Classifier;
  call: ToolCall;
  speculation: Speculation;
}

/** The call as the classifier sees it. */
export function classifierCall(ctx: ToolUseContext, tool: string, input: Record<string, unknown>): ToolCall {
  return { tool, input, cwd: ctx.cwd, ...(ctx.mode ? { mode: ctx.mode } : {}) };
}

/** Starts the classification of `call` with the session's context. */
export function speculate(ctx: ToolUseContext, call: ToolCall, signal: AbortSignal): Speculation {
  const transcript = ctx.transcript();
  return ctx.permissions.classifier.speculate(call, {
    signal,
    ...(transcript ? { context: transcript } : {}),
  });
}

/**
 * Classifies a call that waits to start, as soon as its block is complete: only a loaded tool, with an input that
 * passes validation now, is classified (nothing when the call would end before stage 3).
 */
export async function speculateEarly(
  block: ToolUseBlock,
  ctx: ToolUseContext,
  signal: AbortSignal,
): Promise<EarlySpeculation | undefined> {
  const found = ctx.registry.find(block.name);
  if (!found || !ctx.registry.isLoaded(found.tool)) return undefined;
  const toolCtx = { toolUseId: block.id, cwd: ctx.cwd, signal, session: ctx.session, registry: ctx.registry };
  const valid = await validateToolInput(found.tool, block.input, toolCtx).catch(() => undefined);
  if (!valid?.ok || signal.aborted) return undefined;
  const call = classifierCall(ctx, found.tool.name, valid.input);
  return { classifier: ctx.permissions.classifier, call, speculation: speculate(ctx, call, signal) };
}

/**
 * The early classification, when it is of this very call by the classifier the session has now; otherwise it is
 * cancelled and `undefined` says to classify afresh.
 */
export async function adoptEarly(
  early: Promise<EarlySpeculation | undefined> | undefined,
  ctx: ToolUseContext,
  call: ToolCall,
): Promise<Speculation | undefined> {
  const e = await early;
  if (!e) return undefined;
  if (e.classifier === ctx.permissions.classifier && JSON.stringify(e.call) === JSON.stringify(call))
    return e.speculation;
  e.speculation.cancel();
  return undefined;
}
