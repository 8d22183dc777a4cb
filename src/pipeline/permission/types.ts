import type { ClassifiedVerdict } from '../../classifier/index.js';
import type { DecidedBy, RuleRef } from '../../policy/index.js';
import type { LoadedSettings } from '../../rules/index.js';
import type { AnyTool } from '../tool.js';

/** A decision from the automatic sources: hooks, the tool's own check, the rules and the classifier. */
export interface AutoDecision {
  behavior: 'allow' | 'ask' | 'deny';
  /** `hook`, `tool`, `validation`, `classifier`, `permission-hook`. */
  by: string;
  reason: string;
  rule?: RuleRef;
  /** For the classifier's decisions: what settled its verdict (`model` when the model judged). */
  verdictBy?: DecidedBy;
  /** A PermissionRequest hook's allow for a rewritten input: the call runs with this instead. */
  updatedInput?: Record<string, unknown>;
  /** A PermissionRequest hook's deny with `interrupt`: the agent should stop, for this reason. */
  stop?: string;
}

/** A permission handler's final answer. */
export interface PermissionAnswer {
  behavior: 'allow' | 'deny';
  /** Who answered: `user`, `leader`, `classifier`, `permission-hook`, or a registered source's name. */
  by: string;
  reason: string;
  /** "Always allow": rules granted for the rest of the session (and saved to `file` when given). */
  remember?: { rules: string[]; file?: string };
  /** The call runs with this input instead (it is validated and checked against the deny rules again). */
  updatedInput?: Record<string, unknown>;
  /** The agent should stop after this call. */
  stop?: string;
}

/** Everything a handler needs to ask about a call. */
export interface PermissionRequest {
  toolUseId: string;
  toolName: string;
  tool: AnyTool;
  input: Record<string, unknown>;
  cwd: string;
  mode: string;
  /** Why the call needs an answer. */
  reason: string;
  /** The rules' verdict (with the bash analysis for Bash). */
  verdict?: ClassifiedVerdict;
  /**
   * Allow rules that would let such calls through next time, each checked to turn this call's decision into
   * allow when added to the settings it came from.
   */
  suggestions: string[];
  /** Why no rule is suggested (none would let this call through, or none can name it). */
  noSuggestions?: string;
  /** Set for destructive commands. */
  warning?: string;
  /** The classifier still at work; its `ask` leaves the call to the other sources (with its reason). */
  classifier?: Promise<AutoDecision>;
  /** Runs the PermissionRequest hooks: their allow or deny, or undefined. */
  hooks(signal: AbortSignal): Promise<AutoDecision | undefined>;
  settings: LoadedSettings;
  signal: AbortSignal;
}

export type PermissionHandler = (request: PermissionRequest) => Promise<PermissionAnswer>;

/** One way to get an answer (a terminal, a remote UI, a chat bridge); undefined means it abstains. */
export type PermissionSource = (
  request: PermissionRequest,
  signal: AbortSignal,
) => Promise<PermissionAnswer | undefined>;
