/** The Messages API wire format: message objects, server-sent events and error bodies. */
import type { ContentSpec, MessageReply, StopReason, UsageNumbers } from './messages-replies.js';

export interface WireIds {
  next(prefix: string): string;
}

export function counterIds(): WireIds {
  const counts = new Map<string, number>();
  return {
    next(prefix) {
      const n = (counts.get(prefix) ?? 0) + 1;
      counts.set(prefix, n);
      return `${prefix}_${String(n).padStart(24, '0')}`;
    },
  };
}

export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: WireUsage;
}

type WireBlock =
  | { type: 'text'; text: string; citations: null }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | { type: 'web_search_tool_result'; tool_use_id: string; content: unknown };

interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  server_tool_use: null;
  service_tier: 'standard';
}

export interface SseEvent {
  event: string;
  data: unknown;
}

export function errorBody(errorType: string, message: string, requestId?: string): string {
  const body: Record<string, unknown> = { type: 'error', error: { type: errorType, message } };
  if (requestId !== undefined) body.request_id = requestId;
  return JSON.stringify(body);
}

/** The complete message a reply stands for; token counts default to rough sizes of request and content. */
export function buildMessage(reply: MessageReply, request: unknown, ids: WireIds): WireMessage {
  const content = reply.content.map((c) => block(c, ids));
  const hasTool = content.some((c) => c.type === 'tool_use');
  const stop = reply.stopReason === undefined ? (hasTool ? 'tool_use' : 'end_turn') : reply.stopReason;
  const model = reply.model ?? modelOf(request);
  return {
    id: ids.next('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: usage(reply.usage, request, reply.content),
  };
}

function block(spec: ContentSpec, ids: WireIds): WireBlock {
  if (spec.type === 'text') return { type: 'text', text: spec.text, citations: null };
  if (spec.type === 'web_search_tool_result') return { ...spec };
  if (spec.type === 'server_tool_use') {
    return {
      type: 'server_tool_use',
      id: spec.id ?? ids.next('srvtoolu'),
      name: spec.name,
      input: spec.input,
    };
  }
  return { type: 'tool_use', id: spec.id ?? ids.next('toolu'), name: spec.name, input: spec.input };
}

function modelOf(request: unknown): string {
  const model = (request as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'claude-loopback';
}

function usage(
  given: Partial<UsageNumbers> | undefined,
  request: unknown,
  content: ContentSpec[],
): WireUsage {
  const sent = request as { system?: unknown; messages?: unknown; tools?: unknown } | undefined;
  const inputGuess = Math.ceil(JSON.stringify([sent?.system, sent?.messages, sent?.tools]).length / 4);
  const outputGuess = Math.max(1, Math.ceil(JSON.stringify(content).length / 4));
  const write = given?.cache_creation_input_tokens ?? 0;
  const write1h = Math.min(write, given?.cache_creation_1h_input_tokens ?? 0);
  return {
    input_tokens: given?.input_tokens ?? inputGuess,
    output_tokens: given?.output_tokens ?? outputGuess,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: given?.cache_read_input_tokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: write - write1h, ephemeral_1h_input_tokens: write1h },
    server_tool_use: null,
    service_tier: 'standard',
  };
}

/**
 * The events the API streams for a message: `message_start` (content empty, output tokens so far), a `ping`,
 * then per block `content_block_start`, deltas (`text_delta` by words, `input_json_delta` in slices of the
 * JSON text) and `content_block_stop`, then `message_delta` (stop reason, final usage) and `message_stop`.
 */
export function sseEvents(message: WireMessage): SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { ...message.usage, output_tokens: 1 },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  message.content.forEach((b, index) => {
    const start =
      b.type === 'text' ? { ...b, text: '' } : b.type === 'web_search_tool_result' ? b : { ...b, input: {} };
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: start },
    });
    for (const delta of deltas(b)) {
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const { cache_creation: _, server_tool_use: __, service_tier: ___, ...finalUsage } = message.usage;
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: finalUsage,
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

function deltas(b: WireBlock): object[] {
  if (b.type === 'text') {
    return (b.text.match(/\S+\s*|\s+/g) ?? []).map((text) => ({ type: 'text_delta', text }));
  }
  if (b.type === 'web_search_tool_result') return [];
  const json = JSON.stringify(b.input);
  const parts: object[] = [];
  for (let i = 0; i < json.length; i += 12) {
    parts.push({ type: 'input_json_delta', partial_json: json.slice(i, i + 12) });
  }
  return parts;
}

export function encodeSse(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}
