import type { Analysis } from '../bash/index.js';
import type { CallUsage, FailureKind, ModelCaller, Stage } from '../llm/index.js';
import type { Verdict } from '../policy/index.js';
import type { Behavior, LoadedSettings } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import type { TranscriptContext } from './transcript.js';

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Working folder of the call; defaults to the settings' folder. */
  cwd?: string;
  /** Permission mode; defaults to the settings' `defaultMode`, then `default`. */
  mode?: Mode;
}

/** A Claude Code hook input (PreToolUse, PermissionRequest), which `classify` takes as it is. */
export interface HookToolCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
  cwd?: string;
  /** Read as `mode`; a value that is not a mode is ignored. */
  permission_mode?: string;
}

export interface ClassifyOptions {
  /**
   * The session so far: the user's messages and the agent's earlier tool calls (never tool results); or a
   * function that reads it, called only when the model judges the call.
   */
  context?: TranscriptContext | (() => Promise<TranscriptContext | undefined>);
  /** The agent session the call belongs to (its denial counts); by default the classifier's own. */
  session?: ClassifierSession;
  signal?: AbortSignal;
}

export interface ClassifiedVerdict extends Verdict {
  /** The bash analysis, for Bash calls. */
  analysis?: Analysis;
  /** What the model said, when it was asked. */
  model?: ModelInfo;
  /**
   * For an ask by a shipped Bash rule: the allow rule naming exactly this command, checked to turn this call's
   * decision into allow.
   */
  narrowerAllow?: string;
}

/** A classification started ahead of need: the agent calls `speculate` as soon as a tool_use block is complete. */
export interface Speculation {
  /** The full verdict, the model's judgement included. */
  readonly promise: Promise<ClassifiedVerdict>;
  /**
   * The verdict of the rules alone, before any model call (the same analysis, done once). With no model
   * configured, or nothing left open, it is the full verdict.
   */
  readonly rules: Promise<ClassifiedVerdict>;
  /** Stops waiting; the model call is aborted when no one else waits for the same answer. */
  cancel(): void;
}

export interface Classifier {
  readonly settings: LoadedSettings;
  classify(call: ToolCall | HookToolCall, options?: ClassifyOptions): Promise<ClassifiedVerdict>;
  speculate(call: ToolCall | HookToolCall, options?: ClassifyOptions): Speculation;
  /**
   * The rules' verdict of a call with these rules granted for the session: how a rule offered to the user is
   * checked to decide the call as it claims before it is offered.
   */
  verdictWithRules(
    call: ToolCall | HookToolCall,
    rules: readonly { behavior: Behavior; text: string }[],
  ): Promise<ClassifiedVerdict>;
  /**
   * Grants made during a session or carried by a slash command; returns a new classifier that shares this one's
   * session state and model cache.
   */
  withRules(
    source: 'session' | 'command',
    rules: readonly { behavior: Behavior; text: string }[],
  ): Classifier;
}

/**
 * What a classifier remembers of one agent session: the model's denial counts (after 3 in a row or 20 in all,
 * auto mode asks). A classifier keeps one of its own; a caller serving several sessions gives each its own.
 */
export interface ClassifierSession {
  readonly denials: { record(judgement: Judgement, cached: boolean): Judgement };
}

export interface ClassifierOptions {
  /** The model that judges what the rules leave open (the live client or a replay of recorded answers). */
  model?: ModelCaller;
  /** Limit for each model call, retries included (default 30 s). */
  modelTimeoutMs?: number;
  cacheTtlMs?: number;
  cacheSize?: number;
  /**
   * Tell the model what automode sees of the project (the working folder, its git repository and remotes, local
   * clusters and services) in the rules' environment. Off by default: the prompt then depends on the rules alone,
   * so that recordings replay in any folder and on any machine.
   */
  projectEnvironment?: boolean;
}

/** What the model said about a call: its decision, or why it could not decide. */
export type ModelDecision = 'allow' | 'soft_deny' | 'hard_deny';

export type Judgement =
  | {
      ok: true;
      decision: ModelDecision;
      /** The stage whose answer decided: 1 when the first pass flagged nothing. */
      stage: Stage;
      rule?: string;
      exception?: string;
      userRequested?: boolean;
      reason: string;
      usage: CallUsage[];
      latencyMs: number;
    }
  | {
      ok: false;
      stage: Stage;
      kind: FailureKind;
      message: string;
      usage: CallUsage[];
      latencyMs: number;
    };

export interface ModelInfo {
  stage: Stage;
  ok: boolean;
  decision?: 'allow' | 'soft_deny' | 'hard_deny';
  rule?: string;
  failure?: string;
  cached: boolean;
  /** The session has had too many model denials: this one asks instead. */
  deniedTooOften?: boolean;
  latencyMs: number;
  tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
  costUsd: number;
  warnings: string[];
}
