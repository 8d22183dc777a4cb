import type { LoadedSettings } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { type TestCall, toCall } from './call.js';
import type { CorpusEntry } from './corpus.js';
import { decider } from './decide.js';
import type { ModelProvider } from './model.js';
import type { Actual, Decision } from './results.js';

/** More permissive first: allow, then ask, then deny. */
const OPENNESS: Record<Decision, number> = { allow: 2, ask: 1, deny: 0 };

export type ChangeKind = 'newly-allowed' | 'widened' | 'narrowed';

export interface Change {
  id: string;
  file: string;
  line: number;
  /** The call as the head side ran it. */
  call: TestCall;
  base: DiffVerdict;
  head: DiffVerdict;
  kind: ChangeKind;
}

export interface DiffVerdict extends Actual {
  /** The rules left the call to a model there is none of: the decision is the rules' own. */
  undecided?: string;
}

export interface DiffSummary {
  calls: number;
  changed: number;
  newlyAllowed: number;
  /** Every change towards allowing, newly allowed included. */
  widened: number;
  narrowed: number;
  /** Calls one side or both left to a model there is none of. */
  leftToModel: number;
}

export interface DiffOptions {
  /** Overrides every call's mode. */
  mode?: Mode;
  model?: ModelProvider;
}

/**
 * Classifies every call under both configurations and lists those whose decision changes, more permissive
 * first: newly allowed (from deny, then from ask), then deny to ask, then the stricter ones; corpus order within.
 */
export async function diffDecisions(
  entries: readonly CorpusEntry[],
  base: { settings: LoadedSettings; project: string },
  head: { settings: LoadedSettings; project: string },
  options: DiffOptions = {},
): Promise<{ changes: Change[]; summary: DiffSummary }> {
  const decideBase = decider(base.settings, options.model);
  const decideHead = decider(head.settings, options.model);
  const changes: Change[] = [];
  let leftToModel = 0;
  for (const entry of entries) {
    const spec = options.mode ? { ...entry.call, mode: options.mode } : entry.call;
    const baseCall = toCall(spec, base.project);
    const headCall = toCall(spec, head.project);
    if ('error' in baseCall || 'error' in headCall) continue;
    const before = verdictOf(await decideBase(baseCall));
    const after = verdictOf(await decideHead(headCall));
    if (before.undecided || after.undecided) leftToModel++;
    if (before.decision === after.decision) continue;
    changes.push({
      id: entry.id,
      file: entry.file,
      line: entry.line,
      call: headCall,
      base: before,
      head: after,
      kind: kindOf(before.decision, after.decision),
    });
  }
  changes.sort((a, b) => rank(a) - rank(b));
  const count = (kind: ChangeKind) => changes.filter((c) => c.kind === kind).length;
  return {
    changes,
    summary: {
      calls: entries.length,
      changed: changes.length,
      newlyAllowed: count('newly-allowed'),
      widened: count('newly-allowed') + count('widened'),
      narrowed: count('narrowed'),
      leftToModel,
    },
  };
}

function verdictOf(outcome: Awaited<ReturnType<ReturnType<typeof decider>>>): DiffVerdict {
  const v = outcome.verdict;
  return {
    decision: v.decision,
    by: v.by,
    reason: v.reason,
    ...(v.rule ? { rule: v.rule } : {}),
    ...('skipped' in outcome ? { undecided: outcome.skipped } : {}),
    ...('model' in outcome && outcome.model ? { model: true } : {}),
  };
}

function kindOf(before: Decision, after: Decision): ChangeKind {
  if (after === 'allow') return 'newly-allowed';
  return OPENNESS[after] > OPENNESS[before] ? 'widened' : 'narrowed';
}

/** Sort key: newly allowed from deny, from ask; deny to ask; then allow to deny, allow to ask, ask to deny. */
function rank(c: Change): number {
  if (c.kind === 'newly-allowed') return OPENNESS[c.base.decision];
  if (c.kind === 'widened') return 10;
  return 20 + (2 - OPENNESS[c.base.decision]) * 2 + OPENNESS[c.head.decision];
}
