import path from 'node:path';
import type { Decision } from '../policy/index.js';
import type { Colors } from '../shared/index.js';
import type { EvalMetrics, Miss } from './metrics.js';
import { count, type EvalReport, ms, pct, type RunReport, usd } from './report.js';
import { STAGE_TITLES, STAGES } from './stages.js';
import { table } from './table.js';

const DECISIONS: Decision[] = ['allow', 'ask', 'deny'];

function relative(file: string, cwd: string): string {
  const r = path.relative(cwd, file);
  return r && !r.startsWith('..') ? r : file;
}

function header(report: EvalReport, cwd: string): string[] {
  const d = report.dataset;
  const files = d.files.map((f) => relative(f, cwd)).join(', ');
  const s = d.bySeverity;
  return [
    `automode eval: ${d.cases} cases from ${files}`,
    `  ${d.dangerous} dangerous (high ${s.high}, medium ${s.medium}, low ${s.low}), ${d.benign} harmless, ${d.categories.length} categories`,
  ];
}

function runLines(run: RunReport, cwd: string): string[] {
  return [
    `configuration  ${run.name} · mode ${run.mode} · ${run.decider}`,
    `model          ${run.modelSource.replace(/(\/[^ ]+)/g, (p) => relative(p, cwd))}`,
  ];
}

function targetLines(run: RunReport, c: Colors): string[] {
  const rows = run.targets.map((t) => [
    t.met ? c.green('✓') : c.red('✗'),
    t.name,
    pct(t.value),
    `≤ ${pct(t.max)}`,
  ]);
  return ['targets', ...table(rows, ['l', 'l', 'r', 'r']).map((l) => `  ${l}`)];
}

function confusionLines(m: EvalMetrics, c: Colors): string[] {
  const rows: string[][] = [['', '', ...DECISIONS.map((d) => c.dim(d))]];
  for (const e of DECISIONS) {
    const total = DECISIONS.reduce((s, a) => s + m.confusion[e][a], 0);
    rows.push([
      e,
      `(${total})`,
      ...DECISIONS.map((a) => {
        const n = String(m.confusion[e][a]);
        if (e === a) return c.green(n);
        return (e !== 'allow' && a === 'allow') || (e === 'allow' && a !== 'allow') ? c.red(n) : c.yellow(n);
      }),
    ]);
  }
  return [
    'confusion (rows: the right decision; columns: the decision reached)',
    ...table(rows, ['l', 'r', 'r', 'r', 'r']).map((l) => `  ${l}`),
    `  agreement ${pct(m.agreement)}`,
  ];
}

function rateLines(m: EvalMetrics): string[] {
  const sev = (['high', 'medium', 'low'] as const)
    .map(
      (s) =>
        `${s} ${m.bySeverity[s].falseAllows}/${m.bySeverity[s].dangerous} (${pct(m.bySeverity[s].falseAllowRate)})`,
    )
    .join('   ');
  return [
    `false-allow rate  ${pct(m.falseAllowRate)} (${m.falseAllows}/${m.dangerous} dangerous)   ${sev}`,
    `false-ask rate    ${pct(m.falseAskRate)} (${m.falseAsks}/${m.benign} harmless; denied outright ${pct(m.falseDenyRate)})`,
  ];
}

function categoryLines(m: EvalMetrics): string[] {
  const rows: string[][] = [['by category', 'cases', 'dangerous', 'false allow', 'harmless', 'false ask']];
  const ordered = Object.entries(m.byCategory).sort(([, a], [, b]) => kindOrder(a.kind) - kindOrder(b.kind));
  for (const [id, x] of ordered) {
    rows.push([
      `  ${id}`,
      String(x.cases),
      String(x.dangerous),
      x.dangerous ? `${x.falseAllows} (${pct(x.falseAllowRate)})` : '',
      String(x.benign),
      x.benign ? `${x.falseAsks} (${pct(x.falseAskRate)})` : '',
    ]);
  }
  return table(rows, ['l', 'r', 'r', 'r', 'r', 'r']);
}

function kindOrder(kind: string): number {
  return ['dangerous', 'bypass', 'benign', 'other'].indexOf(kind);
}

function stageLines(m: EvalMetrics): string[] {
  const rows: string[][] = [['decided by', 'cases', 'allow', 'ask', 'deny', 'p50', 'p95']];
  for (const stage of STAGES) {
    const s = m.byStage[stage];
    if (!s) continue;
    rows.push([
      `  ${STAGE_TITLES[stage]}`,
      String(s.decisions),
      String(s.allow),
      String(s.ask),
      String(s.deny),
      ms(s.latency.p50),
      ms(s.latency.p95),
    ]);
  }
  rows.push(['  all', String(m.cases), '', '', '', ms(m.latency.p50), ms(m.latency.p95)]);
  return table(rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r']);
}

function modelLines(m: EvalMetrics): string[] {
  const x = m.model;
  if (x.calls === 0 && x.verdictCacheHits === 0) return ['model          not asked'];
  const est = x.estimated ? ' (estimated)' : '';
  const s1 = x.stages['1'];
  const s2 = x.stages['2'];
  const lines = [
    `model          ${x.calls} calls on ${x.cases} cases (stage 1: ${s1.calls}, stage 2: ${s2.calls}), ${x.failures} failed, ${x.replayMisses} replay misses`,
    `  tokens       ${count(x.tokens.input)} in, ${count(x.tokens.output)} out, ${count(x.tokens.cacheRead)} cache read, ${count(x.tokens.cacheWrite)} cache write${est}; cost ${usd(x.costUsd)}${est}`,
    `  latency      stage 1 p50 ${ms(s1.latency.p50)}, p95 ${ms(s1.latency.p95)}; stage 2 p50 ${ms(s2.latency.p50)}, p95 ${ms(s2.latency.p95)} (as the calls report it)`,
    `  cache        ${x.verdictCacheHits} verdict cache hits; prompt cache read on ${x.promptCacheHits} of ${x.calls} calls`,
  ];
  if (x.deferred > 0) lines.push(`  batch        ${x.deferred} requests still waiting for a batch`);
  return lines;
}

function missLines(title: string, misses: readonly Miss[], c: Colors, limit: number): string[] {
  if (misses.length === 0) return [`${title} (0)`];
  const rows = misses
    .slice(0, limit)
    .map((x) => [
      `  ${x.id}`,
      x.severity ?? '',
      x.actual,
      STAGE_TITLES[x.stage].split(' (')[0]!,
      x.call.length > 90 ? `${x.call.slice(0, 89)}…` : x.call,
    ]);
  const more =
    misses.length > limit ? [c.dim(`  … ${misses.length - limit} more (--verbose lists all)`)] : [];
  return [`${title} (${misses.length})`, ...table(rows), ...more];
}

export function renderRun(run: RunReport, c: Colors, cwd: string, verbose: boolean): string[] {
  const m = run.metrics;
  const lines = [
    ...runLines(run, cwd),
    '',
    ...targetLines(run, c),
    '',
    ...confusionLines(m, c),
    '',
    ...rateLines(m),
    '',
    ...categoryLines(m),
    '',
    ...stageLines(m),
    '',
    ...modelLines(m),
  ];
  if (m.execution) {
    const kinds = Object.entries(m.execution.byKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    lines.push(
      `executed       ${m.execution.runs} allowed calls: ${m.execution.ok} ran, ${m.execution.failed} failed${kinds ? ` (${kinds})` : ''}`,
    );
  }
  if (m.errors > 0) lines.push(c.red(`${m.errors} cases could not be decided (counted as ask)`));
  lines.push('', ...missLines(c.bold('false allows'), m.falseAllowList, c, Number.POSITIVE_INFINITY));
  lines.push(...missLines(c.bold('false asks'), m.falseAskList, c, verbose ? Number.POSITIVE_INFINITY : 15));
  return lines;
}

function comparisonLines(report: EvalReport, c: Colors, cwd: string, verbose: boolean): string[] {
  const [a, b] = report.runs;
  if (!a || !b || !report.comparison) return [];
  const row = (label: string, f: (r: RunReport) => string) => [label, f(a), f(b)];
  const rows = [
    ['', c.bold(a.name), c.bold(b.name)],
    ...(a.modelSource === b.modelSource
      ? []
      : [row('model', (r) => r.modelSource.split(' (')[0]!.replace(/(\/[^ ]+)/g, (p) => relative(p, cwd)))]),
    row('falseAllowRate', (r) => `${pct(r.metrics.falseAllowRate)} (${r.metrics.falseAllows})`),
    row('falseAllowRate, high', (r) => pct(r.metrics.bySeverity.high.falseAllowRate)),
    row('falseAskRate', (r) => `${pct(r.metrics.falseAskRate)} (${r.metrics.falseAsks})`),
    row('agreement', (r) => pct(r.metrics.agreement)),
    row('latency p50 / p95', (r) => `${ms(r.metrics.latency.p50)} / ${ms(r.metrics.latency.p95)}`),
    row('model calls', (r) => String(r.metrics.model.calls)),
    row('cost', (r) => usd(r.metrics.model.costUsd)),
    row('targets', (r) => (r.targetsMet ? c.green('met') : c.red('missed'))),
  ];
  const cats = new Set([...Object.keys(a.metrics.byCategory), ...Object.keys(b.metrics.byCategory)]);
  const catRows: string[][] = [['by category', 'false allow', '', 'false ask', '']];
  for (const id of cats) {
    const x = a.metrics.byCategory[id];
    const y = b.metrics.byCategory[id];
    const fa = (m: typeof x) => (m?.dangerous ? pct(m.falseAllowRate) : '');
    const fk = (m: typeof x) => (m?.benign ? pct(m.falseAskRate) : '');
    if (fa(x) === fa(y) && fk(x) === fk(y) && !verbose) continue;
    catRows.push([`  ${id}`, fa(x), fa(y), fk(x), fk(y)]);
  }
  const changed = report.comparison.changed;
  const changedRows = changed.map((x) => [
    `  ${x.id}`,
    `right: ${x.expect}`,
    `${x.a.decision} → ${x.b.decision}`,
    x.better === 'b' ? c.green(`${b.name} right`) : x.better === 'a' ? c.red(`${a.name} right`) : '',
    x.call.length > 70 ? `${x.call.slice(0, 69)}…` : x.call,
  ]);
  return [
    c.bold(`${a.name} vs ${b.name}`),
    ...table(rows, ['l', 'r', 'r']).map((l) => `  ${l}`),
    '',
    ...(catRows.length > 1 ? [...table(catRows, ['l', 'r', 'r', 'r', 'r']), ''] : []),
    `decisions that differ (${changed.length})`,
    ...table(changedRows),
  ];
}

export function renderText(
  report: EvalReport,
  options: { colors: Colors; cwd?: string; verbose?: boolean },
): string {
  const cwd = options.cwd ?? process.cwd();
  const c = options.colors;
  const lines = [...header(report, cwd)];
  for (const run of report.runs) {
    lines.push('', c.bold(`── ${run.name} ${'─'.repeat(Math.max(0, 70 - run.name.length))}`));
    lines.push(...renderRun(run, c, cwd, options.verbose === true));
  }
  if (report.comparison) lines.push('', ...comparisonLines(report, c, cwd, options.verbose === true));
  return lines.join('\n');
}
