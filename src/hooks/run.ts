import { homedir } from 'node:os';
import { runCommandHook } from './command.js';
import { type HookConfig, hooksForCall, matchingHooks } from './config.js';
import { runHttpHook } from './http.js';
import {
  type LifecycleResult,
  lifecycleResult,
  type OutputReplacement,
  type PermissionDeniedResult,
  type PermissionRequestResult,
  type PostToolUseResult,
  type PreToolUseResult,
  permissionDeniedResult,
  permissionRequestResult,
  postToolUseResult,
  preToolUseResult,
} from './output.js';
import type {
  AnyHookInput,
  HookEvent,
  HookInput,
  HookRun,
  PreCompactInput,
  SubagentStartInput,
  SubagentStopInput,
} from './types.js';

export interface RunHooksOptions {
  cwd: string;
  /** Added to the process environment of every hook. */
  env?: Record<string, string>;
  /** `CLAUDE_PROJECT_DIR` for the hooks (default: cwd). */
  projectDir?: string;
  signal?: AbortSignal;
  maxOutputChars?: number;
  /** The home folder `~` in an `if` rule stands for (default: the user's). */
  home?: string;
  /**
   * Receives each `async` hook's run as it starts: nothing else waits for it, and its answer decides nothing.
   * It is not stopped by `signal`, only by its timeout.
   */
  onBackground?: (run: Promise<HookRun>) => void;
}

/** What an event's matcher is matched against: the tool name, the agent type, the compaction trigger. */
function matchTarget(input: AnyHookInput): string {
  if (input.hook_event_name === 'PreCompact') return (input as PreCompactInput).trigger;
  if (input.hook_event_name === 'SubagentStart' || input.hook_event_name === 'SubagentStop')
    return (input as SubagentStartInput).agent_type;
  return (input as HookInput).tool_name;
}

/**
 * Runs every hook matching the event, its matcher and (tool events only) `if`, all in parallel; identical
 * commands run once. `async` hooks are started and left running (see `onBackground`): the runs returned are
 * those of the others.
 */
export async function runHooks(
  config: HookConfig,
  input: AnyHookInput,
  options: RunHooksOptions,
): Promise<HookRun[]> {
  const where = { cwd: options.cwd, home: options.home ?? homedir() };
  const event = input.hook_event_name;
  const hooks =
    'tool_name' in input
      ? await hooksForCall(config, event, input.tool_name, input.tool_input, where)
      : matchingHooks(config, event, matchTarget(input));
  if (hooks.length === 0) return [];
  const env = { ...process.env, ...options.env, CLAUDE_PROJECT_DIR: options.projectDir ?? options.cwd };
  const runOptions = {
    cwd: options.cwd,
    env,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.maxOutputChars !== undefined ? { maxOutputChars: options.maxOutputChars } : {}),
  };
  const { signal: _, ...backgroundOptions } = runOptions;
  for (const hook of hooks) {
    if (!hook.async) continue;
    options.onBackground?.(runCommandHook(hook, input, backgroundOptions));
  }
  return Promise.all(
    hooks
      .filter((hook) => !hook.async)
      .map((hook) =>
        hook.http
          ? runHttpHook({ ...hook, http: hook.http }, input, runOptions)
          : runCommandHook(hook, input, runOptions),
      ),
  );
}

type Json = Record<string, unknown>;

/** What every event's hooks say together. */
export interface HookOutcome {
  runs: HookRun[];
  additionalContext: string[];
  systemMessages: string[];
  /** The first `continue: false` reason. */
  stop?: string;
  /** Hooks that failed, timed out, crashed or printed unusable output: they decide nothing. */
  errors: string[];
}

export interface PreToolUseOutcome extends HookOutcome {
  /** deny > defer > ask > allow across hooks (Claude Code's precedence); absent when no hook decided. */
  decision?: 'allow' | 'ask' | 'deny' | 'defer';
  reason?: string;
  /** Some hook exited with code 2. */
  blocked: boolean;
  updatedInput?: Json;
}

export interface PostToolUseOutcome extends HookOutcome {
  /** Feedback from hooks that blocked (`decision: "block"` or exit 2). */
  blocks: string[];
  /**
   * Replacement outputs, in settings order: the pipeline checks each against the tool's output shape and uses
   * the last one that fits.
   */
  replacements: OutputReplacement[];
  /** Notes for the permission classifier, in settings order. */
  classifierContext: string[];
}

export interface PermissionRequestOutcome extends HookOutcome {
  decision?: 'allow' | 'deny';
  reason?: string;
  /** The input an allowing hook rewrote the call into. */
  updatedInput?: Json;
}

export interface PermissionDeniedOutcome extends HookOutcome {
  /** Some hook said the model may retry the call. */
  retry: boolean;
}

const RANK = { allow: 0, ask: 1, defer: 2, deny: 3 } as const;

function collect(
  runs: HookRun[],
  results: (
    | PreToolUseResult
    | PostToolUseResult
    | PermissionRequestResult
    | PermissionDeniedResult
    | LifecycleResult
  )[],
) {
  const outcome: HookOutcome = { runs, additionalContext: [], systemMessages: [], errors: [] };
  for (const r of results) {
    if (r.additionalContext) outcome.additionalContext.push(r.additionalContext);
    if (r.systemMessage) outcome.systemMessages.push(r.systemMessage);
    if (r.error) outcome.errors.push(r.error);
    if (r.stop !== undefined && outcome.stop === undefined) outcome.stop = r.stop;
  }
  return outcome;
}

/** Several hooks: deny > defer > ask > allow; the reasons of the hooks that gave the winning decision are joined. */
export function aggregatePreToolUse(runs: HookRun[]): PreToolUseOutcome {
  const results = runs.map(preToolUseResult);
  const outcome: PreToolUseOutcome = { ...collect(runs, results), blocked: results.some((r) => r.blocked) };
  let decision: PreToolUseOutcome['decision'];
  for (const r of results) {
    if (r.decision && (!decision || RANK[r.decision] > RANK[decision])) decision = r.decision;
  }
  if (!decision) return withUpdate(outcome, results);
  outcome.decision = decision;
  const reasons = results.filter((r) => r.decision === decision && r.reason).map((r) => r.reason!);
  if (reasons.length > 0) outcome.reason = reasons.join('; ');
  return withUpdate(outcome, results);
}

/** An input change is taken unless the call is denied; two hooks that rewrite it differently ask instead. */
function withUpdate(outcome: PreToolUseOutcome, results: PreToolUseResult[]): PreToolUseOutcome {
  if (outcome.decision === 'deny') return outcome;
  const updates = results.filter((r) => r.updatedInput && r.decision !== 'deny').map((r) => r.updatedInput!);
  const distinct = new Set(updates.map((u) => JSON.stringify(u)));
  if (distinct.size === 1) outcome.updatedInput = updates[0]!;
  if (distinct.size > 1) {
    outcome.decision = 'ask';
    outcome.reason = 'hooks rewrote the input in different ways';
  }
  return outcome;
}

export function aggregatePostToolUse(runs: HookRun[], event: 'PostToolUse' | 'PostToolUseFailure') {
  const results = runs.map((r) => postToolUseResult(r, event));
  const outcome: PostToolUseOutcome = {
    ...collect(runs, results),
    blocks: results.flatMap((r) => (r.block ? [r.block] : [])),
    replacements: results.flatMap((r) => (r.replacement ? [r.replacement] : [])),
    classifierContext: results.flatMap((r) => (r.classifierContext ? [r.classifierContext] : [])),
  };
  return outcome;
}

export function aggregatePermissionRequest(runs: HookRun[]): PermissionRequestOutcome {
  const results = runs.map(permissionRequestResult);
  const outcome: PermissionRequestOutcome = collect(runs, results);
  const deny = results.filter((r) => r.decision === 'deny');
  const allow = results.filter((r) => r.decision === 'allow');
  const winners = deny.length > 0 ? deny : allow;
  if (winners.length > 0) {
    outcome.decision = deny.length > 0 ? 'deny' : 'allow';
    const reasons = winners.flatMap((r) => (r.reason ? [r.reason] : []));
    if (reasons.length > 0) outcome.reason = reasons.join('; ');
  }
  if (outcome.decision === 'allow') {
    const rewrites = [
      ...new Set(allow.flatMap((r) => (r.updatedInput ? [JSON.stringify(r.updatedInput)] : []))),
    ];
    if (rewrites.length > 1) {
      // Two hooks allow different calls: neither is the call that was asked about, so neither decides.
      delete outcome.decision;
      delete outcome.reason;
      outcome.errors.push('PermissionRequest hooks rewrote the input in different ways: no hook decides');
    } else if (rewrites.length === 1) {
      outcome.updatedInput = JSON.parse(rewrites[0]!) as Json;
    }
  }
  return outcome;
}

export function aggregatePermissionDenied(runs: HookRun[]): PermissionDeniedOutcome {
  const results = runs.map(permissionDeniedResult);
  return { ...collect(runs, results), retry: results.some((r) => r.retry === true) };
}

export type EventInput = Omit<HookInput, 'hook_event_name'>;

export async function runPreToolUseHooks(config: HookConfig, input: EventInput, options: RunHooksOptions) {
  return aggregatePreToolUse(await runHooks(config, { ...input, hook_event_name: 'PreToolUse' }, options));
}

export async function runPostToolUseHooks(
  config: HookConfig,
  event: 'PostToolUse' | 'PostToolUseFailure',
  input: EventInput,
  options: RunHooksOptions,
) {
  return aggregatePostToolUse(await runHooks(config, { ...input, hook_event_name: event }, options), event);
}

export async function runPermissionRequestHooks(
  config: HookConfig,
  input: EventInput,
  options: RunHooksOptions,
) {
  const runs = await runHooks(config, { ...input, hook_event_name: 'PermissionRequest' }, options);
  return aggregatePermissionRequest(runs);
}

export async function runPermissionDeniedHooks(
  config: HookConfig,
  input: EventInput & { reason: string },
  options: RunHooksOptions,
) {
  const runs = await runHooks(config, { ...input, hook_event_name: 'PermissionDenied' }, options);
  return aggregatePermissionDenied(runs);
}

/** What SubagentStart, SubagentStop and PreCompact hooks say together. */
export interface LifecycleOutcome extends HookOutcome {
  /** SubagentStop: `decision: "block"` or exit 2 keeps the sub-agent running; these are its next instructions. */
  blocks: string[];
}

export function aggregateLifecycle(runs: HookRun[], event: LifecycleResult['event']): LifecycleOutcome {
  const results = runs.map((r) => lifecycleResult(r, event));
  return { ...collect(runs, results), blocks: results.flatMap((r) => (r.block ? [r.block] : [])) };
}

/** SubagentStart hooks: their `additionalContext` goes to the sub-agent before its first prompt. */
export async function runSubagentStartHooks(
  config: HookConfig,
  input: Omit<SubagentStartInput, 'hook_event_name'>,
  options: RunHooksOptions,
): Promise<LifecycleOutcome> {
  const runs = await runHooks(config, { ...input, hook_event_name: 'SubagentStart' }, options);
  return aggregateLifecycle(runs, 'SubagentStart');
}

/** SubagentStop hooks: a block keeps the sub-agent running with the reason as its next instruction. */
export async function runSubagentStopHooks(
  config: HookConfig,
  input: Omit<SubagentStopInput, 'hook_event_name'>,
  options: RunHooksOptions,
): Promise<LifecycleOutcome> {
  const runs = await runHooks(config, { ...input, hook_event_name: 'SubagentStop' }, options);
  return aggregateLifecycle(runs, 'SubagentStop');
}

/** PreCompact hooks run before the summary is asked for; they observe, and cannot stop it. */
export async function runPreCompactHooks(
  config: HookConfig,
  input: Omit<PreCompactInput, 'hook_event_name'>,
  options: RunHooksOptions,
): Promise<LifecycleOutcome> {
  const runs = await runHooks(config, { ...input, hook_event_name: 'PreCompact' }, options);
  return aggregateLifecycle(runs, 'PreCompact');
}

/** Whether hooks may run for this event and tool (an `if` may still rule them out for the call). */
export function hasHooks(config: HookConfig, event: HookEvent, toolName: string): boolean {
  return matchingHooks(config, event, toolName).length > 0;
}
