/**
 * What the loopback Messages API server answers, one reply per request. A reply is data; `reply.*` builds the
 * common ones.
 */

export type StopReason =
  | 'end_turn'
  | 'max_tokens'
  | 'stop_sequence'
  | 'tool_use'
  | 'pause_turn'
  | 'refusal'
  | 'model_context_window_exceeded';

export interface UsageNumbers {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Part of `cache_creation_input_tokens` written with the 1 hour lifetime. */
  cache_creation_1h_input_tokens: number;
}

export type ContentSpec =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; name: string; input: unknown; id?: string }
  /** A server tool's call (the API's web search), streamed like a tool call. */
  | { type: 'server_tool_use'; name: string; input: unknown; id?: string }
  /** A web search's results, sent whole in `content_block_start` as the API does. */
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

/** Timing shared by every reply. */
export interface Timing {
  /** Milliseconds before the status line and headers are sent. */
  delayMs?: number;
}

/** A successful answer: JSON for `stream: false`, server-sent events for `stream: true`. */
export interface MessageReply extends Timing {
  type: 'message';
  content: ContentSpec[];
  /** Default: `tool_use` when the content has a tool call, else `end_turn`. */
  stopReason?: StopReason | null;
  usage?: Partial<UsageNumbers>;
  /** Default: the model the request named. */
  model?: string;
  /** Streaming: milliseconds between events. */
  eventDelayMs?: number;
  /** Streaming: one pause of `ms` after the first `afterEvents` events. */
  stall?: { afterEvents: number; ms: number };
  /** Destroy the socket after this many events (streaming) or halfway through the body (JSON). */
  dropAfterEvents?: number;
  /** Streaming: end the response cleanly after this many events, as a proxy that gave up would. */
  endAfterEvents?: number;
  /** Streaming: an `event: error` after this many events, then the stream ends. */
  streamError?: { afterEvents: number; errorType: string; message: string };
}

/** An HTTP error in the API's shape `{type: 'error', error: {type, message}}`. */
export interface ErrorReply extends Timing {
  type: 'error';
  status: number;
  errorType: string;
  message: string;
  headers?: Record<string, string>;
}

/** Any status, headers and body, sent as given: malformed bodies, wrong content types. */
export interface RawReply extends Timing {
  type: 'raw';
  status: number;
  headers?: Record<string, string>;
  body: string;
}

/** The socket is destroyed before anything is sent. */
export interface DropReply extends Timing {
  type: 'drop';
}

/** Nothing is ever sent; the socket stays open until the client gives up or the server closes. */
export interface HangReply {
  type: 'hang';
}

export type Reply = MessageReply | ErrorReply | RawReply | DropReply | HangReply;

type MessageOptions = Omit<MessageReply, 'type' | 'content'>;
type TimingOptions = Timing & { headers?: Record<string, string> };

export const reply = {
  text(text: string, options: MessageOptions = {}): MessageReply {
    return { type: 'message', content: [{ type: 'text', text }], ...options };
  },

  /** A tool call, as the model answers a forced `tool_choice`; `text` puts a text block before it. */
  toolUse(call: { name: string; input: unknown; id?: string; text?: string }, options: MessageOptions = {}) {
    const content: ContentSpec[] = call.text === undefined ? [] : [{ type: 'text', text: call.text }];
    const block: ContentSpec = { type: 'tool_use', name: call.name, input: call.input };
    if (call.id !== undefined) block.id = call.id;
    content.push(block);
    return { type: 'message', content, ...options } satisfies MessageReply;
  },

  refusal(text = '', options: MessageOptions = {}): MessageReply {
    return {
      type: 'message',
      content: text ? [{ type: 'text', text }] : [],
      stopReason: 'refusal',
      ...options,
    };
  },

  /** Output cut at `max_tokens`: the given content, usually a tool call whose input is incomplete. */
  maxTokens(
    content: ContentSpec[] = [{ type: 'text', text: 'The answer is' }],
    options: MessageOptions = {},
  ) {
    return { type: 'message', content, stopReason: 'max_tokens', ...options } satisfies MessageReply;
  },

  error(status: number, errorType: string, message: string, options: TimingOptions = {}): ErrorReply {
    return { type: 'error', status, errorType, message, ...options };
  },

  /** 429; `retryAfter` is the `retry-after` header: seconds, or an HTTP date. */
  rateLimited(options: TimingOptions & { retryAfter?: number | string } = {}): ErrorReply {
    const { retryAfter, headers, ...timing } = options;
    const all = { ...headers };
    if (retryAfter !== undefined) all['retry-after'] = String(retryAfter);
    return reply.error(429, 'rate_limit_error', 'Number of request tokens has exceeded your rate limit.', {
      ...timing,
      headers: all,
    });
  },

  overloaded(options: TimingOptions = {}): ErrorReply {
    return reply.error(529, 'overloaded_error', 'Overloaded', options);
  },

  serverError(options: TimingOptions & { status?: number } = {}): ErrorReply {
    const { status = 500, ...rest } = options;
    return reply.error(status, 'api_error', 'Internal server error', rest);
  },

  badRequest(message = 'messages: field required', options: TimingOptions = {}): ErrorReply {
    return reply.error(400, 'invalid_request_error', message, options);
  },

  unauthorized(options: TimingOptions = {}): ErrorReply {
    return reply.error(401, 'authentication_error', 'invalid x-api-key', options);
  },

  /** A 200 whose JSON body does not parse. */
  malformedJson(body = '{"id":"msg_bad","type":"message","content":[', options: Timing = {}): RawReply {
    return { type: 'raw', status: 200, headers: { 'content-type': 'application/json' }, body, ...options };
  },

  raw(status: number, body: string, options: TimingOptions = {}): RawReply {
    return { type: 'raw', status, body, ...options };
  },

  drop(options: Timing = {}): DropReply {
    return { type: 'drop', ...options };
  },

  hang(): HangReply {
    return { type: 'hang' };
  },
};
