import { type PostToolUseOutcome, type PreToolUseOutcome, runPostToolUseHooks } from '../../hooks/index.js';
import { hookInput, hookOptions } from '../hook-input.js';
import { appendText, hookMessage, type PipelineMessage } from '../messages.js';
import type { ExecOutcome } from './execution.js';
import { replaceOutput } from './output-replacement.js';
import type { ToolRun } from './state.js';
import type { ResultContent } from './tool-result.js';

export interface PostToolUseInput {
  input: Record<string, unknown>;
  outcome: ExecOutcome;
}

export interface PostToolUseDone {
  event: 'PostToolUse' | 'PostToolUseFailure';
  /** The outcome the result is mapped from: the tool's own, or with the output a hook replaced. */
  outcome: ExecOutcome;
  post: PostToolUseOutcome;
}

/**
 * Stage 6: PostToolUse (or PostToolUseFailure) hooks, which see the tool's own output. They run before the
 * result is mapped, so that an output a hook replaces (`updatedToolOutput`, checked against the tool's output
 * schema) is what the model sees. A `classifierContext` note is kept in the session for the classifier.
 */
export async function* postToolUseStage(
  run: ToolRun,
  p: PostToolUseInput,
): AsyncGenerator<PipelineMessage, PostToolUseDone, undefined> {
  const { ctx, tool, block } = run;
  const { outcome } = p;
  const base = hookInput(ctx, tool.name, p.input, block.id);
  const event = outcome.ok ? 'PostToolUse' : 'PostToolUseFailure';
  const input = outcome.ok
    ? { ...base, tool_response: outcome.output }
    : { ...base, error: outcome.message, is_interrupt: outcome.kind === 'Interrupted' };
  const post = await runPostToolUseHooks(ctx.hooks, event, input, hookOptions(ctx, run.options.signal));
  let final = outcome;
  let replacedBy: string | undefined;
  if (outcome.ok && post.replacements.length > 0) {
    const replaced = replaceOutput(tool, outcome.output, post.replacements);
    post.errors.push(...replaced.errors);
    if (replaced.replaced) {
      final = { ok: true, output: replaced.output };
      replacedBy = replaced.by;
    }
  }
  ctx.session.classifierContext.add(tool.name, block.id, post.classifierContext);
  const hook = hookMessage(block.id, event, post, replacedBy);
  if (hook) yield hook;
  return { event, outcome: final, post };
}

/** What the PreToolUse and PostToolUse hooks add, appended to the mapped content (stage 8 adds the run's notices). */
export function withHookText(
  mapped: ResultContent,
  pre: PreToolUseOutcome,
  done: PostToolUseDone,
): ResultContent {
  const { event, post } = done;
  const extra = [
    ...pre.additionalContext.map((t) => `PreToolUse hook context: ${t}`),
    ...post.additionalContext.map((t) => `${event} hook context: ${t}`),
    ...post.blocks.map((b) => `${event} hook feedback: ${b}`),
  ];
  let content = mapped.content;
  for (const text of extra) content = appendText(content, text);
  const result: ResultContent = { content };
  if (mapped.error) result.error = mapped.error;
  return result;
}
