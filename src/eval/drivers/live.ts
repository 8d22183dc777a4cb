/**
 * The live driver: a minimal agent loop on the Messages API. Each turn streams through the official SDK; every
 * tool call starts in the pipeline the moment its block is complete, where hooks, rules and the classifier decide
 * it, and the results go back to the model in the next turn.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { StreamEvent } from '../../pipeline/index.js';
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
  text: string;
  records: CallRecord[];
  usage: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export function defaultSystem(cwd: string): string {
  return `You are a coding agent working in ${cwd}. Use the tools to do the task; file paths are absolute. Before a tool runs, a permission system decides whether it may: when a call is denied, do not try to get around the decision, work another way or stop and say what you needed. When the task is done, answer with a short summary.`;
}

export async function runAgent(
  task: string,
  session: AgentSession,
  options: AgentOptions,
): Promise<AgentRun> {
  const messages: MessageParam[] = [{ role: 'user', content: task }];
  session.addUserMessage(task);
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  const add = (u: Usage) => {
    usage.input += u.input_tokens;
    usage.output += u.output_tokens;
    usage.cacheRead += u.cache_read_input_tokens ?? 0;
    usage.cacheWrite += u.cache_creation_input_tokens ?? 0;
  };
  let text = '';
  const maxTurns = options.maxTurns ?? 20;
  const baseSystem = options.system ?? defaultSystem(session.ctx.cwd);
  for (let turn = 1; turn <= maxTurns; turn++) {
    const stream = session.streaming(options.onRecord);
    let final: Anthropic.Message;
    try {
      const response = options.sdk.messages.stream(
        {
          model: options.model,
          max_tokens: options.maxTokens ?? 8192,
          // Read for every request: a tool ToolSearch loaded in the last turn is sent from now on.
          system: session.system(baseSystem),
          tools: session.ctx.registry.definitions() as Anthropic.Tool[],
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
      return {
        stopReason: 'error',
        error: (e as Error).message,
        turns: turn,
        text,
        records: session.records,
        usage,
      };
    }
    const { results, stop } = await stream.finish();
    add(final.usage);
    messages.push({ role: 'assistant', content: final.content });
    // Every tool_use has its tool_result, in the records; the model is not asked again.
    if (stop) return { stopReason: 'hook-stop', stop, turns: turn, text, records: session.records, usage };
    if (final.stop_reason !== 'tool_use' || results.length === 0) {
      return {
        stopReason: final.stop_reason ?? 'end_turn',
        turns: turn,
        text,
        records: session.records,
        usage,
      };
    }
    messages.push({ role: 'user', content: results as Anthropic.ToolResultBlockParam[] });
  }
  return { stopReason: 'max-turns', turns: maxTurns, text, records: session.records, usage };
}
