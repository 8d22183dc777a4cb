import type { DecidedBy, RuleRef } from '../policy/index.js';
import type { TestCall } from './call.js';
import type { CoveredRule } from './coverage.js';

export type Decision = 'allow' | 'ask' | 'deny';

export interface Located {
  file: string;
  line?: number;
  column?: number;
}

export type Status = 'passed' | 'failed' | 'skipped';

interface ResultBase extends Located {
  name: string;
  status: Status;
  /** Why the case failed or was skipped. */
  message?: string;
  durationMs: number;
}

/** What the rules decided for a case. */
export interface Actual {
  decision: Decision;
  by: DecidedBy;
  reason: string;
  rule?: RuleRef;
  /** A model-backed classifier decided. */
  model?: boolean;
  /** The label of the prose rule the model named. */
  modelRule?: string;
}

/** A test case: a call and the decision (and rule) expected. */
export interface DecisionResult extends ResultBase {
  kind: 'case';
  call: TestCall;
  expected: { decision: Decision; rule?: string };
  actual?: Actual;
}

/** One `examples.match` or `examples.not_match` entry of a pattern rule. */
export interface ExampleResult extends ResultBase {
  kind: 'example';
  rule: { pattern: string; label?: string };
  example: string;
  expected: 'match' | 'not_match';
}

export type CaseResult = DecisionResult | ExampleResult;

/** A problem that keeps a suite from running: its file, or the configuration it names. */
export interface Problem extends Partial<Located> {
  message: string;
}

export interface SuiteResult {
  file: string;
  name: string;
  /** The project folder the calls ran in. */
  project?: string;
  /** The settings and rule files read (shipped rules left out). */
  files: string[];
  problems: Problem[];
  warnings: Problem[];
  cases: CaseResult[];
  /** The suite's own rules (shipped rules left out), with the cases that reached them. */
  rules: CoveredRule[];
}

export interface Summary {
  passed: number;
  failed: number;
  skipped: number;
  /** Suites that could not run. */
  errors: number;
}

export function summarize(suites: readonly SuiteResult[]): Summary {
  const s: Summary = { passed: 0, failed: 0, skipped: 0, errors: 0 };
  for (const suite of suites) {
    if (suite.problems.length > 0) s.errors++;
    for (const c of suite.cases) s[c.status]++;
  }
  return s;
}

export function summaryLine(s: Summary): string {
  const errors = s.errors > 0 ? `, ${s.errors} ${s.errors === 1 ? 'error' : 'errors'}` : '';
  return `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${errors}`;
}
