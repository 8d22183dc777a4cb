import { type PreToolUseOutcome, runPostToolUseHooks } from '../../hooks/index.js';
import { hookInput, hookOptions } from '../hook-input.js';
import { appendText, hookMessage, type PipelineMessage } from '../messages.js';
import type { ExecOutcome } from './execution.js';
import type { ToolRun } from './state.js';
import type { ResultContent } from './tool-result.js';

export interface PostToolUseInput {
  input: Record<string, unknown>;
  outcome: ExecOutcome;
  pre: PreToolUseOutcome;
  mapped: ResultContent;
}

/**
 * Stage 7: PostToolUse (or PostToolUseFailure) hooks; what they and the PreToolUse hooks add, and the run's
 * notices, are appended to the content.
 */
export async function* postToolUseStage(
  run: ToolRun,
  p: PostToolUseInput,
): AsyncGenerator<PipelineMessage, ResultContent, undefined> {
  const { ctx, tool, block } = run;
  const { outcome } = p;
  const base = hookInput(ctx, tool.name, p.input, block.id);
  const event = outcome.ok ? 'PostToolUse' : 'PostToolUseFailure';
  const input = outcome.ok
    ? { ...base, tool_response: outcome.output }
    : { ...base, error: outcome.message, is_interrupt: outcome.kind === 'Interrupted' };
  const post = await runPostToolUseHooks(ctx.hooks, event, input, hookOptions(ctx, run.options.signal));
  const extra = [
    ...p.pre.additionalContext.map((t) => `PreToolUse hook context: ${t}`),
    ...post.additionalContext.map((t) => `${event} hook context: ${t}`),
    ...post.blocks.map((b) => `${event} hook feedback: ${b}`),
    ...run.notices,
  ];
  let content = p.mapped.content;
  for (const text of extra) content = appendText(content, text);
  const hook = hookMessage(block.id, event, post);
  if (hook) yield hook;
  const done: ResultContent = { content };
  if (p.mapped.error) done.error = p.mapped.error;
  return done;
}
