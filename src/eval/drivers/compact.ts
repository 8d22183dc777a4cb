/**
 * Context compaction for the agent loop: when the last response says the conversation nearly fills the model's
 * context window, PreCompact hooks run, the model summarises the earlier turns, and the summary (a user
 * message) replaces them; the most recent turns stay as they were.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageParam, Usage } from '@anthropic-ai/sdk/resources/messages';
import { firePreCompactHooks, type ToolUseContext } from '../../pipeline/index.js';

export const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
/** Claude Code compacts on its own at about 92 % of the window. */
export const DEFAULT_COMPACT_THRESHOLD = 0.92;
/** Assistant turns kept word for word after a compaction. */
export const DEFAULT_KEEP_TURNS = 2;

export interface CompactOptions {
  /** The agent model's context window (default 200,000 tokens). */
  contextWindowTokens?: number;
  /** The share of the window at which the loop compacts (default 0.92). */
  threshold?: number;
  /** Recent assistant turns kept as they were, with their tool results (default 2). */
  keepTurns?: number;
}

/** One compaction of a run. */
export interface Compaction {
  /** The turn it ran before. */
  turn: number;
  /** The context the last response counted. */
  tokensBefore: number;
  /** Messages summarised, and kept as they were. */
  summarised: number;
  kept: number;
  /** PreCompact hooks that failed or printed something unusable. */
  hookErrors: string[];
  /** Set when the summary could not be had: the conversation was left as it was. */
  error?: string;
}

/**
 * The tokens the next request starts from: everything the last one read (uncached, read from and written to
 * the cache) and what it answered, which is now part of the conversation.
 */
export function contextTokens(u: Usage): number {
  return (
    u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + u.output_tokens
  );
}

export function needsCompaction(u: Usage, options: CompactOptions): boolean {
  const window = options.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS;
  return contextTokens(u) >= window * (options.threshold ?? DEFAULT_COMPACT_THRESHOLD);
}

const hasToolResult = (m: MessageParam) =>
  Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result');

/**
 * Where the kept tail starts: at the assistant message `keepTurns` from the end, or at the user prompt just
 * before it when that prompt is not a tool_result continuation. A tool_use and its tool_result are never
 * split: the tail never starts at a message of tool results. Undefined when there is too little to summarise.
 */
export function tailStart(messages: readonly MessageParam[], keepTurns: number): number | undefined {
  const assistants = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  if (assistants.length <= Math.max(keepTurns, 0)) return undefined;
  let start = keepTurns > 0 ? assistants[assistants.length - keepTurns]! : messages.length;
  const before = messages[start - 1];
  if (before && before.role === 'user' && !hasToolResult(before) && start - 1 > assistants[0]!) start -= 1;
  return start;
}

const SUMMARY_SYSTEM =
  'You summarise a coding agent session so that the agent can go on from the summary alone. Answer with text only; do not call tools.';

const SUMMARY_PROMPT = `Summarise the conversation so far, to replace it: the user's request and every instruction they gave, word for word where it matters; what was done (files read and changed, commands run, their results); what was denied by the permission system and why; decisions made; the current state of the work and what remains to do. Be complete but concise.`;

export const SUMMARY_INTRO =
  'This session continues an earlier conversation that ran out of context. The summary below covers the earlier part; the most recent turns follow as they were.';

function contentOf(m: MessageParam): ContentBlockParam[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [...m.content];
}

/** The messages with a text added as the last user turn (joined to a last user message: roles alternate). */
function withUserText(messages: readonly MessageParam[], text: string): MessageParam[] {
  const last = messages.at(-1);
  if (last?.role === 'user')
    return [
      ...messages.slice(0, -1),
      { role: 'user', content: [...contentOf(last), { type: 'text', text }] },
    ];
  return [...messages, { role: 'user', content: text }];
}

export interface CompactRequest {
  sdk: Pick<Anthropic, 'messages'>;
  model: string;
  maxTokens: number;
  tools: Anthropic.Tool[];
  ctx: ToolUseContext;
  turn: number;
  tokensBefore: number;
  keepTurns?: number;
  signal?: AbortSignal;
}

/**
 * Compacts `messages` in place: PreCompact hooks (trigger `auto`), the model's summary of the turns before the
 * kept tail, then the summary as the first user message. Returns what happened, and the summary request's usage.
 */
export async function compactConversation(
  messages: MessageParam[],
  request: CompactRequest,
): Promise<{ compaction: Compaction; usage?: Usage }> {
  const start = tailStart(messages, request.keepTurns ?? DEFAULT_KEEP_TURNS);
  const base = { turn: request.turn, tokensBefore: request.tokensBefore };
  if (start === undefined)
    return {
      compaction: { ...base, summarised: 0, kept: messages.length, hookErrors: [], error: 'too few turns' },
    };
  const hooks = await firePreCompactHooks(request.ctx, 'auto', '', request.signal);
  const compaction: Compaction = {
    ...base,
    summarised: start,
    kept: messages.length - start,
    hookErrors: hooks.errors,
  };
  let usage: Usage | undefined;
  let summary: string;
  try {
    const response = await request.sdk.messages.create(
      {
        model: request.model,
        max_tokens: request.maxTokens,
        system: SUMMARY_SYSTEM,
        tools: request.tools,
        tool_choice: { type: 'none' },
        messages: withUserText(messages.slice(0, start), SUMMARY_PROMPT),
      },
      request.signal ? { signal: request.signal } : {},
    );
    usage = response.usage;
    summary = response.content
      .flatMap((b) => (b.type === 'text' ? [b.text] : []))
      .join('')
      .trim();
    if (!summary) throw new Error('the summary was empty');
  } catch (e) {
    return {
      compaction: { ...compaction, summarised: 0, kept: messages.length, error: (e as Error).message },
      ...(usage ? { usage } : {}),
    };
  }
  const intro = `${SUMMARY_INTRO}\n\n<summary>\n${summary}\n</summary>`;
  const tail = messages.slice(start);
  const first = tail[0];
  const head: MessageParam[] =
    first?.role === 'user'
      ? [{ role: 'user', content: [{ type: 'text', text: intro }, ...contentOf(first)] }, ...tail.slice(1)]
      : [{ role: 'user', content: intro }, ...tail];
  messages.splice(0, messages.length, ...head);
  return { compaction, ...(usage ? { usage } : {}) };
}
