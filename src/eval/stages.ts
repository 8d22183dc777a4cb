import { alwaysAsks, failsClosed, modelSettles } from '../policy/index.js';
import type { Decided } from './decide.js';

/** What settled a call, in the terms of the pipeline: the order in which a user meets them. */
export const STAGES = [
  'rule',
  'read-only',
  'fail-closed',
  'no-rule',
  'model-1',
  'model-2',
  'model-error',
  'hook',
  'tool',
  'mode',
  'settings-error',
  'error',
] as const;
export type EvalStage = (typeof STAGES)[number];

export const STAGE_TITLES: Record<EvalStage, string> = {
  rule: 'permission or pattern rule',
  'read-only': 'read-only default',
  'fail-closed': 'fail-closed check (opaque, hidden code, protected path, unlisted writes, size)',
  'no-rule': 'no rule and no model answer',
  'model-1': 'model stage 1',
  'model-2': 'model stage 2',
  'model-error': 'model failure (fails closed)',
  hook: 'hook',
  tool: "the tool's own check",
  mode: 'permission mode',
  'settings-error': 'settings error',
  error: 'not decided (error)',
};

export function stageOf({ verdict, source, error }: Decided): EvalStage {
  if (error !== undefined) return 'error';
  if (source === 'hook' || source === 'permission-hook') return 'hook';
  if (source === 'tool' || source === 'validation') return 'tool';
  const m = verdict.model;
  if (m && (verdict.by === 'model-error' || !m.ok)) return 'model-error';
  if (m && (verdict.by === 'model' || verdict.decision === 'allow'))
    return m.stage === 2 ? 'model-2' : 'model-1';
  // A check that refused (alwaysAsks: opaque, hidden code, a protected path…) beside an undecided part.
  const closed = verdict.parts.some((p) => p.decision === verdict.decision && alwaysAsks(p.by));
  if (closed && modelSettles(verdict.by)) return 'fail-closed';
  switch (verdict.by) {
    case 'rule':
    case 'service-read':
      return 'rule';
    case 'read-only':
    case 'wrapper':
      return 'read-only';
    case 'file':
      return verdict.decision === 'allow' ? 'read-only' : 'no-rule';
    case 'mode':
      return 'mode';
    case 'settings-error':
      return 'settings-error';
    case 'model':
      return 'model-1';
    case 'model-error':
      return 'model-error';
    default:
      return failsClosed(verdict.by) ? 'fail-closed' : 'no-rule';
  }
}
