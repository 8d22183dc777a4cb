import { relative, sep } from 'node:path';
import type { ClassifiedVerdict, ToolCall } from '../classifier/index.js';
import { asksOnlyFor, isShippedRule, modelSettles, type RuleRef } from '../policy/index.js';
import { callOf, nestsDeeperThan, parseJsonObject } from '../shared/index.js';
import { type HookEvent, hookOutput, NO_DECISION } from './protocol.js';

/** What automode reads of a Claude Code hook input besides the call. */
export interface HookInput {
  event: HookEvent;
  call: ToolCall;
  sessionId?: string;
  transcriptPath?: string;
  toolUseId?: string;
}

/** Decides one call of a hook input: the in-process hook and the service each bring their own. */
export type Decide = (input: HookInput) => Promise<ClassifiedVerdict>;

export interface AnswerOptions {
  /** Answer ask (a prompt) when neither the rules nor the model decide, instead of no decision. */
  askWhenUndecided?: boolean;
}

/**
 * The event the input names; `undefined` for an event automode does not answer (PostToolUse, Notification…).
 * An input that names no event, or cannot be read, is taken as a PreToolUse.
 */
function eventOf(value: Record<string, unknown>): HookEvent | undefined {
  const name = value.hook_event_name;
  if (name === undefined || name === 'PreToolUse') return 'PreToolUse';
  return name === 'PermissionRequest' ? 'PermissionRequest' : undefined;
}

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The deepest nesting of arrays and objects a hook input may have. Real inputs nest a few levels (an MCP tool's
 * arguments a few more); past this bound the input is refused before it is parsed, and the recursive walks of
 * the input (canonical JSON, the schemas) stay far from the stack's limit.
 */
export const MAX_HOOK_INPUT_DEPTH = 256;

/**
 * A hook input read: the event and call, no event to answer, or the reason it cannot be read. `automode hook`
 * and the service both read with this, so that they answer an unreadable input alike.
 */
export function readHookInput(
  raw: string,
): HookInput | { event: undefined } | { event: HookEvent; error: string } {
  if (nestsDeeperThan(raw, MAX_HOOK_INPUT_DEPTH))
    return { event: 'PreToolUse', error: `it nests deeper than ${MAX_HOOK_INPUT_DEPTH} levels` };
  const parsed = parseJsonObject(raw);
  if ('error' in parsed) return { event: 'PreToolUse', error: parsed.error };
  const value = parsed.value;
  const event = eventOf(value);
  if (!event) return { event };
  const call = callOf(value);
  if ('error' in call) return { event, error: call.error };
  const input: HookInput = { event, call };
  const sessionId = text(value.session_id);
  const transcriptPath = text(value.transcript_path);
  const toolUseId = text(value.tool_use_id);
  if (sessionId) input.sessionId = sessionId;
  if (transcriptPath) input.transcriptPath = transcriptPath;
  if (toolUseId) input.toolUseId = toolUseId;
  return input;
}

/**
 * An ask that only means nobody decided: every asking part is one only a judgement could settle (no rule, no
 * model, a file no rule covers), or, in auto mode with no model, a soft ask. A rule's ask, a check that refused
 * (opaque, hidden code outside auto mode, protected path…) and a model that failed are answers: they still ask.
 */
export function isUndecided(verdict: ClassifiedVerdict): boolean {
  return asksOnlyFor(verdict, modelSettles) || softAskWithoutModel(verdict);
}

/**
 * In auto mode, a soft ask (a shipped ask rule, code the model could be shown) that no model judged: Claude Code's
 * own classifier judges it, so the hook gives no opinion. A hard ask and a deny stay.
 */
function softAskWithoutModel(verdict: ClassifiedVerdict): boolean {
  return verdict.decision === 'ask' && verdict.ask === 'soft' && verdict.model === undefined;
}

/** Where a rule is written: `defaults` for a shipped one, else its file (relative to `cwd` when below it) and line. */
function rulePlace(rule: RuleRef, cwd: string | undefined): string {
  if (isShippedRule(rule)) return 'defaults';
  if (rule.file === undefined) return rule.source;
  const below = cwd !== undefined && rule.file.startsWith(`${cwd}${sep}`);
  const file = below ? relative(cwd, rule.file) : rule.file;
  return rule.line === undefined ? file : `${file}:${rule.line}`;
}

/**
 * The reason the agent is given: the verdict's, and the rule behind it named once (the reason names it already,
 * as `asked by Bash(…)`, or the rule's name is added) with where it is written.
 */
function reasonFor(verdict: ClassifiedVerdict, cwd?: string): string {
  const rule = verdict.rule;
  if (!rule) return `automode: ${verdict.reason}`;
  const name = rule.label ?? rule.text;
  const place = rulePlace(rule, cwd);
  const named = verdict.reason.includes(name) ? '' : `${name}, `;
  const effects = fileEffects(verdict);
  const does = effects.length > 0 ? `: it ${effects.join(', ')}` : '';
  const narrower = verdict.narrowerAllow;
  const hint = narrower ? `; to allow just this command, add the allow rule ${narrower}` : '';
  return `automode: ${verdict.reason} (${named}${place})${does}${hint}`;
}

const EFFECT = /^(reads|writes|deletes|may open|changes the mode or owner of|discards) /;
const SHOWN_EFFECTS = 3;

/** What the command a rule decided does to files, as the analysis found it: a few of its parts' subjects. */
function fileEffects(verdict: ClassifiedVerdict): string[] {
  const decided = verdict.parts.find((p) => p.reason === verdict.reason && p.command !== undefined);
  if (!decided || EFFECT.test(decided.subject)) return [];
  // What the command destroys or changes, where its words say more than the files it writes.
  if (decided.effect !== undefined) return [decided.effect];
  const subjects = verdict.parts
    .filter((p) => p.command === decided.command && EFFECT.test(p.subject))
    .map((p) => p.subject);
  const unique = [...new Set(subjects)];
  return unique.length > SHOWN_EFFECTS ? [...unique.slice(0, SHOWN_EFFECTS), '…'] : unique;
}

/** The hook's output for a verdict; `cwd` is the call's folder, from which rule files are named. */
export function answerFor(
  event: HookEvent,
  verdict: ClassifiedVerdict,
  options: AnswerOptions = {},
  cwd?: string,
): string {
  if (!options.askWhenUndecided && isUndecided(verdict)) return NO_DECISION;
  return hookOutput(event, verdict.decision, reasonFor(verdict, cwd));
}

/**
 * What `automode hook` prints for one hook input, however it is decided: an input that cannot be read, or a
 * decision that fails, asks; an event automode does not answer gets no decision.
 */
export async function answerHookInput(
  raw: string,
  decide: Decide,
  options: AnswerOptions = {},
): Promise<string> {
  const input = readHookInput(raw);
  if (input.event === undefined) return NO_DECISION;
  if ('error' in input)
    return hookOutput(input.event, 'ask', `automode could not read the hook input: ${input.error}`);
  try {
    return answerFor(input.event, await decide(input), options, input.call.cwd);
  } catch (e) {
    return hookOutput(input.event, 'ask', `automode failed, so it asks: ${(e as Error).message}`);
  }
}
