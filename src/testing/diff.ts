import { analyzeBash } from '../bash/index.js';
import { indexedProgram, lookupNames } from '../policy/index.js';
import type { LoadedSettings, Rule } from '../rules/index.js';
import { canonicalToolName } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { type CallSpec, type TestCall, toCall } from './call.js';
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
 * Only the calls a difference of rules can reach are classified (`reachedCalls`): the others are decided the same
 * on both sides.
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
  for (const entry of await reachedCalls(entries, base, head, options)) {
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

/**
 * The calls whose decision the difference between the sides can change. When the sides differ in their rules only
 * (the same objects otherwise, as an edit of one rule leaves them) and each changed rule is filed under a program
 * (`indexedProgram`): the Bash calls whose rules are looked up under one of those programs, or under any
 * (`lookupNames`), and every call in a mode that may leave it to a model, so that those are all counted. Every
 * call otherwise.
 */
export async function reachedCalls(
  entries: readonly CorpusEntry[],
  base: { settings: LoadedSettings; project: string },
  head: { settings: LoadedSettings; project: string },
  options: DiffOptions = {},
): Promise<readonly CorpusEntry[]> {
  const programs = changedPrograms(base, head);
  if (programs === undefined) return entries;
  const reached: CorpusEntry[] = [];
  for (const entry of entries) {
    const spec = options.mode ? { ...entry.call, mode: options.mode } : entry.call;
    if (await reaches(spec, base.settings, programs)) reached.push(entry);
  }
  return reached;
}

function changedPrograms(
  base: { settings: LoadedSettings; project: string },
  head: { settings: LoadedSettings; project: string },
): Set<string> | undefined {
  if (base.project !== head.project) return undefined;
  const a = base.settings as unknown as Record<string, unknown>;
  const b = head.settings as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
    if (key !== 'rules' && a[key] !== b[key]) return undefined;
  const before = new Set<Rule>(base.settings.rules);
  const after = new Set<Rule>(head.settings.rules);
  const changed = [
    ...base.settings.rules.filter((r) => !after.has(r)),
    ...head.settings.rules.filter((r) => !before.has(r)),
  ];
  const programs = new Set<string>();
  for (const rule of changed) {
    const program = indexedProgram(rule);
    if (program === undefined) return undefined;
    programs.add(program);
  }
  return programs;
}

async function reaches(
  spec: CallSpec,
  settings: LoadedSettings,
  programs: ReadonlySet<string>,
): Promise<boolean> {
  const mode = spec.mode ?? settings.defaultMode;
  if (mode === 'auto' || mode === 'plan') return true;
  if (canonicalToolName(spec.tool ?? 'Bash') !== 'Bash') return false;
  const command = spec.command ?? spec.input?.command;
  if (typeof command !== 'string') return true;
  const names = lookupNames(await analyzeBash(command));
  return names === undefined || [...names].some((n) => programs.has(n));
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
