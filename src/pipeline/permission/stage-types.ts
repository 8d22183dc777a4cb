import type { Speculation, ToolCall } from '../../classifier/index.js';
import type { PreToolUseOutcome } from '../../hooks/index.js';
import type { RuleRef } from '../../policy/index.js';
import type { ToolUseContext } from '../context.js';
import type { AnyTool, ToolContext } from '../tool.js';
import type { PermissionRequest } from './types.js';

/** What stage 4 decides on. */
export interface DecisionInput {
  ctx: ToolUseContext;
  tool: AnyTool;
  toolCtx: ToolContext;
  input: Record<string, unknown>;
  call: ToolCall;
  hook: PreToolUseOutcome;
  validationAsk?: string | undefined;
  /** The classification started in stage 3. */
  speculation: Speculation;
  signal: AbortSignal;
  /** The call is about to go to the permission handler with this request. */
  onAsk?: (request: PermissionRequest, rule: RuleRef | undefined) => void;
}

/** How stage 4 settled the call. */
export interface PermissionOutcome {
  behavior: 'allow' | 'deny';
  by: string;
  reason: string;
  rule?: RuleRef;
  /** The model's judgement decided (PermissionDenied hooks fire for its denials). */
  model?: true;
  /** The call runs with this input instead: a PermissionRequest hook rewrote it. */
  updatedInput?: Record<string, unknown>;
  /** The agent should stop after this call. */
  stop?: string;
}
