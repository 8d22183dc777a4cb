import { appendText, type FailedStage, type ToolResultContent, type ToolResultMessage } from '../messages.js';
import type { Run } from './state.js';

export const INTERRUPT_MESSAGE = 'Interrupted by user: the tool use was cancelled.';

export interface ResultContent {
  content: ToolResultContent;
  /** Set when the call did not succeed. */
  error?: { stage: FailedStage; kind: string };
}

/** Stage 8: the tool_result, the call's last message. */
export function toolResultStage(run: Run, result: ResultContent): ToolResultMessage {
  const { block } = run;
  let content = result.content;
  // A call past stage 1 carries its notices (a deprecated name), on success and on failure alike.
  for (const notice of run.notices) content = appendText(content, notice);
  const m: ToolResultMessage = {
    type: 'tool_result',
    toolUseId: block.id,
    tool: run.toolName,
    block: {
      type: 'tool_result',
      tool_use_id: block.id,
      content,
      is_error: result.error !== undefined,
    },
    durationMs: Math.round(performance.now() - run.started),
  };
  if (result.error) m.error = result.error;
  return m;
}

/** The tool_result of a call that ends early, in the stage named. */
export function fail(
  run: Run,
  stage: FailedStage,
  kind: string,
  content: ToolResultContent,
): ToolResultMessage {
  return toolResultStage(run, { content, error: { stage, kind } });
}

export function interrupted(run: Run): ToolResultMessage {
  return fail(run, 'cancelled', 'Interrupted', INTERRUPT_MESSAGE);
}
