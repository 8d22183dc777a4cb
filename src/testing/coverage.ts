import type { RuleRef, Verdict } from '../policy/index.js';
import type { LoadedSettings, ProseSection } from '../rules/index.js';

/** One of a configuration's own rules, with how many cases it decided and how many it took part in. */
export interface CoveredRule {
  kind: 'permission' | 'pattern' | 'prose';
  /** allow/ask/deny, or the prose section. */
  behavior: string;
  text: string;
  label?: string;
  source: string;
  file?: string;
  line?: number;
  column?: number;
  pointer: string;
  /** Cases whose verdict this rule decided. */
  decided: number;
  /** Cases with a part this rule decided. */
  reached: number;
}

const JUDGED: readonly ProseSection[] = ['allow', 'soft_deny', 'hard_deny'];

/** The rules a configuration adds to the shipped ones: permission, pattern and prose rules that decide. */
export function ownRules(settings: LoadedSettings): CoveredRule[] {
  const rules: CoveredRule[] = [];
  for (const r of settings.rules) {
    if (r.provenance.source === 'defaults') continue;
    rules.push({
      kind: r.type,
      behavior: r.behavior,
      text: r.text,
      ...(r.type === 'pattern' ? { label: r.label } : {}),
      ...placeOf(r.provenance),
    });
  }
  for (const section of JUDGED) {
    for (const e of settings.prose[section]) {
      if (e.provenance.source === 'defaults') continue;
      rules.push({
        kind: 'prose',
        behavior: section,
        text: e.text,
        label: e.label,
        ...placeOf(e.provenance),
      });
    }
  }
  return rules;
}

/** Where a rule was written, with its counters at zero. */
function placeOf(p: { source: string; file?: string; line?: number; column?: number; pointer: string }) {
  return {
    source: p.source,
    ...(p.file === undefined ? {} : { file: p.file }),
    ...(p.line === undefined ? {} : { line: p.line, column: p.column ?? 1 }),
    pointer: p.pointer,
    decided: 0,
    reached: 0,
  };
}

export function ruleKey(r: { source: string; file?: string; pointer?: string; text: string }): string {
  return `${r.source}\0${r.file ?? ''}\0${r.pointer ?? r.text}`;
}

/** Counts a verdict against the rules it names: the rules of its parts, and the prose rule a model named. */
export function countVerdict(
  rules: Map<string, CoveredRule>,
  verdict: Verdict & { model?: { rule?: string } },
  list: readonly CoveredRule[],
): void {
  const reached = new Set<CoveredRule>();
  const find = (ref: RuleRef) => rules.get(ruleKey(ref));
  for (const part of verdict.parts) {
    const rule = part.rule && find(part.rule);
    if (rule) reached.add(rule);
  }
  const named = verdict.model?.rule;
  const prose = named ? list.find((r) => r.kind === 'prose' && r.label === named) : undefined;
  const decider = (verdict.rule && find(verdict.rule)) || (verdict.by === 'model' ? prose : undefined);
  if (decider) {
    decider.decided++;
    reached.add(decider);
  }
  for (const rule of reached) rule.reached++;
}

export interface Coverage {
  rules: CoveredRule[];
  reached: number;
  total: number;
  /** Percentage of rules some case reached; 100 when there are no rules. */
  percent: number;
}

/** Merges the suites' rule lists: a rule that several suites load counts once, with their cases added up. */
export function mergeCoverage(lists: readonly CoveredRule[][]): Coverage {
  const merged = new Map<string, CoveredRule>();
  for (const list of lists) {
    for (const r of list) {
      const key = ruleKey(r);
      const seen = merged.get(key);
      if (seen) {
        seen.decided += r.decided;
        seen.reached += r.reached;
      } else {
        merged.set(key, { ...r });
      }
    }
  }
  const rules = [...merged.values()];
  const reached = rules.filter((r) => r.reached > 0).length;
  const percent = rules.length === 0 ? 100 : Math.round((reached / rules.length) * 1000) / 10;
  return { rules, reached, total: rules.length, percent };
}
