import type { ToolUseContext } from './context.js';
import type { ExecuteOptions } from './execute.js';
import type { PipelineMessage, ToolUseBlock } from './messages.js';
import { ToolScheduler } from './scheduler.js';

/** The Messages API stream events the executor reads; others are ignored. */
export type StreamEvent =
  | {
      type: 'content_block_start';
      index: number;
      content_block: { type: string; id?: string; name?: string };
    }
  | { type: 'content_block_delta'; index: number; delta: { type: string; partial_json?: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: string; [key: string]: unknown };

interface Partial {
  id: string;
  name: string;
  json: string;
}

/**
 * Starts each tool call the moment its tool_use block is complete in a streamed assistant message, instead of
 * waiting for the whole message. Feed it the stream's events (or whole blocks), then call `finish()`.
 */
export class StreamingToolExecutor {
  private readonly scheduler: ToolScheduler;
  private readonly partial = new Map<number, Partial>();

  constructor(ctx: ToolUseContext, options: ExecuteOptions = {}) {
    this.scheduler = new ToolScheduler(ctx, options);
  }

  addTool(block: ToolUseBlock): void {
    this.scheduler.add(block);
  }

  handleEvent(event: StreamEvent): void {
    if (event.type === 'content_block_start') {
      const { index, content_block: b } = event as Extract<StreamEvent, { type: 'content_block_start' }>;
      if (b.type === 'tool_use') this.partial.set(index, { id: b.id ?? '', name: b.name ?? '', json: '' });
    } else if (event.type === 'content_block_delta') {
      const { index, delta } = event as Extract<StreamEvent, { type: 'content_block_delta' }>;
      const p = this.partial.get(index);
      if (p && delta.type === 'input_json_delta') p.json += delta.partial_json ?? '';
    } else if (event.type === 'content_block_stop') {
      const { index } = event as Extract<StreamEvent, { type: 'content_block_stop' }>;
      const p = this.partial.get(index);
      if (!p) return;
      this.partial.delete(index);
      this.addTool({ type: 'tool_use', id: p.id, name: p.name, input: parseJson(p.json) });
    }
  }

  /** The stream ended: no more calls. */
  finish(): void {
    this.scheduler.finish();
  }

  messages(): AsyncIterable<PipelineMessage> {
    return this.scheduler.messages();
  }
}

/** An empty input is `{}`; JSON that does not parse stays a string, which validation then rejects. */
function parseJson(text: string): unknown {
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
