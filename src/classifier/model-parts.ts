import { autoSoft, isShippedAsk, modelSettles, type PartVerdict, type Verdict } from '../policy/index.js';
import type { Mode } from '../shared/index.js';
import type { Judgement, ModelInfo } from './types.js';

/** The tools the model answers with: stage 1 flags the action, stage 2 decides it. */
export const STAGE1_TOOL = 'flag_action';
export const STAGE2_TOOL = 'decide_action';

/** Modes in which the model judges what the rules leave open. */
const MODEL_MODES = new Set<Mode>(['default', 'acceptEdits', 'auto', 'dontAsk']);

/** Parts only the model can settle: no rule decided them and nothing about them fails closed. */
function isOpen(p: PartVerdict): boolean {
  return p.decision === 'ask' && modelSettles(p.by);
}

/**
 * Why a part is a soft ask, in auto mode only: an ask by a shipped ask rule or by a check whose trait is
 * `autoSoft` (hidden code). The model judges it with this reason attached; in other modes it stays an ask.
 */
export function softReason(p: PartVerdict, mode: Mode): string | undefined {
  if (mode !== 'auto' || p.decision !== 'ask') return undefined;
  if (isShippedAsk(p)) return `asked by the shipped rule ${p.rule?.label ?? p.rule?.text}`;
  if (p.by === 'unlisted-writes')
    return `writes files whose names automode cannot read beforehand: ${p.reason}`;
  if (autoSoft(p.by)) return `runs code automode cannot see: ${p.reason}`;
  return undefined;
}

/** A hard ask: neither open nor soft, so it keeps the whole call away from the model. */
function isHardAsk(p: PartVerdict, mode: Mode): boolean {
  return p.decision === 'ask' && !isOpen(p) && softReason(p, mode) === undefined;
}

/** The soft asks of a call, one line each, for the model's prompt (empty outside auto mode). */
export function softAsks(parts: readonly PartVerdict[], mode: Mode): string[] {
  const lines = parts.flatMap((p) => {
    const why = softReason(p, mode);
    return why === undefined ? [] : [`${p.subject}: ${why}`];
  });
  return [...new Set(lines)];
}

/**
 * Whether to ask the model: something is open (or, in auto mode, soft), nothing is denied already and nothing
 * asks hard (or every shell call goes to it).
 */
export function needsModel(parts: readonly PartVerdict[], mode: Mode, allShell: boolean): boolean {
  if (!MODEL_MODES.has(mode)) return false;
  if (parts.some((p) => p.decision === 'deny')) return false;
  if (parts.some((p) => isHardAsk(p, mode))) return false;
  const open = parts.filter((p) => isOpen(p) || softReason(p, mode) !== undefined);
  return open.length > 0 || allShell;
}

/** In auto mode, an ask verdict says whether a hard part decided it, judged on the rules' parts. */
export function markAsk<V extends Verdict>(verdict: V, rulesParts: readonly PartVerdict[], mode: Mode): V {
  if (mode !== 'auto' || verdict.decision !== 'ask') return verdict;
  verdict.ask = rulesParts.some((p) => isHardAsk(p, mode)) ? 'hard' : 'soft';
  return verdict;
}

/** A soft part as the model judged it: settled by its allow (the rule's text stays in `soft`), else kept. */
function judgedSoft(p: PartVerdict, why: string, allow: string | undefined): PartVerdict {
  if (allow === undefined) return { ...p, soft: why };
  const { rule: _rule, ...rest } = p;
  return { ...rest, decision: 'allow', by: 'model', reason: allow, soft: why };
}

/**
 * The model's answer applied to the parts (its own part goes first, so that it names the verdict among equally
 * strict parts): an allow settles the open parts and, in auto mode, the soft ones; a hard_deny denies; a
 * soft_deny denies in auto and dontAsk mode and asks in the interactive modes; a failure asks. Soft parts carry
 * their reason in `soft` whatever the answer.
 */
export function modelParts(parts: PartVerdict[], j: Judgement, mode: Mode, allShell: boolean): PartVerdict[] {
  const label = j.ok && j.rule ? `${j.rule}: ` : '';
  const allow =
    j.ok && j.decision === 'allow'
      ? `the model allows it${j.exception ? ` (${j.exception})` : ''}: ${j.reason}`
      : undefined;
  const judged = parts.map((p) => {
    const why = softReason(p, mode);
    if (why !== undefined) return judgedSoft(p, why, allow);
    if (allow !== undefined && isOpen(p))
      return { ...p, decision: 'allow' as const, by: 'model' as const, reason: allow };
    return p;
  });
  if (!j.ok) {
    const reason = `the model could not decide (${j.kind}: ${j.message})`;
    return [{ subject: 'model', decision: 'ask', by: 'model-error', reason }, ...judged];
  }
  if (allow !== undefined) {
    return allShell
      ? [...judged, { subject: 'model', decision: 'allow', by: 'model', reason: allow }]
      : judged;
  }
  const interactive = mode === 'default' || mode === 'acceptEdits';
  const decision = j.decision === 'hard_deny' || !interactive ? 'deny' : 'ask';
  const reason = `${label}${j.decision === 'hard_deny' ? 'hard_deny' : 'soft_deny'} rule: ${j.reason}`;
  return [{ subject: 'model', decision, by: 'model', reason }, ...judged];
}

export function modelInfo(j: Judgement, cached: boolean, deniedTooOften: boolean): ModelInfo {
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let costUsd = 0;
  const warnings: string[] = [];
  for (const u of cached ? [] : j.usage) {
    tokens.input += u.inputTokens;
    tokens.output += u.outputTokens;
    tokens.cacheRead += u.cacheReadTokens;
    tokens.cacheWrite += u.cacheWriteTokens;
    costUsd += u.costUsd ?? 0;
    if (u.cacheMissWarning) warnings.push(u.cacheMissWarning);
  }
  const info: ModelInfo = {
    stage: j.stage,
    ok: j.ok,
    cached,
    latencyMs: cached ? 0 : Math.round(j.latencyMs),
    tokens,
    costUsd: cached ? 0 : costUsd,
    warnings,
  };
  if (j.ok) {
    info.decision = j.decision;
    if (j.rule) info.rule = j.rule;
  } else {
    info.failure = `${j.kind}: ${j.message}`;
  }
  if (deniedTooOften) info.deniedTooOften = true;
  return info;
}
