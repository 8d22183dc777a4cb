import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TranscriptContext } from '../../classifier/index.js';
import { createClassifier } from '../../classifier/index.js';
import type { ModelCaller } from '../../llm/index.js';
import type { BashSandbox, PermissionHandler } from '../../pipeline/index.js';
import {
  coordinatorHandler,
  createToolUseContext,
  type PipelineMessage,
  referenceTools,
  runTools,
  type StreamEvent,
  StreamingToolExecutor,
  type ToolResultBlock,
  type ToolUseBlock,
  type ToolUseContext,
  textOf,
} from '../../pipeline/index.js';
import type { LoadedSettings } from '../../rules/index.js';
import type { Mode } from '../../shared/index.js';

/** One tool call of an agent session, as the pipeline settled and ran it. */
export interface CallRecord {
  toolUseId: string;
  tool: string;
  input: unknown;
  /** How the pipeline ended the permission stage; `undefined` when the call failed before it. */
  decision?: 'allow' | 'deny';
  /** A human was asked (or, with no one to ask, would have been). */
  asked: boolean;
  by?: string;
  reason?: string;
  rule?: string;
  /** The tool_result: an error, where it stopped, the start of its text. */
  isError: boolean;
  failedAt?: string;
  kind?: string;
  text: string;
  durationMs: number;
}

/** The decision as labels name it: a call a human was asked about is `ask`. */
export function decisionOf(r: CallRecord): 'allow' | 'ask' | 'deny' | 'error' {
  if (r.decision === undefined) return 'error';
  return r.asked ? 'ask' : r.decision;
}

export interface AgentSessionOptions {
  settings: LoadedSettings;
  /** The classifier's model (live, recorded or replayed); none: the rules alone. */
  classifierModel?: ModelCaller;
  cwd: string;
  mode?: Mode;
  /** Who answers when a call needs a human; default: hooks and the classifier, else deny (headless). */
  handler?: PermissionHandler;
  toolTimeoutMs?: number;
  /** Runs Bash commands in this sandbox. */
  sandbox?: BashSandbox;
}

/** Who answered in the human's place: the user, or nobody (denied for want of someone to ask). */
const HUMAN = new Set(['user', 'handler']);

/** The tool pipeline of one agent session, with the session context the classifier sees. */
export class AgentSession {
  readonly ctx: ToolUseContext;
  readonly records: CallRecord[] = [];
  private readonly userMessages: string[] = [];
  private readonly toolCalls: { tool: string; input: unknown }[] = [];
  private readonly asked = new Set<string>();

  private constructor(ctx: ToolUseContext) {
    this.ctx = ctx;
  }

  static async create(options: AgentSessionOptions): Promise<AgentSession> {
    const classifier = createClassifier(
      options.settings,
      options.classifierModel ? { model: options.classifierModel } : {},
    );
    const inner = options.handler ?? coordinatorHandler();
    let session: AgentSession | undefined;
    const handler: PermissionHandler = async (request) => {
      const answer = await inner(request);
      if (HUMAN.has(answer.by)) session?.asked.add(request.toolUseId);
      return answer;
    };
    const ctx = createToolUseContext({
      classifier,
      tools: referenceTools(),
      handler,
      cwd: options.cwd,
      ...(options.mode ? { mode: options.mode } : {}),
      context: () => session?.context(),
      resultsDir: await mkdtemp(path.join(tmpdir(), 'automode-agent-results-')),
      ...(options.toolTimeoutMs !== undefined ? { toolTimeoutMs: options.toolTimeoutMs } : {}),
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    });
    session = new AgentSession(ctx);
    return session;
  }

  /** What the classifier sees: the user's messages and the earlier tool calls, never their results. */
  context(): TranscriptContext {
    return { userMessages: [...this.userMessages], toolCalls: [...this.toolCalls] };
  }

  addUserMessage(text: string): void {
    this.userMessages.push(text);
  }

  /** Runs the tool calls of a complete assistant message; returns the tool_result blocks, in call order. */
  async runBlocks(
    blocks: readonly ToolUseBlock[],
    onRecord?: (r: CallRecord) => void,
  ): Promise<ToolResultBlock[]> {
    return this.collect(blocks, runTools(blocks, this.ctx), onRecord);
  }

  /** An executor that starts each call as soon as its block is complete in a streamed message. */
  streaming(onRecord?: (r: CallRecord) => void) {
    const executor = new StreamingToolExecutor(this.ctx);
    const blocks: ToolUseBlock[] = [];
    const add = executor.addTool.bind(executor);
    // The executor assembles each block from the stream; its input is what the records show.
    executor.addTool = (block) => {
      blocks.push(block);
      add(block);
    };
    const feed = (event: StreamEvent) => executor.handleEvent(event);
    const results = this.collect(blocks, executor.messages(), onRecord);
    return {
      feed,
      /** The stream ended: waits for every call and gives their tool_result blocks. */
      finish: () => {
        executor.finish();
        return results;
      },
    };
  }

  private async collect(
    blocks: readonly ToolUseBlock[],
    messages: AsyncIterable<PipelineMessage>,
    onRecord?: (r: CallRecord) => void,
  ): Promise<ToolResultBlock[]> {
    const permissions = new Map<string, Extract<PipelineMessage, { type: 'permission' }>>();
    const results: ToolResultBlock[] = [];
    for await (const m of messages) {
      if (m.type === 'permission') permissions.set(m.toolUseId, m);
      if (m.type !== 'tool_result') continue;
      results.push(m.block);
      const block = blocks.find((b) => b.id === m.toolUseId);
      const p = permissions.get(m.toolUseId);
      const text = textOf(m.block.content);
      const record: CallRecord = {
        toolUseId: m.toolUseId,
        tool: m.tool,
        input: block?.input,
        asked: this.asked.has(m.toolUseId),
        isError: m.block.is_error === true,
        text: text.length > 500 ? `${text.slice(0, 500)}…` : text,
        durationMs: m.durationMs,
      };
      if (p) {
        record.decision = p.decision;
        record.by = p.by;
        record.reason = p.reason;
        if (p.rule) record.rule = p.rule.text;
      }
      if (m.error) {
        record.failedAt = m.error.stage;
        record.kind = m.error.kind;
      }
      this.records.push(record);
      this.toolCalls.push({ tool: m.tool, input: block?.input });
      onRecord?.(record);
    }
    return results;
  }
}
