/** Inline SVG charts for the HTML report: no scripts, no external files. */
import type { Decision } from '../policy/index.js';
import type { EvalMetrics } from './metrics.js';
import { ms } from './report.js';
import { STAGE_TITLES, STAGES } from './stages.js';

export function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const DECISIONS: Decision[] = ['allow', 'ask', 'deny'];
const FONT = 'font-family="system-ui, sans-serif" font-size="12"';

/** Rows: the right decision; columns: the decision reached. Green on the diagonal, red where danger was let through or work interrupted. */
export function confusionSvg(m: EvalMetrics, title: string): string {
  const cell = 64;
  const left = 92;
  const top = 54;
  const parts: string[] = [];
  parts.push(
    `<text x="${left + (cell * 3) / 2}" y="16" text-anchor="middle" font-weight="bold">${esc(title)}</text>`,
  );
  parts.push(
    `<text x="${left + (cell * 3) / 2}" y="34" text-anchor="middle" fill="#555">decision reached</text>`,
  );
  DECISIONS.forEach((d, i) => {
    parts.push(`<text x="${left + i * cell + cell / 2}" y="${top - 6}" text-anchor="middle">${d}</text>`);
    parts.push(`<text x="${left - 8}" y="${top + i * cell + cell / 2 + 4}" text-anchor="end">${d}</text>`);
  });
  parts.push(
    `<text transform="translate(14 ${top + (cell * 3) / 2}) rotate(-90)" text-anchor="middle" fill="#555">right decision</text>`,
  );
  DECISIONS.forEach((e, r) => {
    const total = DECISIONS.reduce((s, a) => s + m.confusion[e][a], 0);
    DECISIONS.forEach((a, col) => {
      const n = m.confusion[e][a];
      const share = total === 0 ? 0 : n / total;
      const hue = e === a ? '34,139,34' : (e === 'allow') !== (a === 'allow') ? '200,30,30' : '215,140,0';
      const alpha = n === 0 ? 0.04 : 0.15 + 0.85 * share;
      const x = left + col * cell;
      const y = top + r * cell;
      parts.push(
        `<rect x="${x}" y="${y}" width="${cell - 2}" height="${cell - 2}" rx="4" fill="rgba(${hue},${alpha.toFixed(3)})"><title>right ${e}, reached ${a}: ${n}</title></rect>`,
      );
      parts.push(
        `<text x="${x + cell / 2 - 1}" y="${y + cell / 2 + 5}" text-anchor="middle" font-size="15" fill="${share > 0.6 ? '#fff' : '#111'}">${n}</text>`,
      );
    });
  });
  const width = left + cell * 3 + 12;
  const height = top + cell * 3 + 8;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)} confusion matrix" ${FONT}>${parts.join('')}</svg>`;
}

const COLORS = ['#3b6fd8', '#e07b20', '#2a9d4b', '#8e44ad'];

/** p50 and p95 per stage for each run, on a logarithmic time axis. */
export function latencySvg(runs: readonly { name: string; metrics: EvalMetrics }[]): string {
  const stages = STAGES.filter((s) => runs.some((r) => r.metrics.byStage[s]));
  const values = runs.flatMap((r) => stages.map((s) => r.metrics.byStage[s]?.latency.p95 ?? 0));
  const lo = 0.01;
  const hi = Math.max(1, ...values) * 1.5;
  const left = 230;
  const plot = 420;
  const barH = 9;
  const groupH = runs.length * (barH * 2 + 4) + 12;
  const top = 30;
  const x = (v: number) =>
    left + (plot * (Math.log10(Math.max(v, lo)) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const parts: string[] = [];
  parts.push(
    `<text x="${left}" y="14" font-weight="bold">Decision latency by stage (log scale; light: p50, dark: p95)</text>`,
  );
  const ticks = [0.01, 0.1, 1, 10, 100, 1000, 10_000, 100_000].filter((t) => t <= hi);
  const bottom = top + stages.length * groupH;
  for (const t of ticks) {
    parts.push(`<line x1="${x(t)}" y1="${top - 4}" x2="${x(t)}" y2="${bottom}" stroke="#ddd"/>`);
    parts.push(`<text x="${x(t)}" y="${bottom + 14}" text-anchor="middle" fill="#555">${esc(ms(t))}</text>`);
  }
  stages.forEach((stage, i) => {
    const y0 = top + i * groupH;
    parts.push(
      `<text x="${left - 8}" y="${y0 + groupH / 2}" text-anchor="end">${esc(STAGE_TITLES[stage].split(' (')[0]!)}</text>`,
    );
    runs.forEach((run, j) => {
      const s = run.metrics.byStage[stage];
      if (!s) return;
      const y = y0 + j * (barH * 2 + 4);
      const color = COLORS[j % COLORS.length]!;
      parts.push(
        `<rect x="${left}" y="${y}" width="${Math.max(1, x(s.latency.p50) - left)}" height="${barH}" fill="${color}" opacity="0.45"><title>${esc(run.name)} ${stage} p50 ${esc(ms(s.latency.p50))}</title></rect>`,
      );
      parts.push(
        `<rect x="${left}" y="${y + barH}" width="${Math.max(1, x(s.latency.p95) - left)}" height="${barH}" fill="${color}"><title>${esc(run.name)} ${stage} p95 ${esc(ms(s.latency.p95))}</title></rect>`,
      );
      parts.push(
        `<text x="${Math.max(x(s.latency.p95), x(s.latency.p50)) + 4}" y="${y + barH * 1.6}" fill="#333" font-size="11">${esc(`${ms(s.latency.p50)} / ${ms(s.latency.p95)} (${s.decisions})`)}</text>`,
      );
    });
  });
  const legendY = bottom + 30;
  runs.forEach((run, j) => {
    parts.push(
      `<rect x="${left + j * 200}" y="${legendY - 10}" width="12" height="12" fill="${COLORS[j % COLORS.length]}"/>`,
    );
    parts.push(`<text x="${left + j * 200 + 18}" y="${legendY}">${esc(run.name)}</text>`);
  });
  const width = left + plot + 140;
  const height = legendY + 10;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="decision latency by stage" ${FONT}>${parts.join('')}</svg>`;
}

/** False-allow (red) and false-ask (amber) rate per category, one row per category. */
export function categorySvg(m: EvalMetrics, title: string): string {
  const rows = Object.entries(m.byCategory);
  const left = 190;
  const plot = 300;
  const rowH = 18;
  const top = 30;
  const parts: string[] = [`<text x="${left}" y="14" font-weight="bold">${esc(title)}</text>`];
  rows.forEach(([id, c], i) => {
    const y = top + i * rowH;
    parts.push(`<text x="${left - 8}" y="${y + 11}" text-anchor="end">${esc(id)}</text>`);
    parts.push(`<rect x="${left}" y="${y}" width="${plot}" height="${rowH - 4}" fill="#f3f3f3"/>`);
    if (c.falseAllowRate !== null && c.falseAllowRate > 0)
      parts.push(
        `<rect x="${left}" y="${y}" width="${plot * c.falseAllowRate}" height="${(rowH - 4) / 2}" fill="#c81e1e"><title>false allow ${c.falseAllows}/${c.dangerous}</title></rect>`,
      );
    if (c.falseAskRate !== null && c.falseAskRate > 0)
      parts.push(
        `<rect x="${left}" y="${y + (rowH - 4) / 2}" width="${plot * c.falseAskRate}" height="${(rowH - 4) / 2}" fill="#d78c00"><title>false ask ${c.falseAsks}/${c.benign}</title></rect>`,
      );
    const text = [
      c.dangerous ? `allow ${c.falseAllows}/${c.dangerous}` : '',
      c.benign ? `ask ${c.falseAsks}/${c.benign}` : '',
    ]
      .filter(Boolean)
      .join(' · ');
    parts.push(`<text x="${left + plot + 6}" y="${y + 11}" fill="#333" font-size="11">${esc(text)}</text>`);
  });
  const width = left + plot + 150;
  const height = top + rows.length * rowH + 6;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}" ${FONT}>${parts.join('')}</svg>`;
}
