import { type ClassifiedVerdict, resolveMode, type ToolCall } from '../../classifier/index.js';
import { runPermissionDeniedHooks } from '../../hooks/index.js';
import type { RuleRef } from '../../policy/index.js';
import type { Mode } from '../../shared/index.js';
import { errorText } from '../errors.js';
import { hookInput, hookOptions } from '../hook-input.js';
import {
  hookMessage,
  type PermissionMessage,
  type PermissionRequestedMessage,
  type PipelineMessage,
} from '../messages.js';
import type { PreToolUseChecked } from '../stages/pre-tool-use.js';
import type { Stage, ToolRun } from '../stages/state.js';
import { fail, interrupted } from '../stages/tool-result.js';
import type { ToolPermission } from '../tool.js';
import { ask } from './ask.js';
import { decide, isSoftAsk } from './decide.js';
import { checkRewrite } from './rewrite.js';
import { sandboxDecision } from './sandbox.js';
import type { DecisionInput, PermissionOutcome } from './stage-types.js';
import type { AutoDecision, PermissionRequest } from './types.js';

export const REJECT_MESSAGE =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

export const RETRY_MESSAGE =
  'A PermissionDenied hook says you may retry this call; consider whether the denial was a mistake first.';

/** Modes in which the model may still settle what the rules leave open, while the user is being asked. */
const RACE_MODES = new Set<Mode>(['default', 'acceptEdits', 'auto']);

/**
 * Stage 4: the permission decision, reported as a permission message. A denial ends the call; an allow hands on
 * the input to run with, which a PermissionRequest hook may have rewritten.
 */
export async function* permissionStage(
  run: ToolRun,
  checked: PreToolUseChecked,
): Stage<Record<string, unknown>> {
  const { ctx, tool, block, controller } = run;
  let input = checked.input;
  let onAsk!: NonNullable<DecisionInput['onAsk']>;
  const asked = new Promise<PermissionRequestedMessage>((resolve) => {
    onAsk = (request, rule) => resolve(requestedMessage(request, rule));
  });
  const deciding = decidePermission({
    ctx,
    tool,
    toolCtx: run.toolCtx,
    input,
    call: checked.call,
    hook: checked.pre,
    validationAsk: checked.validationAsk,
    speculation: checked.speculation,
    signal: controller.signal,
    onAsk,
  });
  const first = await Promise.race([asked, deciding]);
  if ('type' in first) yield first;
  const permission = await deciding;
  checked.speculation.cancel();
  if (controller.signal.aborted) {
    yield interrupted(run);
    return;
  }
  yield permissionMessage(run, permission);
  if (permission.stop !== undefined) {
    yield {
      type: 'hook',
      toolUseId: block.id,
      event: 'PermissionRequest',
      systemMessages: [],
      errors: [],
      stop: permission.stop,
    };
  }
  if (permission.behavior === 'deny') {
    yield* denied(run, input, permission);
    return;
  }
  if (permission.updatedInput) {
    const rewrite = await checkRewrite(ctx, tool, run.toolCtx, checked.call, permission.updatedInput);
    if (!rewrite.ok) {
      yield fail(run, rewrite.stage, rewrite.kind, rewrite.message);
      return;
    }
    input = rewrite.input;
  }
  ctx.session.denials.allow(tool.name, input);
  return input;
}

function requestedMessage(request: PermissionRequest, rule: RuleRef | undefined): PermissionRequestedMessage {
  const m: PermissionRequestedMessage = {
    type: 'permission_request',
    toolUseId: request.toolUseId,
    tool: request.toolName,
    input: request.input,
    reason: request.reason,
    suggestions: request.suggestions,
  };
  if (request.noSuggestions !== undefined) m.noSuggestions = request.noSuggestions;
  if (rule) m.rule = { text: rule.text, ...(rule.file ? { file: rule.file } : {}) };
  if (request.warning) m.warning = request.warning;
  return m;
}

function permissionMessage(run: ToolRun, permission: PermissionOutcome): PermissionMessage {
  return {
    type: 'permission',
    toolUseId: run.block.id,
    tool: run.tool.name,
    decision: permission.behavior,
    by: permission.by,
    reason: permission.reason,
    ...(permission.rule
      ? {
          rule: {
            text: permission.rule.text,
            ...(permission.rule.file ? { file: permission.rule.file } : {}),
          },
        }
      : {}),
  };
}

/** The denial's tool_result; when the model denied, PermissionDenied hooks may add to it. */
async function* denied(
  run: ToolRun,
  input: Record<string, unknown>,
  permission: PermissionOutcome,
): AsyncGenerator<PipelineMessage, void, undefined> {
  const { ctx, tool, block } = run;
  const guidance = ctx.session.denials.deny(tool.name, input);
  const text =
    permission.by === 'user'
      ? REJECT_MESSAGE
      : `Permission to use ${tool.name} has been denied: ${permission.reason}`;
  const notes = guidance ? [guidance] : [];
  if (permission.model) {
    const deniedHooks = await runPermissionDeniedHooks(
      ctx.hooks,
      { ...hookInput(ctx, tool.name, input, block.id), reason: permission.reason },
      hookOptions(ctx, run.controller.signal),
    );
    const deniedMessage = hookMessage(block.id, 'PermissionDenied', deniedHooks);
    if (deniedMessage) yield deniedMessage;
    notes.push(...deniedHooks.additionalContext.map((t) => `PermissionDenied hook context: ${t}`));
    if (deniedHooks.retry) notes.push(RETRY_MESSAGE);
  }
  yield fail(run, 'permission', 'PermissionDenied', [text, ...notes].join('\n\n'));
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

async function toolPermission(i: DecisionInput): Promise<ToolPermission> {
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
 * The hooks' deny and the tool's deny end it at once. In the interactive modes the rules decide next,
 * without the model; the model's answer is awaited only when the rules leave the call open (or, in auto mode,
 * ask softly), and then it races the permission handler. In the other modes the full verdict decides.
 */
async function decidePermission(i: DecisionInput): Promise<PermissionOutcome> {
  const { ctx, call, speculation } = i;
  if (i.hook.decision === 'deny') {
    speculation.cancel();
    return final(decide({ hook: i.hook, tool: { behavior: 'passthrough' }, verdict: emptyVerdict(call) }));
  }
  const tool = await toolPermission(i);
  const mode = resolveMode(ctx.permissions.classifier.settings, call.mode);
  const inputs = { hook: i.hook, tool, validationAsk: i.validationAsk, sandbox: await sandboxDecision(i) };
  const decideWith = (verdict: ClassifiedVerdict) => decide({ ...inputs, verdict });
  if (tool.behavior === 'deny') {
    speculation.cancel();
    return final(decideWith(emptyVerdict(call)));
  }
  if (!RACE_MODES.has(mode)) {
    const verdict = await safely(speculation.promise, call, mode);
    const d = decideWith(verdict);
    return d.behavior === 'ask' ? ask(i, d, verdict, undefined, decideWith) : final(d);
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
    return d.behavior === 'ask' ? ask(i, d, verdict, undefined, decideWith) : final(d);
  }
  // In auto mode a soft ask (a shipped ask rule, hidden code) is the model's to judge as well.
  if (!isSoftAsk(rules) && rules.ask !== 'soft') {
    speculation.cancel();
    return ask(i, early, rules, undefined, decideWith);
  }
  return ask(i, early, rules, safely(speculation.promise, call, mode).then(decideWith), decideWith);
}

function emptyVerdict(call: ToolCall): ClassifiedVerdict {
  return { decision: 'ask', reason: 'not classified', by: 'no-rule', tool: call.tool, mode: '', parts: [] };
}
