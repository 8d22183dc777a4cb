import { isObject } from '../shared/index.js';
import type { HookEvent, HookRun } from './types.js';

type Json = Record<string, unknown>;

/** Fields every event understands. */
export interface CommonResult {
  /** `continue: false`: the agent should stop after this call; the text says why. */
  stop?: string;
  systemMessage?: string;
  additionalContext?: string;
  /** A non-blocking problem: the hook failed, timed out, crashed or printed something unreadable. */
  error?: string;
}

export interface PreToolUseResult extends CommonResult {
  /** `defer`: the hook leaves the call to be decided later (Claude Code's headless sessions pause on it). */
  decision?: 'allow' | 'ask' | 'deny' | 'defer';
  reason?: string;
  updatedInput?: Json;
  /** Exit code 2. */
  blocked: boolean;
}

/** A PostToolUse hook's replacement for the tool's output, not yet checked against the tool's output shape. */
export interface OutputReplacement {
  value: unknown;
  field: 'updatedToolOutput' | 'updatedMCPToolOutput';
  /** The hook that gave it, as errors name it. */
  hook: string;
}

export interface PostToolUseResult extends CommonResult {
  /** `decision: "block"` or exit code 2: feedback for the model. */
  block?: string;
  /** `updatedToolOutput`, else `updatedMCPToolOutput` (PostToolUse only). */
  replacement?: OutputReplacement;
  /** A note on the result for the permission classifier, never for the model (PostToolUse only). */
  classifierContext?: string;
}

export interface PermissionRequestResult extends CommonResult {
  decision?: 'allow' | 'deny';
  reason?: string;
  /** With an allow: the input the call runs with instead. */
  updatedInput?: Json;
}

export interface PermissionDeniedResult extends CommonResult {
  /** The model may try the denied call again. */
  retry?: boolean;
}

function label(run: HookRun): string {
  return run.hook.http ? `http hook ${run.hook.http.url}` : `hook \`${run.hook.command}\``;
}

/** Why a run gives nothing usable, or undefined when it exited 0 or 2. */
function runError(run: HookRun): string | undefined {
  switch (run.status) {
    case 'success':
    case 'blocked':
      return undefined;
    case 'failed': {
      if (run.hook.http) return `${label(run)} ${run.error ?? 'failed'}`;
      const detail = run.stderr.trim() ? `: ${run.stderr.trim().slice(0, 500)}` : '';
      // The shell's answer when the program cannot be found or run.
      const start = run.exitCode === 127 || run.exitCode === 126 ? ' (its program could not be started)' : '';
      return `${label(run)} exited with code ${run.exitCode}${start}${detail}`;
    }
    default:
      return `${label(run)} ${run.error ?? run.status}`;
  }
}

/**
 * Why the call is blocked because this run failed and its hook says `"onFailure": "block"`; undefined when the
 * hook ran (exit 0 or 2, or an http 2xx), was cancelled, or lets failures through.
 */
function failureBlock(run: HookRun): string | undefined {
  if (run.hook.onFailure !== 'block' || run.status === 'aborted') return undefined;
  const failure = runError(run);
  return failure && `${failure}; the hook has "onFailure": "block", so the call is blocked`;
}

/**
 * What a run that exited 0 printed: JSON when it starts with `{`, else plain text (not used by these events).
 * A failed run, or output that cannot be read, is an error instead.
 */
function outputOf(run: HookRun): { json?: Json; error?: string } {
  const failure = runError(run);
  if (failure) {
    // Claude Code reads a command hook's JSON whatever its exit code (reference as of v2.1.240); what a failed
    // run says is kept with its failure, and the caller drops an allow from it.
    const text = run.status === 'failed' && !run.hook.http ? run.stdout.trim() : '';
    if (!text.startsWith('{') || run.truncated) return { error: failure };
    const value = parsedObject(text);
    return value ? { json: value, error: failure } : { error: failure };
  }
  const text = run.stdout.trim();
  if (!text.startsWith('{')) return {};
  if (run.truncated) return { error: `${label(run)} printed more output than is read` };
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? { json: value } : { error: `${label(run)} printed JSON that is not an object` };
  } catch {
    return { error: `${label(run)} printed invalid JSON` };
  }
}

function parsedObject(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function common(json: Json, event: HookEvent, errors: string[]): CommonResult {
  const r: CommonResult = {};
  if (json.continue === false) {
    r.stop = typeof json.stopReason === 'string' ? json.stopReason : 'a hook stopped the agent';
  }
  if (typeof json.systemMessage === 'string') r.systemMessage = json.systemMessage;
  const specific = json.hookSpecificOutput;
  if (isObject(specific)) {
    if (specific.hookEventName !== undefined && specific.hookEventName !== event) {
      errors.push(`hookSpecificOutput is for ${String(specific.hookEventName)}, not ${event}`);
    }
    if (typeof specific.additionalContext === 'string') r.additionalContext = specific.additionalContext;
  } else if (specific !== undefined) {
    errors.push('hookSpecificOutput is not an object');
  }
  return r;
}

function withErrors<T extends CommonResult>(r: T, run: HookRun, errors: string[]): T {
  if (errors.length > 0) r.error = `${label(run)} gave unusable output: ${errors.join('; ')}`;
  return r;
}

const PRE_DECISIONS = new Set(['allow', 'ask', 'deny', 'defer']);
const LEGACY: Record<string, 'allow' | 'deny'> = { approve: 'allow', block: 'deny' };
/** The answer shape of an early design (`{"deny": true}`): Claude Code never read it. */
const OLD_SHAPE = ['deny', 'allow', 'ask'];

/**
 * One PreToolUse run. Exit 2 blocks with stderr as the reason. Unusable output keeps a deny or ask it states
 * (failing closed), never an allow.
 */
export function preToolUseResult(run: HookRun): PreToolUseResult {
  if (run.status === 'blocked') {
    return { blocked: true, decision: 'deny', reason: run.stderr.trim() || `blocked by ${label(run)}` };
  }
  const failed = failureBlock(run);
  if (failed) return { blocked: true, decision: 'deny', reason: failed, error: failed };
  const { json, error } = outputOf(run);
  if (!json) return error ? { blocked: false, error } : { blocked: false };
  const errors: string[] = error ? [error] : [];
  const r: PreToolUseResult = { blocked: false, ...common(json, 'PreToolUse', errors) };
  if (
    json.hookSpecificOutput === undefined &&
    json.decision === undefined &&
    OLD_SHAPE.some((k) => k in json)
  )
    errors.push(
      `${OLD_SHAPE.filter((k) => k in json).join(', ')} is not a hook answer Claude Code reads: it is ignored; print {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}`,
    );
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  let decision: unknown = specific.permissionDecision;
  let reason: unknown = specific.permissionDecisionReason;
  if (decision === undefined && typeof json.decision === 'string') {
    decision = LEGACY[json.decision] ?? json.decision;
    reason = json.reason;
  }
  if (decision !== undefined) {
    if (typeof decision === 'string' && PRE_DECISIONS.has(decision)) r.decision = decision as 'allow';
    else errors.push(`unknown permissionDecision ${JSON.stringify(decision)}`);
  }
  if (typeof reason === 'string') r.reason = reason;
  if (specific.updatedInput !== undefined) {
    if (isObject(specific.updatedInput)) r.updatedInput = specific.updatedInput;
    else errors.push('updatedInput is not an object');
  }
  if (errors.length > 0 && r.decision === 'allow') {
    delete r.decision;
    delete r.updatedInput;
  }
  return withErrors(r, run, errors);
}

export function postToolUseResult(
  run: HookRun,
  event: 'PostToolUse' | 'PostToolUseFailure',
): PostToolUseResult {
  if (run.status === 'blocked') return { block: run.stderr.trim() || `blocked by ${label(run)}` };
  const { json, error } = outputOf(run);
  if (error) return { error };
  if (!json) return {};
  const errors: string[] = [];
  const r: PostToolUseResult = common(json, event, errors);
  if (json.decision === 'block') {
    r.block = typeof json.reason === 'string' && json.reason ? json.reason : `blocked by ${label(run)}`;
  } else if (json.decision !== undefined) {
    errors.push(`unknown decision ${JSON.stringify(json.decision)}`);
  }
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  for (const field of ['updatedToolOutput', 'updatedMCPToolOutput', 'classifierContext'] as const) {
    if (specific[field] !== undefined && event !== 'PostToolUse') {
      errors.push(`${field} applies to PostToolUse only: the call failed`);
    }
  }
  if (event === 'PostToolUse') {
    const field = specific.updatedToolOutput !== undefined ? 'updatedToolOutput' : 'updatedMCPToolOutput';
    if (specific[field] !== undefined) r.replacement = { value: specific[field], field, hook: label(run) };
    const note = specific.classifierContext;
    if (typeof note === 'string') r.classifierContext = note;
    else if (note !== undefined) errors.push('classifierContext is not a string');
  }
  return withErrors(r, run, errors);
}

export function permissionRequestResult(run: HookRun): PermissionRequestResult {
  if (run.status === 'blocked')
    return { decision: 'deny', reason: run.stderr.trim() || `denied by ${label(run)}` };
  const failed = failureBlock(run);
  if (failed) return { decision: 'deny', reason: failed, error: failed };
  const { json, error } = outputOf(run);
  if (error) return { error };
  if (!json) return {};
  const errors: string[] = [];
  const r: PermissionRequestResult = common(json, 'PermissionRequest', errors);
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const d = specific.decision;
  if (isObject(d)) {
    if (d.behavior === 'allow' || d.behavior === 'deny') r.decision = d.behavior;
    else errors.push(`unknown decision.behavior ${JSON.stringify(d.behavior)}`);
    if (typeof d.message === 'string') r.reason = d.message;
    if (d.updatedInput !== undefined) {
      if (!isObject(d.updatedInput)) errors.push('decision.updatedInput is not an object');
      else if (d.behavior === 'allow') r.updatedInput = d.updatedInput;
    }
    if (d.interrupt === true && d.behavior === 'deny') {
      r.stop ??= r.reason ?? 'a PermissionRequest hook interrupted the agent';
    }
  } else if (d !== undefined) {
    errors.push('decision is not an object');
  }
  if (errors.length > 0 && r.decision === 'allow') {
    delete r.decision;
    delete r.updatedInput;
  }
  return withErrors(r, run, errors);
}

/** PermissionDenied hooks observe a denial; they cannot undo it, only say that the model may retry. */
export function permissionDeniedResult(run: HookRun): PermissionDeniedResult {
  if (run.status === 'blocked') {
    return { error: `${label(run)} exited with code 2, which cannot block a call that is already denied` };
  }
  const { json, error } = outputOf(run);
  if (error) return { error };
  if (!json) return {};
  const errors: string[] = [];
  const r: PermissionDeniedResult = common(json, 'PermissionDenied', errors);
  const specific = isObject(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  if (typeof specific.retry === 'boolean') r.retry = specific.retry;
  else if (specific.retry !== undefined) errors.push('retry is not a boolean');
  return withErrors(r, run, errors);
}

/** A SubagentStart, SubagentStop or PreCompact run. */
export interface LifecycleResult extends CommonResult {
  event: 'SubagentStart' | 'SubagentStop' | 'PreCompact';
  /** SubagentStop only: `decision: "block"` or exit 2; the reason is the sub-agent's next instruction. */
  block?: string;
}

/**
 * One run of a lifecycle event. SubagentStop blocks as Stop does (exit 2 with stderr, or `decision: "block"`
 * with a reason); SubagentStart and PreCompact cannot block: an exit 2 is reported and ignored.
 */
export function lifecycleResult(run: HookRun, event: LifecycleResult['event']): LifecycleResult {
  if (run.status === 'blocked') {
    if (event === 'SubagentStop') return { event, block: run.stderr.trim() || `blocked by ${label(run)}` };
    return { event, error: `${label(run)} exited with code 2, which ${event} hooks cannot use to block` };
  }
  const { json, error } = outputOf(run);
  if (error) return { event, error };
  if (!json) return { event };
  const errors: string[] = [];
  const r: LifecycleResult = { event, ...common(json, event, errors) };
  if (json.decision === 'block' && event === 'SubagentStop') {
    r.block = typeof json.reason === 'string' && json.reason ? json.reason : `blocked by ${label(run)}`;
  } else if (json.decision !== undefined) {
    errors.push(`decision ${JSON.stringify(json.decision)} does not apply to ${event}`);
  }
  if (r.additionalContext !== undefined && event !== 'SubagentStart') {
    errors.push(`additionalContext does not apply to ${event}`);
    delete r.additionalContext;
  }
  return withErrors(r, run, errors);
}
