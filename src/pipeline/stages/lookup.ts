import { toolUseError } from '../errors.js';
import type { ToolResultMessage } from '../messages.js';
import type { FoundTool, Run } from './state.js';
import { fail, interrupted } from './tool-result.js';

export type Found = FoundTool | { ended: ToolResultMessage };

/**
 * Stage 1: a call cancelled before it starts ends here, and so does one whose tool is unknown or not loaded
 * yet. Synchronous, so that nothing can abort between this check and `openRun`'s listening for it.
 */
export function lookupStage(run: Run): Found {
  const { block, ctx, options } = run;
  if (options.signal?.aborted || options.interrupt?.aborted) return { ended: interrupted(run) };
  const found = ctx.registry.find(block.name);
  if (!found) {
    return {
      ended: fail(run, 'lookup', 'UnknownTool', toolUseError(`Error: No such tool available: ${block.name}`)),
    };
  }
  const tool = found.tool;
  run.toolName = tool.name;
  if (!ctx.registry.isLoaded(tool)) {
    const message = `${tool.name} is a deferred tool and its schema is not loaded. Call ToolSearch with query "select:${tool.name}" first, then call it again.`;
    return { ended: fail(run, 'lookup', 'DeferredToolNotLoaded', toolUseError(message)) };
  }
  const notices: string[] = [];
  if (found.deprecated) {
    notices.push(
      `Note: ${found.deprecated} is a deprecated name for ${tool.name}. Call ${tool.name} from now on.`,
    );
  }
  return { tool, notices };
}
