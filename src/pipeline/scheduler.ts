import { AsyncQueue } from './async-queue.js';
import type { ToolUseContext } from './context.js';
import { classifyToolError, errorText } from './errors.js';
import { type ExecuteOptions, executeToolUse } from './execute.js';
import type { FailedStage, PipelineMessage, ToolResultMessage, ToolUseBlock } from './messages.js';
import { parseInput } from './schema.js';
import { type EarlySpeculation, speculateEarly } from './stages/speculation.js';

/** The tool_result of a call cancelled by a stop request; the hook's reason is for the user, not the model. */
export const STOPPED_MESSAGE = 'Cancelled: a hook stopped the agent before this call started.';

/** At most this many calls run at once. */
export const MAX_TOOL_CONCURRENCY = 10;

interface Entry {
  index: number;
  block: ToolUseBlock;
  safe: boolean;
  state: 'queued' | 'running' | 'done';
  /** Its classification, started when the block was added. */
  early: Promise<EarlySpeculation | undefined>;
  /** Cancels that classification once the call has ended (or never starts). */
  endEarly: () => void;
}

function concurrencySafe(block: ToolUseBlock, ctx: ToolUseContext): boolean {
  const tool = ctx.registry.find(block.name)?.tool;
  if (!tool) return false;
  const parsed = parseInput(tool.inputSchema, block.input, tool.name);
  if (!parsed.ok) return false;
  try {
    return tool.isConcurrencySafe(parsed.data);
  } catch {
    return false;
  }
}

/**
 * Runs tool calls as they are added. Each call's classification starts when it is added, so that a call waiting
 * for others finds its verdict ready or on the way. A call starts when nothing runs, or when it and everything
 * running are concurrency-safe; a queued unsafe call holds back the calls after it, so effects happen in call
 * order. Progress passes through at once, results come out in call order. When a Bash call fails, or a hook
 * asks the agent to stop, the calls of the same turn that have not started are cancelled; running ones finish.
 */
export class ToolScheduler {
  private readonly entries: Entry[] = [];
  private readonly out = new AsyncQueue<PipelineMessage>();
  private readonly results = new Map<number, ToolResultMessage>();
  private nextResult = 0;
  private finished = false;
  /** Why calls that have not started are cancelled: the first Bash failure or stop request of the turn. */
  private cancelling: { content: string; kind: string } | undefined;

  constructor(
    private readonly ctx: ToolUseContext,
    private readonly options: ExecuteOptions = {},
  ) {}

  add(block: ToolUseBlock): void {
    if (this.finished) throw new Error('no calls can be added after finish()');
    this.entries.push({
      index: this.entries.length,
      block,
      safe: concurrencySafe(block, this.ctx),
      state: 'queued',
      ...this.speculate(block),
    });
    this.pump();
  }

  private speculate(block: ToolUseBlock): Pick<Entry, 'early' | 'endEarly'> {
    const controller = new AbortController();
    const { signal, interrupt } = this.options;
    const abort = () => controller.abort();
    if (signal?.aborted || interrupt?.aborted) abort();
    signal?.addEventListener('abort', abort, { once: true });
    interrupt?.addEventListener('abort', abort, { once: true });
    return {
      early: speculateEarly(block, this.ctx, controller.signal),
      endEarly: () => {
        abort();
        signal?.removeEventListener('abort', abort);
        interrupt?.removeEventListener('abort', abort);
      },
    };
  }

  /** No more calls will be added; the message stream ends once every result is out. */
  finish(): void {
    this.finished = true;
    this.flush();
  }

  messages(): AsyncIterable<PipelineMessage> {
    return this.out;
  }

  private pump(): void {
    for (const entry of this.entries) {
      if (entry.state !== 'queued') continue;
      const running = this.entries.filter((e) => e.state === 'running');
      if (this.cancelling !== undefined) {
        this.cancel(entry);
        continue;
      }
      const fits = running.length === 0 || (entry.safe && running.every((e) => e.safe));
      if (!fits || running.length >= MAX_TOOL_CONCURRENCY) return;
      this.start(entry);
      if (!entry.safe) return;
    }
  }

  private start(entry: Entry): void {
    entry.state = 'running';
    void (async () => {
      let last: ToolResultMessage | undefined;
      try {
        for await (const m of executeToolUse(entry.block, this.ctx, this.options, entry.early)) {
          if (m.type === 'tool_result') last = m;
          else {
            if (m.type === 'hook' && m.stop !== undefined) {
              this.cancelling ??= { content: STOPPED_MESSAGE, kind: 'HookStop' };
            }
            this.out.push(m);
          }
        }
      } catch (e) {
        last = this.errorResult(entry, `Error: ${errorText(e)}`, 'execution', classifyToolError(e));
      }
      this.complete(entry, last ?? this.errorResult(entry, 'Error: no result', 'execution', 'NoResult'));
      this.pump();
    })();
  }

  private errorResult(entry: Entry, content: string, stage: FailedStage, kind: string): ToolResultMessage {
    return {
      type: 'tool_result',
      toolUseId: entry.block.id,
      tool: entry.block.name,
      block: { type: 'tool_result', tool_use_id: entry.block.id, content, is_error: true },
      error: { stage, kind },
      durationMs: 0,
    };
  }

  private cancel(entry: Entry): void {
    const { content, kind } = this.cancelling!;
    this.complete(entry, this.errorResult(entry, content, 'cancelled', kind));
  }

  private complete(entry: Entry, result: ToolResultMessage): void {
    entry.state = 'done';
    entry.endEarly();
    this.results.set(entry.index, result);
    if (result.tool === 'Bash' && result.error?.stage === 'execution' && this.cancelling === undefined) {
      const command = (entry.block.input as { command?: unknown } | null)?.command;
      const failed = typeof command === 'string' ? `Bash(${command.slice(0, 80)})` : 'Bash';
      this.cancelling = {
        content: `Cancelled: a parallel tool call failed (${failed}), so this one did not run.`,
        kind: 'SiblingError',
      };
    }
    this.flush();
  }

  private flush(): void {
    while (this.results.has(this.nextResult)) {
      this.out.push(this.results.get(this.nextResult)!);
      this.results.delete(this.nextResult);
      this.nextResult++;
    }
    if (this.finished && this.nextResult === this.entries.length) this.out.close();
  }
}
