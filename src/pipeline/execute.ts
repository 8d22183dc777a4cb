import type { Speculation, ToolCall } from '../classifier/index.js';
import { runPermissionDeniedHooks, runPreToolUseHooks } from '../hooks/index.js';
import { completeCall, hookMessage } from './complete.js';
import type { ToolUseContext } from './context.js';
import { classifyToolError, errorText, toolUseError } from './errors.js';
import { hookInput, hookOptions } from './hook-input.js';
import type {
  FailedStage,
  PipelineMessage,
  ToolResultContent,
  ToolResultMessage,
  ToolUseBlock,
} from './messages.js';
import { checkRewrite } from './permission/rewrite.js';
import { permissionStage } from './permission/stage.js';
import { type ExecOutcome, runCall } from './run-call.js';
import type { ToolContext } from './tool.js';
import { validateToolInput } from './validate.js';

export interface ExecuteOptions {
  /** The user interrupted: calls not started yet are cancelled, running ones per their `interruptBehavior`. */
  interrupt?: AbortSignal;
  /** Cancels the call outright. */
  signal?: AbortSignal;
}

export const REJECT_MESSAGE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

export const INTERRUPT_MESSAGE = 'Interrupted by user: the tool use was cancelled.';
export const RETRY_MESSAGE =
  'A PermissionDenied hook says you may retry this call; consider whether the denial was a mistake first.';

/**
 * The eight stages for one tool_use block: lookup, validation, PreToolUse hooks with the speculative
 * classifier, permission, execution, result mapping, PostToolUse hooks, and the tool_result. Every failure is
 * a tool_result with `is_error: true`; the generator itself does not throw.
 */
export async function* executeToolUse(
  block: ToolUseBlock,
  ctx: ToolUseContext,
  options: ExecuteOptions = {},
): AsyncGenerator<PipelineMessage, void, undefined> {
  const started = performance.now();
  let toolName = block.name;
  const result = (
    content: ToolResultContent,
    error?: { stage: FailedStage; kind: string },
  ): ToolResultMessage => {
    const m: ToolResultMessage = {
      type: 'tool_result',
      toolUseId: block.id,
      tool: toolName,
      block: { type: 'tool_result', tool_use_id: block.id, content, is_error: error !== undefined },
      durationMs: Math.round(performance.now() - started),
    };
    if (error) m.error = error;
    return m;
  };
  const fail = (stage: FailedStage, kind: string, content: ToolResultContent) =>
    result(content, { stage, kind });

  if (options.signal?.aborted || options.interrupt?.aborted) {
    yield fail('cancelled', 'Interrupted', INTERRUPT_MESSAGE);
    return;
  }

  // 1. Lookup
  const found = ctx.registry.find(block.name);
  if (!found) {
    yield fail('lookup', 'UnknownTool', toolUseError(`Error: No such tool available: ${block.name}`));
    return;
  }
  const tool = found.tool;
  toolName = tool.name;
  if (!ctx.registry.isLoaded(tool)) {
    const message = `${tool.name} is a deferred tool and its schema is not loaded. Call ToolSearch with query "select:${tool.name}" first, then call it again.`;
    yield fail('lookup', 'DeferredToolNotLoaded', toolUseError(message));
    return;
  }
  const notices: string[] = [];
  if (found.deprecated) {
    notices.push(
      `Note: ${found.deprecated} is a deprecated name for ${tool.name}. Call ${tool.name} from now on.`,
    );
  }

  const controller = new AbortController();
  let executing = false;
  const onSignal = () => controller.abort('cancel');
  const onInterrupt = () => {
    if (!executing || tool.interruptBehavior() === 'cancel') controller.abort('interrupt');
  };
  options.signal?.addEventListener('abort', onSignal, { once: true });
  options.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  const toolCtx: ToolContext = {
    toolUseId: block.id,
    cwd: ctx.cwd,
    signal: controller.signal,
    session: ctx.session,
    registry: ctx.registry,
  };
  let speculation: Speculation | undefined;
  try {
    // 2. Validation
    const validated = await validateToolInput(tool, block.input, toolCtx);
    if (!validated.ok) {
      yield fail('validation', validated.kind, validated.message);
      return;
    }
    let input = validated.input;
    let validationAsk = validated.ask;

    // 3. PreToolUse hooks and the speculative classifier, together
    let call: ToolCall = { tool: tool.name, input, cwd: ctx.cwd, ...(ctx.mode ? { mode: ctx.mode } : {}) };
    const speculate = (c: ToolCall) => {
      const transcript = ctx.transcript();
      const opts = { signal: controller.signal, ...(transcript ? { context: transcript } : {}) };
      return ctx.permissions.classifier.speculate(c, opts);
    };
    speculation = speculate(call);
    const pre = await runPreToolUseHooks(
      ctx.hooks,
      hookInput(ctx, tool.name, input, block.id),
      hookOptions(ctx, controller.signal),
    );
    const preMessage = hookMessage(block.id, 'PreToolUse', pre);
    if (preMessage) yield preMessage;
    if (pre.stop !== undefined && pre.decision !== 'deny') {
      pre.decision = 'deny';
      pre.reason = `a hook stopped the agent: ${pre.stop}`;
    }
    if (pre.updatedInput && pre.decision !== 'deny') {
      speculation.cancel();
      const again = await validateToolInput(tool, pre.updatedInput, toolCtx);
      if (!again.ok) {
        yield fail(
          'validation',
          again.kind,
          `A PreToolUse hook rewrote the input into one that is not valid:\n${again.message}`,
        );
        return;
      }
      input = again.input;
      validationAsk = again.ask ?? validationAsk;
      call = { ...call, input };
      speculation = speculate(call);
    }
    if (controller.signal.aborted) {
      yield fail('cancelled', 'Interrupted', INTERRUPT_MESSAGE);
      return;
    }

    // 4. Permission
    const permission = await permissionStage({
      ctx,
      tool,
      toolCtx,
      input,
      call,
      hook: pre,
      validationAsk,
      speculation,
      signal: controller.signal,
    });
    speculation.cancel();
    if (controller.signal.aborted) {
      yield fail('cancelled', 'Interrupted', INTERRUPT_MESSAGE);
      return;
    }
    yield {
      type: 'permission',
      toolUseId: block.id,
      tool: tool.name,
      decision: permission.behavior,
      by: permission.by,
      reason: permission.reason,
      ...(permission.rule
        ? {
            rule: {
              text: permission.rule.text,
              ...(permission.rule.file ? { file: permission.rule.file } : {}),
            },
          }
        : {}),
    };
    if (permission.stop !== undefined) {
      yield {
        type: 'hook',
        toolUseId: block.id,
        event: 'PermissionRequest',
        systemMessages: [],
        errors: [],
        stop: permission.stop,
      };
    }
    if (permission.behavior === 'deny') {
      const guidance = ctx.session.denials.deny(tool.name, input);
      const text =
        permission.by === 'user'
          ? REJECT_MESSAGE
          : `Permission to use ${tool.name} has been denied: ${permission.reason}`;
      const notes = guidance ? [guidance] : [];
      if (permission.model) {
        const denied = await runPermissionDeniedHooks(
          ctx.hooks,
          { ...hookInput(ctx, tool.name, input, block.id), reason: permission.reason },
          hookOptions(ctx, controller.signal),
        );
        const deniedMessage = hookMessage(block.id, 'PermissionDenied', denied);
        if (deniedMessage) yield deniedMessage;
        notes.push(...denied.additionalContext.map((t) => `PermissionDenied hook context: ${t}`));
        if (denied.retry) notes.push(RETRY_MESSAGE);
      }
      yield fail('permission', 'PermissionDenied', [text, ...notes].join('\n\n'));
      return;
    }
    if (permission.updatedInput) {
      const rewrite = await checkRewrite(ctx, tool, toolCtx, call, permission.updatedInput);
      if (!rewrite.ok) {
        yield fail(rewrite.stage, rewrite.kind, rewrite.message);
        return;
      }
      input = rewrite.input;
    }
    ctx.session.denials.allow(tool.name, input);

    // 5. Execution
    executing = true;
    const outcome: ExecOutcome = yield* runCall(tool, input, toolCtx, controller, ctx.toolTimeoutMs);

    // 6 and 7. Result mapping, PostToolUse hooks
    const done = await completeCall({
      ctx,
      tool,
      input,
      toolUseId: block.id,
      outcome,
      pre,
      notices,
      signal: options.signal,
    });
    if (done.hook) yield done.hook;

    // 8. The tool_result
    yield result(done.content, done.error);
  } catch (e) {
    // Only a bug in the pipeline gets here; it still ends as data.
    yield fail('execution', classifyToolError(e), `Error: ${errorText(e)}`);
  } finally {
    speculation?.cancel();
    options.signal?.removeEventListener('abort', onSignal);
    options.interrupt?.removeEventListener('abort', onInterrupt);
  }
}
