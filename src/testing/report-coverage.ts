import type { Colors } from '../shared/index.js';
import type { Coverage, CoveredRule } from './coverage.js';
import { displayLocation } from './display.js';

/** Every rule with the cases it decided and reached, then the rules no case reached. */
export function renderCoverage(coverage: Coverage, cwd: string, c: Colors): string {
  const lines = [
    c.bold(`coverage  ${coverage.reached}/${coverage.total} rules reached (${coverage.percent}%)`),
  ];
  if (coverage.total === 0) return `${lines[0]}\n  the configurations add no rules to the shipped ones`;
  lines.push(c.dim('  decided  reached  rule'));
  for (const r of coverage.rules) {
    const counts = `${String(r.decided).padStart(9)}${String(r.reached).padStart(9)}`;
    lines.push(`${r.reached === 0 ? c.red(counts) : counts}  ${ruleLine(r, cwd, c)}`);
  }
  const missed = coverage.rules.filter((r) => r.reached === 0);
  if (missed.length > 0) {
    lines.push(c.bold(`not reached by any case (${missed.length})`));
    for (const r of missed) lines.push(`  ${ruleLine(r, cwd, c)}`);
  }
  return lines.join('\n');
}

function ruleLine(r: CoveredRule, cwd: string, c: Colors): string {
  const name =
    r.kind === 'pattern' ? `${r.label}: /${r.text}/` : r.kind === 'prose' ? `autoMode: ${r.label}` : r.text;
  const where = r.file ? displayLocation(r, cwd) : r.source;
  return `${r.behavior.padEnd(9)} ${name}  ${c.dim(where)}`;
}
