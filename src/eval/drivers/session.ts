import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TranscriptContext } from '../../classifier/index.js';
import { createClassifier } from '../../classifier/index.js';
import type { ModelCaller } from '../../llm/index.js';
import type { BashSandbox, PermissionHandler } from '../../pipeline/index.js';
import {
  applyToolSearchMode,
  connectMcpServers,
  coordinatorHandler,
  createToolUseContext,
  deferredToolsNotice,
  type McpOptions,
  type McpServers,
  mcpServersFromSettings,
  type PipelineMessage,
  parseToolSearchMode,
  referenceTools,
  runTools,
  type StreamEvent,
  StreamingToolExecutor,
  type SubagentLoop,
  type ToolResultBlock,
  type ToolSearchMode,
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
  /** A hook of this call asked the agent to stop, for this reason (for the user, not the model). */
  stop?: string;
  /** The sub-agent that made the call (the Agent tool's), when not the main agent. */
  agentId?: string;
}

/** A hook asked the agent to stop (`continue: false`, or a PermissionRequest deny with `interrupt`). */
export interface HookStop {
  toolUseId: string;
  /** The hook event that asked: PreToolUse, PermissionRequest, PostToolUse. */
  event: string;
  reason: string;
}

/** The tool calls of one assistant message, settled. */
export interface TurnResults {
  /** The tool_result blocks, in call order: one for every tool_use, a stopped turn included. */
  results: ToolResultBlock[];
  /** Set when a hook asked the agent to stop: the loop then asks the model nothing more. */
  stop?: HookStop;
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
  /** Connect the MCP servers of the settings and of the approved `.mcp.json` (default true). */
  mcp?: boolean;
  mcpOptions?: Pick<McpOptions, 'connectTimeoutMs' | 'callTimeoutMs'>;
  /** When MCP tools are deferred; default: `ENABLE_TOOL_SEARCH` of the environment, as Claude Code reads it. */
  toolSearch?: ToolSearchMode;
  /** The agent model's context window, the base of `auto` tool search (default 200,000 tokens). */
  contextWindowTokens?: number;
  /** Runs Bash commands in this sandbox. */
  sandbox?: BashSandbox;
}

const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;

/** Claude Code keeps 2 KB of each MCP server's instructions. */
const MAX_INSTRUCTIONS_CHARS = 2048;

/** Who answered in the human's place: the user, or nobody (denied for want of someone to ask). */
const HUMAN = new Set(['user', 'handler']);

/** The tool pipeline of one agent session, with the session context the classifier sees. */
export class AgentSession {
  readonly ctx: ToolUseContext;
  readonly records: CallRecord[];
  private readonly userMessages: string[];
  private readonly toolCalls: { tool: string; input: unknown }[];
  private readonly asked: Set<string>;
  /** What went wrong setting up MCP: servers left out, connections that failed. The rest of the session works. */
  readonly problems: string[] = [];
  private mcp: McpServers | undefined;
  /** The session a sub-agent's session belongs to. */
  private readonly parent: AgentSession | undefined;
  /** The agent loop that runs the Agent tool's sub-agents; `runAgent` sets it for its run. */
  subagentLoop: SubagentLoop | undefined;

  private constructor(ctx: ToolUseContext, parent?: AgentSession) {
    this.ctx = ctx;
    this.parent = parent;
    // A sub-agent's calls are the session's: one list of records, one context for the classifier.
    this.records = parent?.records ?? [];
    this.userMessages = parent?.userMessages ?? [];
    this.toolCalls = parent?.toolCalls ?? [];
    this.asked = parent?.asked ?? new Set();
  }

  /**
   * The session of a sub-agent with this pipeline context (`SubagentTask.ctx`): its calls are recorded and
   * shown to the classifier with the parent's; its prompt is the parent model's, not the user's, so it is not
   * one of the user's messages.
   */
  child(ctx: ToolUseContext): AgentSession {
    return new AgentSession(ctx, this);
  }

  /** The MCP servers connected and the names of their tools. */
  mcpServers(): { server: string; tools: string[] }[] {
    return (this.mcp?.connections ?? []).map((c) => ({
      server: c.server,
      tools: c.tools.map((t) => t.name),
    }));
  }

  /**
   * The system prompt of the next request: `base`, the MCP servers' instructions, and the names of the deferred
   * tools not loaded yet, so that the model knows to load them with ToolSearch.
   */
  system(base: string): string {
    const parts = [base];
    const mcp = (this.parent ?? this).mcp;
    const instructed = (mcp?.connections ?? []).filter((c) => c.instructions);
    if (instructed.length > 0) {
      parts.push(
        [
          '# MCP server instructions',
          ...instructed.map((c) => `## ${c.server}\n${c.instructions!.slice(0, MAX_INSTRUCTIONS_CHARS)}`),
        ].join('\n\n'),
      );
    }
    const notice = deferredToolsNotice(this.ctx.registry);
    if (notice) parts.push(notice);
    return parts.join('\n\n');
  }

  /**
   * Closes the MCP connections (stopping stdio servers), kills the background commands still running and
   * removes the folder of the tool results too large for the transcript.
   */
  async close(): Promise<void> {
    if (this.parent) return;
    const mcp = this.mcp;
    this.mcp = undefined;
    await Promise.all([mcp?.close(), this.ctx.session.tasks.killAll()]);
    await rm(this.ctx.resultsDir, { recursive: true, force: true });
  }

  private async connectMcp(options: AgentSessionOptions): Promise<void> {
    const found = await mcpServersFromSettings(options.settings);
    this.problems.push(...found.problems);
    if (Object.keys(found.servers).length === 0) return;
    let mode = options.toolSearch;
    if (!mode) {
      const parsed = parseToolSearchMode(process.env.ENABLE_TOOL_SEARCH);
      if (parsed.problem) this.problems.push(parsed.problem);
      mode = parsed.mode;
    }
    this.mcp = await connectMcpServers(found.servers, options.mcpOptions);
    for (const e of this.mcp.errors) this.problems.push(`MCP server ${e.server}: ${e.message}`);
    const added = this.mcp.tools.filter((t) => {
      try {
        this.ctx.registry.add(t);
        return true;
      } catch (e) {
        this.problems.push(`${(e as Error).message}; left out`);
        return false;
      }
    });
    applyToolSearchMode(
      this.ctx.registry,
      added,
      mode,
      options.contextWindowTokens ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
    );
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
      subagents: (task) => {
        const loop = session?.subagentLoop;
        if (!loop) throw new Error('no agent loop is running: sub-agents run only under runAgent');
        return loop(task);
      },
    });
    session = new AgentSession(ctx);
    if (options.mcp !== false) await session.connectMcp(options);
    return session;
  }

  /** What the classifier sees: the user's messages and the earlier tool calls, never their results. */
  context(): TranscriptContext {
    return { userMessages: [...this.userMessages], toolCalls: [...this.toolCalls] };
  }

  addUserMessage(text: string): void {
    if (this.parent) return;
    this.userMessages.push(text);
  }

  /** Runs the tool calls of a complete assistant message. */
  async runBlocks(blocks: readonly ToolUseBlock[], onRecord?: (r: CallRecord) => void): Promise<TurnResults> {
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
      /** The stream ended: waits for every call and gives their results. */
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
  ): Promise<TurnResults> {
    const permissions = new Map<string, Extract<PipelineMessage, { type: 'permission' }>>();
    const stops = new Map<string, string>();
    const results: ToolResultBlock[] = [];
    let stop: HookStop | undefined;
    for await (const m of messages) {
      if (m.type === 'permission') permissions.set(m.toolUseId, m);
      if (m.type === 'hook' && m.stop !== undefined) {
        if (!stops.has(m.toolUseId)) stops.set(m.toolUseId, m.stop);
        stop ??= { toolUseId: m.toolUseId, event: m.event, reason: m.stop };
      }
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
      const stopped = stops.get(m.toolUseId);
      if (stopped !== undefined) record.stop = stopped;
      if (this.ctx.agent) record.agentId = this.ctx.agent.id;
      this.records.push(record);
      this.toolCalls.push({ tool: m.tool, input: block?.input });
      onRecord?.(record);
    }
    return stop ? { results, stop } : { results };
  }
}
