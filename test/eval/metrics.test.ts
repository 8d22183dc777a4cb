import { describe, expect, it } from 'vitest';
import type { Severity } from '../../src/eval/case-schema.js';
import { checkTargets, computeMetrics, latencyOf } from '../../src/eval/metrics.js';
import type { CaseResult } from '../../src/eval/run.js';
import type { EvalStage } from '../../src/eval/stages.js';
import type { Decision } from '../../src/policy/verdict.js';

function result(
  id: string,
  category: string,
  expect: Decision,
  actual: Decision,
  extra: { severity?: Severity; stage?: EvalStage; latencyMs?: number; calls?: CaseResult['calls'] } = {},
): CaseResult {
  const r: CaseResult = {
    id,
    category,
    expect,
    dangerous: expect !== 'allow',
    tool: 'Bash',
    call: id,
    actual,
    stage: extra.stage ?? 'rule',
    by: 'rule',
    reason: '',
    calls: extra.calls ?? [],
    latencyMs: extra.latencyMs ?? 1,
  };
  if (extra.severity) r.severity = extra.severity;
  return r;
}

const usage = (input: number, cacheRead: number, costUsd: number) => ({
  model: 'claude-haiku-5-5',
  inputTokens: input,
  outputTokens: 10,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: 0,
  cacheWrite1hTokens: 0,
  costUsd,
  prefixHash: 'x',
});

describe('computeMetrics', () => {
  const results = [
    result('d1', 'exfiltration', 'deny', 'deny', { severity: 'high' }),
    result('d2', 'exfiltration', 'deny', 'allow', { severity: 'high', stage: 'read-only' }),
    result('d3', 'force-push', 'ask', 'ask', { severity: 'medium' }),
    result('d4', 'force-push', 'ask', 'deny', { severity: 'low', stage: 'model-2', latencyMs: 900 }),
    result('b1', 'read', 'allow', 'allow', { stage: 'read-only' }),
    result('b2', 'read', 'allow', 'ask', { stage: 'no-rule' }),
    result('b3', 'build-test', 'allow', 'allow', {
      stage: 'model-1',
      latencyMs: 400,
      calls: [{ stage: 1, ok: true, latencyMs: 400, waitedMs: 0, usage: usage(100, 1000, 0.001) }],
    }),
    result('b4', 'build-test', 'allow', 'deny', {
      stage: 'model-2',
      latencyMs: 800,
      calls: [
        { stage: 1, ok: true, latencyMs: 300, waitedMs: 0, usage: usage(100, 0, 0.002) },
        {
          stage: 2,
          ok: false,
          kind: 'malformed',
          failure: 'no recorded answer for this request',
          replayMiss: true,
          latencyMs: 0,
          waitedMs: 0,
        },
      ],
    }),
  ];
  const m = computeMetrics(results);

  it('counts the confusion matrix, false allows on dangerous cases and false asks on harmless ones', () => {
    expect(m.confusion).toEqual({
      allow: { allow: 2, ask: 1, deny: 1 },
      ask: { allow: 0, ask: 1, deny: 1 },
      deny: { allow: 1, ask: 0, deny: 1 },
    });
    expect([m.dangerous, m.benign, m.falseAllows, m.falseAsks]).toEqual([4, 4, 1, 2]);
    expect(m.falseAllowRate).toBe(0.25);
    expect(m.falseAskRate).toBe(0.5);
    expect(m.falseDenyRate).toBe(0.25);
    expect(m.agreement).toBe(4 / 8);
    expect(m.falseAllowList.map((x) => x.id)).toEqual(['d2']);
    expect(m.falseAskList.map((x) => x.id)).toEqual(['b2', 'b4']);
  });

  it('breaks the rates down by severity and category', () => {
    expect(m.bySeverity).toEqual({
      high: { dangerous: 2, falseAllows: 1, falseAllowRate: 0.5 },
      medium: { dangerous: 1, falseAllows: 0, falseAllowRate: 0 },
      low: { dangerous: 1, falseAllows: 0, falseAllowRate: 0 },
    });
    expect(m.byCategory.exfiltration).toMatchObject({
      kind: 'dangerous',
      falseAllowRate: 0.5,
      falseAskRate: null,
    });
    expect(m.byCategory.read).toMatchObject({ kind: 'benign', falseAllowRate: null, falseAskRate: 0.5 });
  });

  it('groups decisions and latencies by stage, and sums model calls, tokens, cost and cache reads', () => {
    expect(m.byStage['model-2']).toMatchObject({ decisions: 2, deny: 2, latency: { p50: 800, p95: 900 } });
    expect(m.byStage.rule?.decisions).toBe(2);
    expect(m.model).toMatchObject({
      cases: 2,
      calls: 3,
      failures: 1,
      replayMisses: 1,
      tokens: { input: 200, output: 20, cacheRead: 1000, cacheWrite: 0 },
      costUsd: 0.003,
      promptCacheHits: 1,
    });
    expect(m.model.stages['1']).toMatchObject({ calls: 2, latency: { p50: 300, p95: 400 } });
  });

  it('checks the targets; a rate with nothing to measure meets its target', () => {
    expect(checkTargets(m).map((t) => [t.name, t.met])).toEqual([
      ['falseAllowRate (high severity)', false],
      ['falseAllowRate', false],
      ['falseAskRate', false],
    ]);
    const clean = computeMetrics([result('b', 'read', 'allow', 'allow')]);
    expect(checkTargets(clean).every((t) => t.met)).toBe(true);
  });
});

describe('latencyOf', () => {
  it('gives nearest-rank percentiles', () => {
    const l = latencyOf(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(l).toEqual({ count: 100, p50: 50, p95: 95, max: 100, mean: 50.5 });
    expect(latencyOf([])).toEqual({ count: 0, p50: 0, p95: 0, max: 0, mean: 0 });
    expect(latencyOf([3]).p95).toBe(3);
  });
});
