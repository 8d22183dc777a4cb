import type { HookOutcome } from '../hooks/index.js';

/** Anthropic Messages API shapes: `tool_use` blocks come in, `tool_result` blocks go out. */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string };
}

export type ResultBlock = TextBlock | ImageBlock;
export type ToolResultContent = string | ResultBlock[];

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
}

/** The stage a call ended in when it did not run to a result. */
export type FailedStage = 'lookup' | 'validation' | 'permission' | 'execution' | 'result' | 'cancelled';

export interface ProgressMessage {
  type: 'progress';
  /** Unique per message. */
  id: string;
  /** When the tool reported it (ISO 8601). */
  timestamp: string;
  toolUseId: string;
  tool: string;
  data: unknown;
}

/** The call goes to the permission handler (a human, or whoever answers in one's place): what it is asked. */
export interface PermissionRequestedMessage {
  type: 'permission_request';
  toolUseId: string;
  tool: string;
  input: Record<string, unknown>;
  /** Why the call needs an answer. */
  reason: string;
  /** The rule that asked, when a rule did. */
  rule?: { text: string; file?: string };
  /**
   * Allow rules that would let such calls through next time, each checked to turn this call's decision into
   * allow when added to the settings it came from.
   */
  suggestions: string[];
  /** Why no rule is suggested (none would let this call through, or none can name it). */
  noSuggestions?: string;
  /** Set for destructive commands. */
  warning?: string;
}

/** How stage 4 settled the call; `by` names the source that decided. */
export interface PermissionMessage {
  type: 'permission';
  toolUseId: string;
  tool: string;
  decision: 'allow' | 'deny';
  by: string;
  reason: string;
  /** The verdict's rule, when a rule decided. */
  rule?: { text: string; file?: string };
}

/** What hooks said besides their decision: messages for the user, a request to stop, their failures. */
export interface HookMessage {
  type: 'hook';
  toolUseId: string;
  event: string;
  systemMessages: string[];
  errors: string[];
  stop?: string;
  /** The hook whose `updatedToolOutput` (or `updatedMCPToolOutput`) the model got instead of the tool's output. */
  outputReplacedBy?: string;
}

export interface ToolResultMessage {
  type: 'tool_result';
  toolUseId: string;
  tool: string;
  block: ToolResultBlock;
  /** Set when the call did not succeed: where it stopped and an error kind safe for telemetry (no paths). */
  error?: { stage: FailedStage; kind: string };
  durationMs: number;
}

export type PipelineMessage =
  | ProgressMessage
  | PermissionRequestedMessage
  | PermissionMessage
  | HookMessage
  | ToolResultMessage;

export function textOf(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

export function appendText(content: ToolResultContent, text: string): ResultBlock[] {
  const blocks: ResultBlock[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
  blocks.push({ type: 'text', text });
  // The API refuses empty text blocks.
  return blocks.filter((b) => b.type !== 'text' || b.text !== '');
}

/** What a hook event reports besides its decision; nothing when there is nothing to report. */
export function hookMessage(
  toolUseId: string,
  event: string,
  o: HookOutcome,
  outputReplacedBy?: string,
): HookMessage | undefined {
  const quiet = o.systemMessages.length === 0 && o.errors.length === 0 && o.stop === undefined;
  if (quiet && outputReplacedBy === undefined) return undefined;
  const m: HookMessage = {
    type: 'hook',
    toolUseId,
    event,
    systemMessages: o.systemMessages,
    errors: o.errors,
  };
  if (o.stop !== undefined) m.stop = o.stop;
  if (outputReplacedBy !== undefined) m.outputReplacedBy = outputReplacedBy;
  return m;
}
