import { type LifecycleOutcome, runPreCompactHooks } from '../hooks/index.js';
import type { ToolUseContext } from './context.js';
import { commonHookInput, hookOptions } from './hook-input.js';

/**
 * PreCompact hooks, before the agent loop summarises the conversation: `auto` when the context window is
 * nearly full, `manual` for a compaction asked for (with the user's instructions). They observe; nothing they
 * say stops the compaction.
 */
export function firePreCompactHooks(
  ctx: ToolUseContext,
  trigger: 'manual' | 'auto',
  customInstructions = '',
  signal?: AbortSignal,
): Promise<LifecycleOutcome> {
  return runPreCompactHooks(
    ctx.hooks,
    { ...commonHookInput(ctx), trigger, custom_instructions: customInstructions },
    hookOptions(ctx, signal),
  );
}
