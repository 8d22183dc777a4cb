import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Classifier, TranscriptContext } from '../classifier/index.js';
import { type HookConfig, hookConfig } from '../hooks/index.js';
import type { Mode } from '../shared/index.js';
import { coordinatorHandler } from './handlers/coordinator.js';
import type { PermissionHandler } from './permission/types.js';
import type { BashSandbox } from './sandbox/sandbox.js';
import { SessionState } from './session.js';

import { type AnyTool, ToolRegistry } from './tool.js';

/** What the agent loop gets to run a sub-agent for the Agent tool. */
export interface SubagentTask {
  agentId: string;
  agentType: string;
  description: string;
  /** The sub-agent's first user message. */
  prompt: string;
  /**
   * The sub-agent's pipeline: the parent's permissions, hooks, handler and session state (denial counts
   * included), its own tool list; hooks of its calls get its `agent_id` and `agent_type`.
   */
  ctx: ToolUseContext;
  /** What SubagentStart hooks added, for the sub-agent to read before its prompt. */
  additionalContext: string[];
  signal: AbortSignal;
  /**
   * Call when the sub-agent would stop, with the text of its last message: SubagentStop hooks run, and a
   * string is the next user message (a hook kept it running).
   */
  onStop(lastMessage: string): Promise<string | undefined>;
}

/** The agent loop, run for a sub-agent. */
export type SubagentLoop = (
  task: SubagentTask,
) => Promise<{ text: string; stopReason: string; turns: number; error?: string }>;

export interface PipelineOptions {
  classifier: Classifier;
  tools: readonly AnyTool[] | ToolRegistry;
  /** Who answers when a call needs permission; default: hooks and classifier only, else deny (headless). */
  handler?: PermissionHandler;
  /** Default: the `hooks` blocks of the classifier's settings. */
  hooks?: HookConfig;
  /** Default: the settings' folder. */
  cwd?: string;
  /** Default: the settings' `defaultMode`. */
  mode?: Mode;
  sessionId?: string;
  transcriptPath?: string;
  /**
   * The session so far, for the classifier (user messages and earlier tool calls); the pipeline adds the
   * `classifierContext` notes of PostToolUse hooks.
   */
  context?: () => TranscriptContext | undefined;
  /** Where results too large for the model are written (default: a folder per session under the temp dir). */
  resultsDir?: string;
  /** A limit for every tool call, on top of a tool's own (none by default). */
  toolTimeoutMs?: number;
  /** Added to the environment of hook processes. */
  hookEnv?: Record<string, string>;
  session?: SessionState;
  /** Runs Bash commands in a sandbox (`new Sandbox(settings)` reads the `sandbox` settings). */
  sandbox?: BashSandbox;
  /** The agent loop that runs a sub-agent for the Agent tool; without one, the Agent tool fails. */
  subagents?: SubagentLoop;
}

/** The classifier, which grows session rules as the user says "always allow". */
export class PermissionState {
  constructor(public classifier: Classifier) {}

  grant(rules: readonly string[]): void {
    if (rules.length === 0) return;
    this.classifier = this.classifier.withRules(
      'session',
      rules.map((text) => ({ behavior: 'allow' as const, text })),
    );
  }
}

export interface ToolUseContext {
  readonly registry: ToolRegistry;
  readonly session: SessionState;
  readonly permissions: PermissionState;
  readonly hooks: HookConfig;
  readonly handler: PermissionHandler;
  readonly cwd: string;
  readonly mode: Mode | undefined;
  readonly sessionId: string;
  readonly transcriptPath: string;
  readonly resultsDir: string;
  readonly toolTimeoutMs: number | undefined;
  readonly hookEnv: Record<string, string>;
  readonly sandbox?: BashSandbox;
  /** Runs a sub-agent for the Agent tool. */
  readonly subagents?: SubagentLoop;
  /** Set in a sub-agent's context: its hooks' inputs carry `agent_id` and `agent_type`. */
  readonly agent?: { readonly id: string; readonly type: string };
  transcript(): TranscriptContext | undefined;
}

export function createToolUseContext(options: PipelineOptions): ToolUseContext {
  const settings = options.classifier.settings;
  const sessionId = options.sessionId ?? randomUUID();
  const session = options.session ?? new SessionState();
  const context = options.context ?? (() => undefined);
  return {
    registry: options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools),
    session,
    permissions: new PermissionState(options.classifier),
    hooks:
      options.hooks ??
      hookConfig(settings.hooks, {
        cwd: settings.cwd,
        ...(settings.httpHooks ? { http: settings.httpHooks } : {}),
      }),
    handler: options.handler ?? coordinatorHandler(),
    cwd: options.cwd ?? settings.cwd,
    mode: options.mode,
    sessionId,
    transcriptPath: options.transcriptPath ?? '',
    resultsDir: options.resultsDir ?? path.join(tmpdir(), 'automode', sessionId, 'tool-results'),
    toolTimeoutMs: options.toolTimeoutMs,
    hookEnv: { ...settings.env, ...options.hookEnv },
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.subagents ? { subagents: options.subagents } : {}),
    transcript: () => session.classifierContext.withNotes(context()),
  };
}
