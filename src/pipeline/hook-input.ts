import { resolveMode } from '../classifier/index.js';
import type { CommonHookInput, EventInput, RunHooksOptions } from '../hooks/index.js';
import type { ToolUseContext } from './context.js';

/** The fields every hook gets on stdin; inside a sub-agent, its id and type too. */
export function commonHookInput(ctx: ToolUseContext): CommonHookInput {
  return {
    session_id: ctx.sessionId,
    transcript_path: ctx.transcriptPath,
    cwd: ctx.cwd,
    permission_mode: resolveMode(ctx.permissions.classifier.settings, ctx.mode),
    ...(ctx.agent ? { agent_id: ctx.agent.id, agent_type: ctx.agent.type } : {}),
  };
}

/** The fields every tool hook gets on stdin. */
export function hookInput(ctx: ToolUseContext, tool: string, input: unknown, toolUseId: string): EventInput {
  return {
    ...commonHookInput(ctx),
    tool_name: tool,
    tool_input: input,
    tool_use_id: toolUseId,
  };
}

export function hookOptions(ctx: ToolUseContext, signal?: AbortSignal): RunHooksOptions {
  return {
    cwd: ctx.cwd,
    projectDir: ctx.permissions.classifier.settings.projectRoot ?? ctx.permissions.classifier.settings.cwd,
    home: ctx.permissions.classifier.settings.home,
    env: ctx.hookEnv,
    onBackground: (run) => ctx.session.trackBackgroundHook(run),
    ...(signal ? { signal } : {}),
  };
}
