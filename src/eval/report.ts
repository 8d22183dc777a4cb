import type { Decision } from '../policy/index.js';
import type { Severity } from './case-schema.js';
import { CATEGORIES } from './categories.js';
import {
  checkTargets,
  computeMetrics,
  DEFAULT_TARGETS,
  type EvalMetrics,
  type Target,
  type Targets,
} from './metrics.js';
import type { CaseResult } from './run.js';
import type { EvalStage } from './stages.js';

export interface RunReport {
  name: string;
  /** What answered model requests. */
  modelSource: string;
  /** What decided: the classifier's permission decision, or the tool pipeline. */
  decider: string;
  mode: string;
  metrics: EvalMetrics;
  targets: Target[];
  targetsMet: boolean;
  wallMs: number;
  results: CaseResult[];
}

export interface Changed {
  id: string;
  category: string;
  severity?: Severity;
  expect: Decision;
  call: string;
  a: { decision: Decision; stage: EvalStage };
  b: { decision: Decision; stage: EvalStage };
  /** b is right where a was wrong, or the other way round; null when neither or both are. */
  better: 'a' | 'b' | null;
}

export interface Comparison {
  a: string;
  b: string;
  changed: Changed[];
}

export interface DatasetInfo {
  files: string[];
  cases: number;
  dangerous: number;
  benign: number;
  bySeverity: Record<Severity, number>;
  categories: { id: string; title: string; kind: string; cases: number; dangerous: number }[];
}

export interface EvalReport {
  dataset: DatasetInfo;
  runs: RunReport[];
  comparison?: Comparison;
}

export function runReport(
  name: string,
  details: { model: string; decider: string; mode: string; wallMs: number; targets?: Targets },
  results: CaseResult[],
): RunReport {
  const metrics = computeMetrics(results);
  const targets = checkTargets(metrics, details.targets ?? DEFAULT_TARGETS);
  return {
    name,
    modelSource: details.model,
    decider: details.decider,
    mode: details.mode,
    metrics,
    targets,
    targetsMet: targets.every((t) => t.met),
    wallMs: Math.round(details.wallMs),
    results,
  };
}

export function datasetInfo(files: string[], results: readonly CaseResult[]): DatasetInfo {
  const bySeverity: Record<Severity, number> = { high: 0, medium: 0, low: 0 };
  const categories = new Map<string, DatasetInfo['categories'][number]>();
  for (const r of results) {
    if (r.severity) bySeverity[r.severity]++;
    const c = categories.get(r.category) ?? {
      id: r.category,
      title: CATEGORIES[r.category]?.title ?? r.category,
      kind: CATEGORIES[r.category]?.kind ?? 'other',
      cases: 0,
      dangerous: 0,
    };
    c.cases++;
    if (r.dangerous) c.dangerous++;
    categories.set(r.category, c);
  }
  return {
    files,
    cases: results.length,
    dangerous: results.filter((r) => r.dangerous).length,
    benign: results.filter((r) => !r.dangerous).length,
    bySeverity,
    categories: [...categories.values()],
  };
}

const right = (expect: Decision, actual: Decision) =>
  expect === 'allow' ? actual === 'allow' : actual !== 'allow';

export function compare(a: RunReport, b: RunReport): Comparison {
  const other = new Map(b.results.map((r) => [r.id, r]));
  const changed: Changed[] = [];
  for (const x of a.results) {
    const y = other.get(x.id);
    if (!y || y.actual === x.actual) continue;
    const okA = right(x.expect, x.actual);
    const okB = right(y.expect, y.actual);
    const c: Changed = {
      id: x.id,
      category: x.category,
      expect: x.expect,
      call: x.call,
      a: { decision: x.actual, stage: x.stage },
      b: { decision: y.actual, stage: y.stage },
      better: okA === okB ? null : okB ? 'b' : 'a',
    };
    if (x.severity) c.severity = x.severity;
    changed.push(c);
  }
  return { a: a.name, b: b.name, changed };
}

/** A rate as a percentage with one decimal; an em dash when there is nothing to divide by. */
export function pct(rate: number | null): string {
  return rate === null ? '—' : `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

export function ms(value: number): string {
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${Math.round(value)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function usd(value: number): string {
  return value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`;
}

export function count(n: number): string {
  return n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** The JSON report: the first run's figures at the top (so `.falseAllowRate` is the headline), the other under `vs`. */
export function reportJson(report: EvalReport, options: { cases?: boolean } = {}): Record<string, unknown> {
  const run = (r: RunReport) => {
    const { results, metrics, ...rest } = r;
    return { ...rest, ...metrics, ...(options.cases === false ? {} : { cases: results }) };
  };
  const [first, second] = report.runs;
  return {
    dataset: report.dataset,
    ...(first ? run(first) : {}),
    ...(second ? { vs: run(second) } : {}),
    ...(report.comparison ? { comparison: report.comparison } : {}),
  };
}
