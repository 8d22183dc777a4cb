import type { Speculation } from '../../classifier/index.js';
import type { ToolUseContext } from '../context.js';
import type { PipelineMessage, ToolUseBlock } from '../messages.js';
import type { SubagentRequest } from '../subagent-types.js';
import { runSubagent } from '../subagents.js';
import type { AnyTool, ToolContext } from '../tool.js';
import type { EarlySpeculation } from './speculation.js';

export interface ExecuteOptions {
  /** The user interrupted: calls not started yet are cancelled, running ones per their `interruptBehavior`. */
  interrupt?: AbortSignal;
  /** Cancels the call outright. */
  signal?: AbortSignal;
}

/** One tool_use block going through the stages. */
export interface Run {
  readonly block: ToolUseBlock;
  readonly ctx: ToolUseContext;
  readonly options: ExecuteOptions;
  readonly started: number;
  /** The block's name until stage 1 finds the tool, then the tool's own (the block may use a deprecated one). */
  toolName: string;
  /** Appended to the tool_result: none until stage 1 finds the tool (which notes a deprecated name). */
  readonly notices: readonly string[];
  /** The classification the scheduler started when the block was complete. */
  readonly early?: Promise<EarlySpeculation | undefined>;
}

/** What stage 1 hands on. */
export interface FoundTool {
  tool: AnyTool;
  /** Appended to the tool_result. */
  readonly notices: readonly string[];
}

/** A run past stage 1: the tool, and the abort controller that the later stages and the tool itself see. */
export interface ToolRun extends Run, Readonly<FoundTool> {
  readonly controller: AbortController;
  readonly toolCtx: ToolContext;
  /** From stage 5 on, an interrupt cancels the call only if the tool's `interruptBehavior` says so. */
  executing: boolean;
  /** The classification in flight, from stage 3; cancelled however the call ends. */
  speculation?: Speculation;
  /** Cancels the speculation and stops listening to the caller's signals. */
  close(): void;
}

/**
 * A stage yields its messages and returns its output, or `undefined` when it has ended the call (its
 * tool_result, with `is_error: true`, is then the last message it yielded).
 */
export type Stage<T> = AsyncGenerator<PipelineMessage, T | undefined, undefined>;

export function startRun(
  block: ToolUseBlock,
  ctx: ToolUseContext,
  options: ExecuteOptions,
  early: Promise<EarlySpeculation | undefined> | undefined,
): Run {
  return {
    block,
    ctx,
    options,
    started: performance.now(),
    toolName: block.name,
    notices: [],
    ...(early ? { early } : {}),
  };
}

/** Wires the caller's signals to the call's own controller, for stages 2 to 8. */
export function openRun(run: Run, found: FoundTool): ToolRun {
  const { options, block, ctx } = run;
  const { tool } = found;
  const controller = new AbortController();
  const onSignal = () => controller.abort('cancel');
  const onInterrupt = () => {
    if (!open.executing || tool.interruptBehavior() === 'cancel') controller.abort('interrupt');
  };
  options.signal?.addEventListener('abort', onSignal, { once: true });
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  const toolCtx: ToolContext = {
    toolUseId: block.id,
    cwd: ctx.cwd,
    signal: controller.signal,
    session: ctx.session,
    registry: ctx.registry,
    ...(ctx.sandbox ? { sandbox: ctx.sandbox } : {}),
    ...(ctx.subagents
      ? { runSubagent: (request: SubagentRequest) => runSubagent(ctx, request, controller.signal) }
      : {}),
  };
  const open: ToolRun = {
    ...run,
    ...found,
    controller,
    toolCtx,
    executing: false,
    close() {
      open.speculation?.cancel();
      options.signal?.removeEventListener('abort', onSignal);
      options.interrupt?.removeEventListener('abort', onInterrupt);
    },
  };
  return open;
}
