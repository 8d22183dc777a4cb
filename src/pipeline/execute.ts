import type { ToolUseContext } from './context.js';
import { classifyToolError, errorText } from './errors.js';
import type { PipelineMessage, ToolUseBlock } from './messages.js';
import { permissionStage } from './permission/stage.js';
import { executionStage } from './stages/execution.js';
import { lookupStage } from './stages/lookup.js';
import { postToolUseStage, withHookText } from './stages/post-tool-use.js';
import { preToolUseStage } from './stages/pre-tool-use.js';
import { resultMappingStage } from './stages/result-mapping.js';
import type { EarlySpeculation } from './stages/speculation.js';
import { type ExecuteOptions, openRun, startRun } from './stages/state.js';
import { fail, toolResultStage } from './stages/tool-result.js';
import { validationStage } from './stages/validation.js';

export { REJECT_MESSAGE, RETRY_MESSAGE } from './permission/stage.js';
export type { EarlySpeculation } from './stages/speculation.js';
export type { ExecuteOptions } from './stages/state.js';
export { INTERRUPT_MESSAGE } from './stages/tool-result.js';

/**
 * The eight stages for one tool_use block: lookup, validation, PreToolUse hooks with the speculative
 * classifier, permission, execution, PostToolUse hooks, result mapping, and the tool_result. The PostToolUse
 * hooks run before the mapping, so that an output they replace is the one the model sees. Every failure is
 * a tool_result with `is_error: true`; the generator itself does not throw. `early` is the classification the
 * scheduler started when the block was complete; stage 3 uses it when it is of the same input.
 */
export async function* executeToolUse(
  block: ToolUseBlock,
  ctx: ToolUseContext,
  options: ExecuteOptions = {},
  early?: Promise<EarlySpeculation | undefined>,
): AsyncGenerator<PipelineMessage, void, undefined> {
  const started = startRun(block, ctx, options, early);
  const found = lookupStage(started);
  if ('ended' in found) {
    yield found.ended;
    return;
  }
  const run = openRun(started, found);
  try {
    const valid = yield* validationStage(run);
    if (!valid) return;
    const checked = yield* preToolUseStage(run, valid);
    if (!checked) return;
    const input = yield* permissionStage(run, checked);
    if (!input) return;
    const outcome = yield* executionStage(run, input);
    const post = yield* postToolUseStage(run, { input, outcome });
    const mapped = await resultMappingStage(run, post.outcome);
    yield toolResultStage(run, withHookText(mapped, checked.pre, post));
  } catch (e) {
    // Only a bug in the pipeline gets here; it still ends as data.
    yield fail(run, 'execution', classifyToolError(e), `Error: ${errorText(e)}`);
  } finally {
    run.close();
  }
}
