import { modelSettles, type PartVerdict } from '../policy/index.js';
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

/** Whether to ask the model: something is open and nothing is denied already (or every shell call goes to it). */
export function needsModel(parts: readonly PartVerdict[], mode: Mode, allShell: boolean): boolean {
  if (!MODEL_MODES.has(mode)) return false;
  if (parts.some((p) => p.decision === 'deny')) return false;
  const open = parts.filter(isOpen);
  const closed = parts.filter((p) => p.decision === 'ask' && !isOpen(p));
  if (closed.length > 0) return false;
  return open.length > 0 || allShell;
}

/**
 * The model's answer applied to the parts (its own part goes first, so that it names the verdict among equally
 * strict parts): an allow settles the open parts; a hard_deny denies; a soft_deny
 * denies in auto and dontAsk mode and asks in the interactive modes; a failure asks.
 */
export function modelParts(parts: PartVerdict[], j: Judgement, mode: Mode, allShell: boolean): PartVerdict[] {
  const label = j.ok && j.rule ? `${j.rule}: ` : '';
  if (!j.ok) {
    const reason = `the model could not decide (${j.kind}: ${j.message})`;
    return [{ subject: 'model', decision: 'ask', by: 'model-error', reason }, ...parts];
  }
  if (j.decision === 'allow') {
    const reason = `the model allows it${j.exception ? ` (${j.exception})` : ''}: ${j.reason}`;
    const settled = parts.map((p) =>
      isOpen(p) ? { ...p, decision: 'allow' as const, by: 'model' as const, reason } : p,
    );
    return allShell ? [...settled, { subject: 'model', decision: 'allow', by: 'model', reason }] : settled;
  }
  const interactive = mode === 'default' || mode === 'acceptEdits';
  const decision = j.decision === 'hard_deny' || !interactive ? 'deny' : 'ask';
  const reason = `${label}${j.decision === 'hard_deny' ? 'hard_deny' : 'soft_deny'} rule: ${j.reason}`;
  return [{ subject: 'model', decision, by: 'model', reason }, ...parts];
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

/**
 * After 3 model denials in a row or 20 in a session, the model's denials turn into questions: a human looks
 * before the agent keeps bumping into the same wall.
 */
export class DenialTracker {
  private consecutive = 0;
  private total = 0;

  record(j: Judgement, cached: boolean): Judgement {
    if (!j.ok) return j;
    if (j.decision === 'allow') {
      this.consecutive = 0;
      return j;
    }
    if (!cached) {
      this.consecutive++;
      this.total++;
    }
    if (this.consecutive > 3 || this.total > 20) {
      return {
        ok: false,
        stage: j.stage,
        kind: 'refusal',
        message: `the model denied ${this.consecutive} calls in a row (${this.total} in this session): asking instead`,
        usage: j.usage,
        latencyMs: j.latencyMs,
      };
    }
    return j;
  }
}
