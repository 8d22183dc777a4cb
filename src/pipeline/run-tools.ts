import type { ToolUseContext } from './context.js';
import type { ExecuteOptions } from './execute.js';
import type { PipelineMessage, ToolUseBlock } from './messages.js';
import { ToolScheduler } from './scheduler.js';

/**
 * Runs the tool calls of one assistant message: concurrency-safe calls in parallel, the others one by one,
 * results in call order.
 */
export async function* runTools(
  blocks: readonly ToolUseBlock[],
  ctx: ToolUseContext,
  options: ExecuteOptions = {},
): AsyncGenerator<PipelineMessage, void, undefined> {
  const scheduler = new ToolScheduler(ctx, options);
  for (const block of blocks) scheduler.add(block);
  scheduler.finish();
  yield* scheduler.messages();
}
