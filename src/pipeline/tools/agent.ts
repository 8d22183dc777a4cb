import { z } from 'zod';
import { SUBAGENT_TYPES, type SubagentOutcome } from '../subagent-types.js';
import { AGENT_TOOL_NAME } from '../subagents.js';
import { buildTool, type Tool } from '../tool.js';

const input = z.strictObject({
  description: z.string().min(1).describe('A short (3-5 word) description of the task'),
  prompt: z
    .string()
    .min(1)
    .describe('The task for the agent: everything it needs to know, it sees nothing else'),
  subagent_type: z
    .string()
    .optional()
    .describe(`The type of agent (default ${SUBAGENT_TYPES[0]}): ${SUBAGENT_TYPES.join(', ')}`),
});

/** What a PostToolUse hook may replace the Agent tool's output with. */
export const AgentOutputSchema = z.object({
  agentId: z.string(),
  agentType: z.string(),
  text: z.string(),
  stopReason: z.string(),
  error: z.string().optional(),
  turns: z.number().int().nonnegative(),
  hookErrors: z.array(z.string()),
});

/**
 * Claude Code's Agent tool (once `Task`): a sub-agent with its own conversation runs the prompt through the
 * session's agent loop, its calls decided and hooked like the parent's, and its last message is the result.
 */
export function agentTool(): Tool<z.infer<typeof input>, SubagentOutcome> {
  return buildTool({
    name: AGENT_TOOL_NAME,
    description: 'Launch a sub-agent to do a task on its own and report back',
    prompt: () =>
      'Launch a sub-agent for a multi-step task: it has its own conversation and the same tools (but this one), ' +
      'starts from your prompt alone, and returns its final message. Its tool calls need permission as yours do. ' +
      `Agent types: ${SUBAGENT_TYPES.map((t) => `${t} (every tool but Agent)`).join(', ')}.`,
    inputSchema: input,
    outputSchema: AgentOutputSchema,
    // Sub-agents of one message run side by side, as in Claude Code; each call of theirs is scheduled alone.
    isConcurrencySafe: () => true,
    interruptBehavior: () => 'cancel',
    validateInput(args, ctx) {
      const type = args.subagent_type ?? SUBAGENT_TYPES[0]!;
      if (!SUBAGENT_TYPES.includes(type))
        return {
          result: false,
          message: `Agent type '${type}' not found. Available agents: ${SUBAGENT_TYPES.join(', ')}`,
        };
      if (!ctx.runSubagent) return { result: false, message: 'Sub-agents are not available in this session' };
      return { result: true };
    },
    async *call(args, ctx) {
      const agentType = args.subagent_type ?? SUBAGENT_TYPES[0]!;
      yield { type: 'progress', data: { agentType, description: args.description } };
      const outcome = await ctx.runSubagent!({
        description: args.description,
        prompt: args.prompt,
        agentType,
      });
      if (outcome.stopReason === 'error')
        throw new Error(`The sub-agent failed: ${outcome.error ?? 'error'}`);
      yield { type: 'result', data: outcome };
    },
    mapToolResult(out) {
      const text = out.text.trim() || '(the sub-agent gave no final message)';
      if (out.stopReason === 'max-turns')
        return `${text}\n\n(The sub-agent stopped after ${out.turns} turns.)`;
      if (out.stopReason === 'hook-stop') return `${text}\n\n(A hook stopped the sub-agent.)`;
      return text;
    },
  });
}
