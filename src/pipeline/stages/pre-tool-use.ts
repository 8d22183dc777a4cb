import type { Speculation, ToolCall } from '../../classifier/index.js';
import { type PreToolUseOutcome, runPreToolUseHooks } from '../../hooks/index.js';
import { hookInput, hookOptions } from '../hook-input.js';
import { hookMessage } from '../messages.js';
import { validateToolInput } from '../validate.js';
import { adoptEarly, classifierCall, speculate } from './speculation.js';
import type { Stage, ToolRun } from './state.js';
import { fail, interrupted } from './tool-result.js';
import type { ValidInput } from './validation.js';

export interface PreToolUseChecked {
  /** The input, as a PreToolUse hook may have rewritten it. */
  input: Record<string, unknown>;
  validationAsk: string | undefined;
  call: ToolCall;
  pre: PreToolUseOutcome;
  /** The classification of `call`, still running. */
  speculation: Speculation;
}

/**
 * Stage 3: PreToolUse hooks and the speculative classifier, together (the classification the scheduler started
 * when the block was complete, when it is of this input). A hook's stop becomes a deny; a hook's rewritten input
 * is validated again and classified afresh.
 */
export async function* preToolUseStage(run: ToolRun, valid: ValidInput): Stage<PreToolUseChecked> {
  const { ctx, tool, block, controller } = run;
  let input = valid.input;
  let validationAsk = valid.ask;
  let call = classifierCall(ctx, tool.name, input);
  run.speculation = (await adoptEarly(run.early, ctx, call)) ?? speculate(ctx, call, controller.signal);
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
    run.speculation.cancel();
    const again = await validateToolInput(tool, pre.updatedInput, run.toolCtx);
    if (!again.ok) {
      yield fail(
        run,
        'validation',
        again.kind,
        `A PreToolUse hook rewrote the input into one that is not valid:\n${again.message}`,
      );
      return;
    }
    input = again.input;
    validationAsk = again.ask ?? validationAsk;
    call = { ...call, input };
    run.speculation = speculate(ctx, call, controller.signal);
  }
  if (controller.signal.aborted) {
    yield interrupted(run);
    return;
  }
  return { input, validationAsk, call, pre, speculation: run.speculation };
}
