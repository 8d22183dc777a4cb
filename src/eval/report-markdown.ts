import path from 'node:path';
import type { Decision } from '../policy/index.js';
import type { EvalMetrics, Miss } from './metrics.js';
import { type EvalReport, ms, pct, type RunReport, usd } from './report.js';
import { STAGE_TITLES, STAGES } from './stages.js';

const DECISIONS: Decision[] = ['allow', 'ask', 'deny'];

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function mdTable(head: string[], body: string[][], align: ('l' | 'r')[] = []): string[] {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `|${head.map((_, i) => (align[i] === 'r' ? ' ---: ' : ' --- ')).join('|')}|`,
    ...body.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
}

/** A bar of block characters, `width` long at `max`. */
function bar(value: number, max: number, width = 30): string {
  if (max <= 0 || value <= 0) return '';
  const n = (value / max) * width;
  const full = Math.floor(n);
  const parts = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
  return '█'.repeat(full) + (parts[Math.round((n - full) * 7)] ?? '');
}

function confusionChart(m: EvalMetrics): string[] {
  const lines = ['right \\ reached   allow                ask                  deny'];
  for (const e of DECISIONS) {
    const total = DECISIONS.reduce((s, a) => s + m.confusion[e][a], 0);
    const cells = DECISIONS.map((a) =>
      `${bar(m.confusion[e][a], total, 14)} ${m.confusion[e][a]}`.padEnd(21),
    );
    lines.push(`${e.padEnd(18)}${cells.join('')}`.trimEnd());
  }
  return lines;
}

function latencyChart(runs: readonly RunReport[]): string[] {
  const max = Math.max(...runs.flatMap((r) => Object.values(r.metrics.byStage).map((s) => s.latency.p95)), 0);
  const lines: string[] = [];
  for (const stage of STAGES) {
    for (const run of runs) {
      const s = run.metrics.byStage[stage];
      if (!s) continue;
      const label = `${STAGE_TITLES[stage].split(' (')[0]!}${runs.length > 1 ? ` [${run.name}]` : ''}`;
      lines.push(`${label.padEnd(34)} p50 ${ms(s.latency.p50).padStart(9)} ${bar(s.latency.p50, max)}`);
      lines.push(`${''.padEnd(34)} p95 ${ms(s.latency.p95).padStart(9)} ${bar(s.latency.p95, max)}`);
    }
  }
  return lines;
}

function missTable(list: readonly Miss[]): string[] {
  if (list.length === 0) return ['None.'];
  return mdTable(
    ['case', 'category', 'severity', 'reached', 'decided by', 'call'],
    list.map((x) => [
      x.id,
      x.category,
      x.severity ?? '',
      x.actual,
      STAGE_TITLES[x.stage].split(' (')[0]!,
      `\`${x.call}\``,
    ]),
  );
}

function runSection(run: RunReport): string[] {
  const m = run.metrics;
  const x = m.model;
  const est = x.estimated ? ' (estimated)' : '';
  return [
    `## ${run.name}`,
    '',
    `Mode \`${run.mode}\`, ${run.decider}. Model: ${run.modelSource}.`,
    '',
    ...mdTable(
      ['target', 'measured', 'limit', ''],
      run.targets.map((t) => [t.name, pct(t.value), `≤ ${pct(t.max)}`, t.met ? '✅ met' : '❌ missed']),
      ['l', 'r', 'r', 'l'],
    ),
    '',
    `**falseAllowRate** ${pct(m.falseAllowRate)} (${m.falseAllows} of ${m.dangerous} dangerous; high ${m.bySeverity.high.falseAllows}/${m.bySeverity.high.dangerous}, medium ${m.bySeverity.medium.falseAllows}/${m.bySeverity.medium.dangerous}, low ${m.bySeverity.low.falseAllows}/${m.bySeverity.low.dangerous}) · **falseAskRate** ${pct(m.falseAskRate)} (${m.falseAsks} of ${m.benign} harmless) · agreement ${pct(m.agreement)}`,
    '',
    '### Confusion matrix',
    '',
    ...mdTable(
      ['right \\ reached', ...DECISIONS],
      DECISIONS.map((e) => [e, ...DECISIONS.map((a) => String(m.confusion[e][a]))]),
      ['l', 'r', 'r', 'r'],
    ),
    '',
    '```text',
    ...confusionChart(m),
    '```',
    '',
    '### By category',
    '',
    ...mdTable(
      ['category', 'cases', 'dangerous', 'false allows', 'harmless', 'false asks'],
      Object.entries(m.byCategory).map(([id, c]) => [
        id,
        String(c.cases),
        String(c.dangerous),
        c.dangerous ? `${c.falseAllows} (${pct(c.falseAllowRate)})` : '',
        String(c.benign),
        c.benign ? `${c.falseAsks} (${pct(c.falseAskRate)})` : '',
      ]),
      ['l', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    '### Decisions by stage',
    '',
    ...mdTable(
      ['decided by', 'cases', 'allow', 'ask', 'deny', 'p50', 'p95'],
      STAGES.flatMap((s) => {
        const v = m.byStage[s];
        return v
          ? [
              [
                STAGE_TITLES[s],
                String(v.decisions),
                String(v.allow),
                String(v.ask),
                String(v.deny),
                ms(v.latency.p50),
                ms(v.latency.p95),
              ],
            ]
          : [];
      }),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
    `Model: ${x.calls} calls on ${x.cases} cases (stage 1: ${x.stages['1'].calls}, stage 2: ${x.stages['2'].calls}); ${x.tokens.input} input, ${x.tokens.output} output, ${x.tokens.cacheRead} cache-read tokens${est}; cost ${usd(x.costUsd)}${est}; ${x.verdictCacheHits} verdict cache hits; prompt cache read on ${x.promptCacheHits} of ${x.calls} calls; ${x.replayMisses} replay misses.`,
    '',
    `### False allows (${m.falseAllowList.length})`,
    '',
    ...missTable(m.falseAllowList),
    '',
    `### False asks (${m.falseAskList.length})`,
    '',
    ...missTable(m.falseAskList),
  ];
}

function comparisonSection(report: EvalReport): string[] {
  const c = report.comparison;
  const [a, b] = report.runs;
  if (!c || !a || !b) return [];
  const line = (label: string, f: (r: RunReport) => string) => [label, f(a), f(b)];
  return [
    `## ${a.name} vs ${b.name}`,
    '',
    ...mdTable(
      ['', a.name, b.name],
      [
        line('falseAllowRate', (r) => pct(r.metrics.falseAllowRate)),
        line('falseAllowRate, high severity', (r) => pct(r.metrics.bySeverity.high.falseAllowRate)),
        line('falseAskRate', (r) => pct(r.metrics.falseAskRate)),
        line('agreement', (r) => pct(r.metrics.agreement)),
        line('latency p50 / p95', (r) => `${ms(r.metrics.latency.p50)} / ${ms(r.metrics.latency.p95)}`),
        line('cost', (r) => usd(r.metrics.model.costUsd)),
      ],
      ['l', 'r', 'r'],
    ),
    '',
    `Decisions that differ: ${c.changed.length}.`,
    '',
    ...(c.changed.length
      ? mdTable(
          ['case', 'right', `${a.name} → ${b.name}`, 'call'],
          c.changed.map((x) => [x.id, x.expect, `${x.a.decision} → ${x.b.decision}`, `\`${x.call}\``]),
        )
      : []),
    '',
  ];
}

export function renderMarkdown(report: EvalReport, options: { cwd?: string } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const d = report.dataset;
  const files = d.files.map((f) => path.relative(cwd, f) || f).join(', ');
  const synthetic = report.runs.some((r) => r.modelSource.includes('synthetic'))
    ? [
        '> Model answers come from a **synthetic oracle recording** written from the case labels, not from a real model.',
        '',
      ]
    : [];
  return [
    '# automode eval',
    '',
    `${d.cases} cases from \`${files}\`: ${d.dangerous} dangerous (high ${d.bySeverity.high}, medium ${d.bySeverity.medium}, low ${d.bySeverity.low}), ${d.benign} harmless, ${d.categories.length} categories.`,
    '',
    ...synthetic,
    '### Latency by stage',
    '',
    '```text',
    ...latencyChart(report.runs),
    '```',
    '',
    ...comparisonSection(report),
    ...report.runs.flatMap((r) => [...runSection(r), '']),
  ].join('\n');
}
