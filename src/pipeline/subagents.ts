import { randomUUID } from 'node:crypto';
import { runSubagentStartHooks, runSubagentStopHooks } from '../hooks/index.js';
import type { SubagentTask, ToolUseContext } from './context.js';
import { commonHookInput, hookOptions } from './hook-input.js';
import type { SubagentOutcome, SubagentRequest } from './subagent-types.js';
import { ToolRegistry } from './tool.js';

/** The tool that starts sub-agents; a sub-agent does not get it (no sub-agents of sub-agents). */
export const AGENT_TOOL_NAME = 'Agent';

/**
 * The sub-agent's pipeline context: the parent's, with its own registry (every tool of the parent's but Agent;
 * deferred tools deferred again, loaded by its own ToolSearch) and its identity for hook inputs. Permissions
 * (session grants included), hooks, handler and session state (denial counts, files read) are the parent's.
 */
export function subagentContext(ctx: ToolUseContext, agent: { id: string; type: string }): ToolUseContext {
  const registry = new ToolRegistry(ctx.registry.all().filter((t) => t.name !== AGENT_TOOL_NAME));
  return { ...ctx, registry, agent };
}

/**
 * Runs a sub-agent through the session's agent loop: SubagentStart hooks (their `additionalContext` goes to
 * it), the loop with the sub-agent's context, and SubagentStop hooks when it would stop (a block keeps it
 * running with the hook's reason as its next instruction, `stop_hook_active` set).
 */
export async function runSubagent(
  ctx: ToolUseContext,
  request: SubagentRequest,
  signal: AbortSignal,
): Promise<SubagentOutcome> {
  const loop = ctx.subagents;
  if (!loop) throw new Error('no agent loop runs sub-agents in this session');
  const agentId = randomUUID();
  const agentType = request.agentType;
  const child = subagentContext(ctx, { id: agentId, type: agentType });
  const options = hookOptions(ctx, signal);
  const base = { ...commonHookInput(ctx), agent_id: agentId, agent_type: agentType };
  const hookErrors: string[] = [];
  const start = await runSubagentStartHooks(ctx.hooks, base, options);
  hookErrors.push(...start.errors);
  let active = false;
  const task: SubagentTask = {
    agentId,
    agentType,
    description: request.description,
    prompt: request.prompt,
    ctx: child,
    additionalContext: start.additionalContext,
    signal,
    onStop: async (lastMessage) => {
      const stop = await runSubagentStopHooks(
        ctx.hooks,
        {
          ...base,
          stop_hook_active: active,
          agent_transcript_path: '',
          last_assistant_message: lastMessage,
        },
        options,
      );
      hookErrors.push(...stop.errors);
      if (stop.blocks.length === 0 || signal.aborted) return undefined;
      active = true;
      return stop.blocks.join('\n');
    },
  };
  const run = await loop(task);
  return {
    agentId,
    agentType,
    text: run.text,
    stopReason: run.stopReason,
    turns: run.turns,
    ...(run.error !== undefined ? { error: run.error } : {}),
    hookErrors,
  };
}
