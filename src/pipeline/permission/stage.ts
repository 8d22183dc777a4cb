import {
  type ClassifiedVerdict,
  resolveMode,
  type Speculation,
  type ToolCall,
} from '../../classifier/index.js';
import { type PreToolUseOutcome, runPermissionRequestHooks } from '../../hooks/index.js';
import type { RuleRef } from '../../policy/index.js';
import type { Mode } from '../../shared/index.js';
import type { ToolUseContext } from '../context.js';
import { errorText } from '../errors.js';
import { hookInput, hookOptions } from '../hook-input.js';
import type { AnyTool, ToolContext, ToolPermission } from '../tool.js';
import { decide, isSoftAsk } from './decide.js';
import { destructiveWarning, suggestRules } from './suggest.js';
import type { AutoDecision, PermissionAnswer, PermissionRequest } from './types.js';

/** Modes in which the model may still settle what the rules leave open, while the user is being asked. */
const RACE_MODES = new Set<Mode>(['default', 'acceptEdits', 'auto']);

export interface PermissionStageInput {
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
}

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

/** A classifier that throws asks (by a reason no allow overrides); it never allows. */
function safely(promise: Promise<ClassifiedVerdict>, call: ToolCall, mode: Mode): Promise<ClassifiedVerdict> {
  return promise.catch((e: unknown) => ({
    decision: 'ask' as const,
    reason: `the classifier failed: ${errorText(e)}`,
    by: 'opaque' as const,
    tool: call.tool,
    mode,
    parts: [],
  }));
}

async function toolPermission(i: PermissionStageInput): Promise<ToolPermission> {
  try {
    return await i.tool.checkPermissions(i.input as never, i.toolCtx);
  } catch (e) {
    return { behavior: 'deny', reason: `the tool's permission check failed: ${errorText(e)}` };
  }
}

function final(d: AutoDecision): PermissionOutcome {
  const out: PermissionOutcome = {
    behavior: d.behavior === 'allow' ? 'allow' : 'deny',
    by: d.by,
    reason: d.reason,
  };
  if (d.rule) out.rule = d.rule;
  if (d.verdictBy === 'model') out.model = true;
  return out;
}

/**
 * Stage 4. The hooks' deny and the tool's deny end it at once. In the interactive modes the rules decide next,
 * without the model; the model's answer is awaited only when the rules leave the call open, and then it races
 * the permission handler. In the other modes the full verdict decides.
 */
export async function permissionStage(i: PermissionStageInput): Promise<PermissionOutcome> {
  const { ctx, call, speculation } = i;
  if (i.hook.decision === 'deny') {
    speculation.cancel();
    return final(decide({ hook: i.hook, tool: { behavior: 'passthrough' }, verdict: emptyVerdict(call) }));
  }
  const tool = await toolPermission(i);
  const mode = resolveMode(ctx.permissions.classifier.settings, call.mode);
  const inputs = { hook: i.hook, tool, validationAsk: i.validationAsk };
  const decideWith = (verdict: ClassifiedVerdict) => decide({ ...inputs, verdict });
  if (tool.behavior === 'deny') {
    speculation.cancel();
    return final(decideWith(emptyVerdict(call)));
  }
  if (!RACE_MODES.has(mode)) {
    const verdict = await safely(speculation.promise, call, mode);
    const d = decideWith(verdict);
    return d.behavior === 'ask' ? ask(i, d, verdict, undefined) : final(d);
  }
  const rules = await safely(speculation.rules, call, mode);
  const early = decideWith(rules);
  if (early.behavior === 'deny') {
    speculation.cancel();
    return final(early);
  }
  if (early.behavior === 'allow') {
    const verdict = await safely(speculation.promise, call, mode);
    const d = decideWith(verdict);
    return d.behavior === 'ask' ? ask(i, d, verdict, undefined) : final(d);
  }
  if (!isSoftAsk(rules)) {
    speculation.cancel();
    return ask(i, early, rules, undefined);
  }
  return ask(i, early, rules, safely(speculation.promise, call, mode).then(decideWith));
}

function emptyVerdict(call: ToolCall): ClassifiedVerdict {
  return { decision: 'ask', reason: 'not classified', by: 'no-rule', tool: call.tool, mode: '', parts: [] };
}

async function ask(
  i: PermissionStageInput,
  why: AutoDecision,
  verdict: ClassifiedVerdict,
  classifier: Promise<AutoDecision> | undefined,
): Promise<PermissionOutcome> {
  const { ctx, tool, input } = i;
  const request: PermissionRequest = {
    toolUseId: i.toolCtx.toolUseId,
    toolName: tool.name,
    tool,
    input,
    cwd: ctx.cwd,
    mode: verdict.mode,
    reason: why.reason,
    verdict,
    suggestions: suggestRules(tool.name, input, ctx.cwd, verdict),
    hooks: async (signal) => {
      const hookIn = hookInput(ctx, tool.name, input, i.toolCtx.toolUseId);
      const out = await runPermissionRequestHooks(ctx.hooks, hookIn, hookOptions(ctx, signal));
      if (!out.decision) return undefined;
      const d: AutoDecision = {
        behavior: out.decision,
        by: 'permission-hook',
        reason: out.reason ?? `a PermissionRequest hook said ${out.decision}`,
      };
      if (out.updatedInput) d.updatedInput = out.updatedInput;
      if (out.stop !== undefined) d.stop = out.stop;
      return d;
    },
    settings: ctx.permissions.classifier.settings,
    signal: i.signal,
  };
  const warning = destructiveWarning(tool.name, input);
  if (warning) request.warning = warning;
  if (classifier) request.classifier = classifier;
  let answer: PermissionAnswer;
  try {
    answer = await ctx.handler(request);
  } catch (e) {
    answer = { behavior: 'deny', by: 'handler', reason: `the permission handler failed: ${errorText(e)}` };
  }
  if (answer.behavior === 'allow' && answer.remember) ctx.permissions.grant(answer.remember.rules);
  const out: PermissionOutcome = {
    behavior: answer.behavior === 'allow' ? 'allow' : 'deny',
    by: answer.by,
    reason: answer.reason,
  };
  if (answer.by === 'classifier' && classifier && (await classifier).verdictBy === 'model') out.model = true;
  if (answer.updatedInput && out.behavior === 'allow') out.updatedInput = answer.updatedInput;
  if (answer.stop !== undefined) out.stop = answer.stop;
  return out;
}
