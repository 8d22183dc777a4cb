import type { ToolUseContext } from '../context.js';
import { classifyToolError, errorText } from '../errors.js';
import { type ToolResultContent, textOf } from '../messages.js';
import { persistLargeResult } from '../results.js';
import type { AnyTool } from '../tool.js';
import type { ExecOutcome } from './execution.js';
import type { ToolRun } from './state.js';
import type { ResultContent } from './tool-result.js';

/** Stage 7: the outcome (as the PostToolUse hooks left it) mapped to tool_result content, saved to disk (or cut) when too large. */
export async function resultMappingStage(run: ToolRun, outcome: ExecOutcome): Promise<ResultContent> {
  const { ctx, tool, block } = run;
  let content: ToolResultContent;
  let error: ResultContent['error'];
  if (outcome.ok) {
    try {
      content = tool.mapToolResult(outcome.output as never, block.id);
    } catch (e) {
      content = `Error: ${tool.name} could not format its result: ${errorText(e)}`;
      error = { stage: 'result', kind: classifyToolError(e) };
    }
  } else {
    content = outcome.message;
    error = { stage: outcome.kind === 'Interrupted' ? 'cancelled' : 'execution', kind: outcome.kind };
  }
  content = await persistOrCut(content, tool, ctx, block.id);
  const mapped: ResultContent = { content };
  if (error) mapped.error = error;
  return mapped;
}

async function persistOrCut(
  content: ToolResultContent,
  tool: AnyTool,
  ctx: ToolUseContext,
  toolUseId: string,
): Promise<ToolResultContent> {
  try {
    return await persistLargeResult(content, tool.maxResultSizeChars, ctx.resultsDir, toolUseId);
  } catch (e) {
    const limit = tool.maxResultSizeChars;
    return `${textOf(content).slice(0, limit)}\n[output cut at ${limit} characters; it could not be saved: ${errorText(e)}]`;
  }
}
