import path from 'node:path';
import type { Verdict } from '../policy/index.js';
import type { Diagnostic } from '../rules/index.js';
import { type TestCall, toCall } from './call.js';
import { configurationOf, filesRead, loadConfiguration } from './configuration.js';
import { countVerdict, ownRules, ruleKey } from './coverage.js';
import { type Decide, decider } from './decide.js';
import { exampleResults } from './examples.js';
import type { ModelProvider } from './model.js';
import type { Actual, DecisionResult, Problem, SuiteResult } from './results.js';
import { readSuite, type Suite, type TestCase } from './suite.js';

export interface RunOptions {
  /** Decides the cases the rules leave to the model; without it they are skipped. */
  model?: ModelProvider;
  /** Rule files whose examples were checked already; their examples are checked once per set. */
  examplesChecked?: Set<string>;
}

/** Runs one test file: its pattern rule examples, then its cases. Problems are data, never thrown. */
export async function runTestFile(file: string, options: RunOptions = {}): Promise<SuiteResult> {
  const read = await readSuite(file);
  if ('problems' in read) return emptyResult(file, path.basename(file), read.problems);
  return runSuite(read.suite, options);
}

export async function runSuite(suite: Suite, options: RunOptions = {}): Promise<SuiteResult> {
  const folder = path.dirname(suite.file);
  const cwd = suite.cwd === undefined ? undefined : path.resolve(folder, suite.cwd);
  const resolved = await configurationOf(suite.settings, folder, cwd);
  if ('errors' in resolved) {
    return emptyResult(
      suite.file,
      suite.name,
      resolved.errors.map((message) => ({ file: suite.file, message: `settings: ${message}` })),
    );
  }
  const config = resolved.config;
  const settings = await loadConfiguration(config, suite.defaults);
  const result = emptyResult(suite.file, suite.name, []);
  result.project = cwd ?? config.project;
  result.files = filesRead(settings);
  for (const d of settings.diagnostics) {
    // Failing examples are reported as failed tests below, not as configuration errors.
    if (d.code === 'example-mismatch') continue;
    (d.severity === 'error' ? result.problems : result.warnings).push(problemOf(d));
  }
  if (result.problems.length > 0) return result;

  const refused = new Set(
    settings.diagnostics.flatMap((d) =>
      d.code === 'redos' || d.code === 'invalid-regex' ? [d.rule ?? ''] : [],
    ),
  );
  for (const ruleFile of config.ruleFiles) {
    if (options.examplesChecked?.has(ruleFile)) continue;
    options.examplesChecked?.add(ruleFile);
    result.cases.push(...(await exampleResults(ruleFile, refused)));
  }

  result.rules = ownRules(settings);
  const coverage = new Map(result.rules.map((r) => [ruleKey(r), r]));
  const decide = decider(settings, options.model);
  for (const testCase of suite.cases) {
    const outcome = await runCase(testCase, result.project, decide);
    if (outcome.verdict) countVerdict(coverage, outcome.verdict, result.rules);
    result.cases.push(outcome.result);
  }
  return result;
}

async function runCase(
  testCase: TestCase,
  project: string,
  decide: Decide,
): Promise<{ result: DecisionResult; verdict?: Verdict }> {
  const started = performance.now();
  const call = toCall(testCase.call, project);
  const base = {
    kind: 'case' as const,
    file: testCase.file,
    ...(testCase.line === undefined ? {} : { line: testCase.line, column: testCase.column ?? 1 }),
    name: testCase.name,
    expected: { decision: testCase.expect, ...(testCase.rule === undefined ? {} : { rule: testCase.rule }) },
  };
  const elapsed = () => performance.now() - started;
  if ('error' in call) {
    const empty: TestCall = { tool: testCase.call.tool ?? 'Bash', input: {} };
    return { result: { ...base, call: empty, status: 'failed', message: call.error, durationMs: elapsed() } };
  }
  const outcome = await decide(call);
  if ('skipped' in outcome) {
    return { result: { ...base, call, status: 'skipped', message: outcome.skipped, durationMs: elapsed() } };
  }
  const { verdict } = outcome;
  const actual: Actual = {
    decision: verdict.decision,
    by: verdict.by,
    reason: verdict.reason,
    ...(verdict.rule ? { rule: verdict.rule } : {}),
    ...(outcome.model ? { model: true } : {}),
    ...(verdict.model?.rule ? { modelRule: verdict.model.rule } : {}),
  };
  const failure = mismatch(testCase, actual);
  return {
    result: {
      ...base,
      call,
      status: failure ? 'failed' : 'passed',
      ...(failure ? { message: failure } : {}),
      actual,
      durationMs: elapsed(),
    },
    verdict,
  };
}

/** Why the verdict is not the one expected, or undefined when it is. */
export function mismatch(testCase: { expect: string; rule?: string }, actual: Actual): string | undefined {
  const by = actual.rule
    ? `by ${ruleName(actual.rule)}`
    : actual.modelRule
      ? `by the model, naming ${actual.modelRule}`
      : `(${actual.by}: ${actual.reason})`;
  if (actual.decision !== testCase.expect) return `expected ${testCase.expect}, got ${actual.decision} ${by}`;
  if (testCase.rule !== undefined && !namesRule(testCase.rule, actual)) {
    return `expected ${testCase.expect} by ${testCase.rule}, got ${actual.decision} ${by}`;
  }
  return undefined;
}

function ruleName(rule: { text: string; label?: string }): string {
  return rule.label ? `${rule.label} (${rule.text})` : rule.text;
}

/** Whether the deciding rule (or the prose rule the model named) has this text or label. */
export function namesRule(name: string, actual: Actual): boolean {
  const wanted = name.trim();
  if (actual.modelRule?.trim() === wanted) return true;
  return (
    actual.rule !== undefined && (actual.rule.text.trim() === wanted || actual.rule.label?.trim() === wanted)
  );
}

function problemOf(d: Diagnostic): Problem {
  const rule = d.rule === undefined ? '' : ` (${d.rule})`;
  return {
    ...(d.file === undefined ? {} : { file: d.file }),
    ...(d.line === undefined ? {} : { line: d.line, column: d.column ?? 1 }),
    message: `${d.code}: ${d.message}${rule}`,
  };
}

function emptyResult(file: string, name: string, problems: Problem[]): SuiteResult {
  return { file, name, files: [], problems, warnings: [], cases: [], rules: [] };
}
