/**
 * The live driver: a minimal agent loop on the Messages API. Each turn streams through the official SDK; every
 * tool call starts in the pipeline the moment its block is complete, where hooks, rules and the classifier decide
 * it, and the results go back to the model in the next turn.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { StreamEvent, SubagentTask } from '../../pipeline/index.js';
import {
  type Compaction,
  type CompactOptions,
  compactConversation,
  contextTokens,
  needsCompaction,
} from './compact.js';
import type { AgentSession, CallRecord, HookStop } from './session.js';

export interface AgentOptions {
  sdk: Pick<Anthropic, 'messages'>;
  model: string;
  maxTurns?: number;
  maxTokens?: number;
  system?: string;
  onText?: (text: string) => void;
  onRecord?: (r: CallRecord) => void;
  signal?: AbortSignal;
  /**
   * Compaction when the conversation nears the context window (on by default: 200,000 tokens, at 92 %,
   * keeping the last 2 turns); `false` never compacts.
   */
  compact?: CompactOptions | false;
  /**
   * Called when the model ends its turn, with the text of its last message; a string keeps the run going with it
   * as the next user message (a SubagentStop hook that blocks, for a sub-agent).
   */
  onStop?: (lastMessage: string) => Promise<string | undefined>;
}

export interface AgentRun {
  /**
   * `end_turn` and the like when the model finished; `hook-stop` when a hook asked the agent to stop (the turn's
   * calls settled, the model was not asked again); `max-turns` or `error` otherwise.
   */
  stopReason: string;
  error?: string;
  /** With `hook-stop`: which call's hook asked, and its reason (for the user; the model never sees it). */
  stop?: HookStop;
  turns: number;
  /** Every text the model streamed, over all turns. */
  text: string;
  /** The text of the model's last message: a sub-agent's answer to its parent. */
  finalText: string;
  records: CallRecord[];
  /** The compactions of the run, in order (a sub-agent's are its own). */
  compactions: Compaction[];
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export function defaultSystem(cwd: string): string {
  return `You are a coding agent working in ${cwd}. Use the tools to do the task; file paths are absolute. Before a tool runs, a permission system decides whether it may: when a call is denied, do not try to get around the decision, work another way or stop and say what you needed. When the task is done, answer with a short summary.`;
}

export function subagentSystem(cwd: string): string {
  return `You are a sub-agent of a coding agent, working in ${cwd}: another agent gave you the task below and reads only your final message. Use the tools to do it; file paths are absolute. Before a tool runs, a permission system decides whether it may: when a call is denied, do not try to get around the decision, work another way or stop and say what you needed. End with a final message that reports what you found or did, complete enough to act on.`;
}

type Totals = AgentRun['usage'];

/** The agent loop for a sub-agent of the Agent tool: the same loop, its own conversation and system prompt. */
async function runSubagentTask(
  task: SubagentTask,
  parent: AgentSession,
  options: AgentOptions,
  usage: Totals,
) {
  const signal = options.signal ? AbortSignal.any([task.signal, options.signal]) : task.signal;
  const { onText: _, system: __, ...inherited } = options;
  const run = await runAgent(task.prompt, parent.child(task.ctx), {
    ...inherited,
    system: [subagentSystem(task.ctx.cwd), ...task.additionalContext].join('\n\n'),
    signal,
    onStop: task.onStop,
  });
  usage.input += run.usage.input;
  usage.output += run.usage.output;
  usage.cacheRead += run.usage.cacheRead;
  usage.cacheWrite += run.usage.cacheWrite;
  return {
    text: run.finalText,
    stopReason: run.stopReason,
    turns: run.turns,
    ...(run.error !== undefined ? { error: run.error } : {}),
  };
}

export async function runAgent(
  task: string,
  session: AgentSession,
  options: AgentOptions,
): Promise<AgentRun> {
  const messages: MessageParam[] = [{ role: 'user', content: task }];
  session.addUserMessage(task);
  const usage: Totals = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const add = (u: Usage) => {
    usage.input += u.input_tokens;
    usage.output += u.output_tokens;
    usage.cacheRead += u.cache_read_input_tokens ?? 0;
    usage.cacheWrite += u.cache_creation_input_tokens ?? 0;
  };
  // The Agent tool's sub-agents run this same loop; their tokens count in this run's usage.
  session.subagentLoop = (t) => runSubagentTask(t, session, options, usage);
  let text = '';
  let finalText = '';
  const compactions: Compaction[] = [];
  let last: Usage | undefined;
  const maxTurns = options.maxTurns ?? 20;
  const maxTokens = options.maxTokens ?? 8192;
  const baseSystem = options.system ?? defaultSystem(session.ctx.cwd);
  const end = (stopReason: string, turns: number, more: Partial<AgentRun> = {}): AgentRun => ({
    stopReason,
    ...more,
    turns,
    text,
    finalText,
    records: session.records,
    usage,
    compactions,
  });
  for (let turn = 1; turn <= maxTurns; turn++) {
    const tools = session.ctx.registry.definitions() as Anthropic.Tool[];
    if (options.compact !== false && last && needsCompaction(last, options.compact ?? {})) {
      const keepTurns = options.compact?.keepTurns;
      const done = await compactConversation(messages, {
        sdk: options.sdk,
        model: options.model,
        maxTokens,
        tools,
        ctx: session.ctx,
        turn,
        tokensBefore: contextTokens(last),
        ...(keepTurns !== undefined ? { keepTurns } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      compactions.push(done.compaction);
      if (done.usage) add(done.usage);
      last = undefined;
    }
    const stream = session.streaming(options.onRecord);
    let final: Anthropic.Message;
    try {
      const response = options.sdk.messages.stream(
        {
          model: options.model,
          max_tokens: maxTokens,
          // Read for every request: a tool ToolSearch loaded in the last turn is sent from now on.
          system: session.system(baseSystem),
          tools,
          messages,
        },
        options.signal ? { signal: options.signal } : {},
      );
      for await (const event of response) {
        stream.feed(event as unknown as StreamEvent);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          text += event.delta.text;
          options.onText?.(event.delta.text);
        }
      }
      final = await response.finalMessage();
    } catch (e) {
      await stream.finish();
      return end('error', turn, { error: (e as Error).message });
    }
    const { results, stop } = await stream.finish();
    add(final.usage);
    last = final.usage;
    finalText = final.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
    messages.push({ role: 'assistant', content: final.content });
    // Every tool_use has its tool_result, in the records; the model is not asked again.
    if (stop) return end('hook-stop', turn, { stop });
    if (final.stop_reason !== 'tool_use' || results.length === 0) {
      const next = options.onStop ? await options.onStop(finalText) : undefined;
      if (next === undefined || turn === maxTurns) return end(final.stop_reason ?? 'end_turn', turn);
      messages.push({ role: 'user', content: next });
      continue;
    }
    messages.push({ role: 'user', content: results as Anthropic.ToolResultBlockParam[] });
  }
  return end('max-turns', maxTurns);
}
