import path from 'node:path';
import { categorySvg, confusionSvg, esc, latencySvg } from './charts.js';
import type { Miss } from './metrics.js';
import { type EvalReport, ms, pct, type RunReport, usd } from './report.js';
import { STAGE_TITLES, STAGES } from './stages.js';

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#111}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}h3{font-size:1rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child{text-align:left}code{font-size:12px;background:#f5f5f5;padding:0 .2rem}
.ok{color:#1a7f37}.bad{color:#c81e1e}.note{color:#555}.charts{display:flex;flex-wrap:wrap;gap:2rem;align-items:flex-start}
.warn{background:#fff8e1;border-left:4px solid #d78c00;padding:.5rem 1rem}`;

function rows(cells: string[][], head: string[]): string {
  const th = `<tr>${head.map((h) => `<th>${h}</th>`).join('')}</tr>`;
  return `<table>${th}${cells.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</table>`;
}

function misses(list: readonly Miss[]): string {
  if (list.length === 0) return '<p>None.</p>';
  return rows(
    list.map((x) => [
      esc(x.id),
      esc(x.category),
      esc(x.severity ?? ''),
      esc(x.actual),
      esc(STAGE_TITLES[x.stage]),
      `<code>${esc(x.call)}</code>`,
      esc(x.reason),
    ]),
    ['case', 'category', 'severity', 'reached', 'decided by', 'call', 'reason'],
  );
}

function runSection(run: RunReport): string {
  const m = run.metrics;
  const targets = rows(
    run.targets.map((t) => [
      esc(t.name),
      pct(t.value),
      `≤ ${pct(t.max)}`,
      t.met ? '<span class="ok">met</span>' : '<span class="bad">missed</span>',
    ]),
    ['target', 'measured', 'limit', ''],
  );
  const severity = rows(
    (['high', 'medium', 'low'] as const).map((s) => [
      s,
      String(m.bySeverity[s].dangerous),
      String(m.bySeverity[s].falseAllows),
      pct(m.bySeverity[s].falseAllowRate),
    ]),
    ['severity', 'dangerous', 'false allows', 'falseAllowRate'],
  );
  const categories = rows(
    Object.entries(m.byCategory).map(([id, c]) => [
      `${esc(id)} <span class="note">${esc(c.title)}</span>`,
      String(c.cases),
      String(c.dangerous),
      c.dangerous ? `${c.falseAllows} (${pct(c.falseAllowRate)})` : '',
      String(c.benign),
      c.benign ? `${c.falseAsks} (${pct(c.falseAskRate)})` : '',
    ]),
    ['category', 'cases', 'dangerous', 'false allows', 'harmless', 'false asks'],
  );
  const stages = rows(
    STAGES.flatMap((s) => {
      const x = m.byStage[s];
      return x
        ? [
            [
              esc(STAGE_TITLES[s]),
              String(x.decisions),
              String(x.allow),
              String(x.ask),
              String(x.deny),
              ms(x.latency.p50),
              ms(x.latency.p95),
            ],
          ]
        : [];
    }),
    ['decided by', 'cases', 'allow', 'ask', 'deny', 'p50', 'p95'],
  );
  const x = m.model;
  const est = x.estimated ? ' (estimated by the synthetic recording)' : '';
  const model = rows(
    [
      [
        'calls',
        `${x.calls} on ${x.cases} cases (stage 1: ${x.stages['1'].calls}, stage 2: ${x.stages['2'].calls})`,
      ],
      ['failures, replay misses', `${x.failures}, ${x.replayMisses}`],
      [
        'tokens',
        `${x.tokens.input} in, ${x.tokens.output} out, ${x.tokens.cacheRead} cache read, ${x.tokens.cacheWrite} cache write${est}`,
      ],
      ['cost', `${usd(x.costUsd)}${est}`],
      ['latency stage 1 (p50 / p95)', `${ms(x.stages['1'].latency.p50)} / ${ms(x.stages['1'].latency.p95)}`],
      ['latency stage 2 (p50 / p95)', `${ms(x.stages['2'].latency.p50)} / ${ms(x.stages['2'].latency.p95)}`],
      ['verdict cache hits', String(x.verdictCacheHits)],
      ['prompt cache reads', `${x.promptCacheHits} of ${x.calls} calls`],
    ],
    ['model', ''],
  );
  return `<h2>${esc(run.name)}</h2>
<p>Mode <code>${esc(run.mode)}</code>, ${esc(run.decider)}. Model: ${esc(run.modelSource)}. Ran in ${ms(run.wallMs)}.</p>
${targets}
<p><b>falseAllowRate</b> ${pct(m.falseAllowRate)} (${m.falseAllows} of ${m.dangerous} dangerous) · <b>falseAskRate</b> ${pct(m.falseAskRate)} (${m.falseAsks} of ${m.benign} harmless) · agreement ${pct(m.agreement)}</p>
<div class="charts">${confusionSvg(m, run.name)}${categorySvg(m, 'False allows (red) and false asks (amber) by category')}</div>
<h3>False allows by severity</h3>${severity}
<h3>By category</h3>${categories}
<h3>Decisions by stage</h3>${stages}
<h3>Model</h3>${model}
<h3>False allows (${m.falseAllowList.length})</h3>${misses(m.falseAllowList)}
<h3>False asks (${m.falseAskList.length})</h3>${misses(m.falseAskList)}`;
}

function comparisonSection(report: EvalReport): string {
  const c = report.comparison;
  const [a, b] = report.runs;
  if (!c || !a || !b) return '';
  const line = (label: string, f: (r: RunReport) => string) => [label, f(a), f(b)];
  const summary = rows(
    [
      line('falseAllowRate', (r) => pct(r.metrics.falseAllowRate)),
      line('falseAllowRate, high severity', (r) => pct(r.metrics.bySeverity.high.falseAllowRate)),
      line('falseAskRate', (r) => pct(r.metrics.falseAskRate)),
      line('agreement', (r) => pct(r.metrics.agreement)),
      line('latency p50 / p95', (r) => `${ms(r.metrics.latency.p50)} / ${ms(r.metrics.latency.p95)}`),
      line('model calls', (r) => String(r.metrics.model.calls)),
      line('cost', (r) => usd(r.metrics.model.costUsd)),
    ],
    ['', esc(a.name), esc(b.name)],
  );
  const changed = rows(
    c.changed.map((x) => [
      esc(x.id),
      esc(x.expect),
      `${esc(x.a.decision)} → ${esc(x.b.decision)}`,
      x.better
        ? `<span class="${x.better === 'b' ? 'ok' : 'bad'}">${esc((x.better === 'a' ? a : b).name)}</span>`
        : '',
      `<code>${esc(x.call)}</code>`,
    ]),
    ['case', 'right', esc(`${a.name} → ${b.name}`), 'right one', 'call'],
  );
  return `<h2>${esc(a.name)} vs ${esc(b.name)}</h2>${summary}<h3>Decisions that differ (${c.changed.length})</h3>${changed}`;
}

/** A self-contained HTML page: inline CSS and SVG, no scripts. */
export function renderHtml(report: EvalReport, options: { cwd?: string; generatedAt?: Date } = {}): string {
  const cwd = options.cwd ?? process.cwd();
  const d = report.dataset;
  const files = d.files.map((f) => path.relative(cwd, f) || f).join(', ');
  const synthetic = report.runs.some((r) => r.modelSource.includes('synthetic'))
    ? '<p class="warn">Model answers come from a <b>synthetic oracle recording</b> written from the case labels: they show what the deterministic layer and the plumbing do around a careful model, not how good a real model is. Run with <code>--record FILE</code> and a real model to measure one.</p>'
    : '';
  const when = options.generatedAt ? ` · ${esc(options.generatedAt.toISOString())}` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>automode eval</title><style>${STYLE}</style></head><body>
<h1>automode eval</h1>
<p>${d.cases} cases from <code>${esc(files)}</code>: ${d.dangerous} dangerous (high ${d.bySeverity.high}, medium ${d.bySeverity.medium}, low ${d.bySeverity.low}), ${d.benign} harmless, ${d.categories.length} categories${when}.</p>
${synthetic}
<div class="charts">${latencySvg(report.runs)}</div>
${comparisonSection(report)}
${report.runs.map(runSection).join('\n')}
</body></html>
`;
}
