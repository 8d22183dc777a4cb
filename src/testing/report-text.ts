import path from 'node:path';
import type { Colors } from '../shared/index.js';
import { describeCall } from './call.js';
import { describeRule, displayLocation, displayPath } from './display.js';
import type { CaseResult, DecisionResult, SuiteResult } from './results.js';
import { summarize, summaryLine } from './results.js';

export interface TextOptions {
  cwd: string;
  colors: Colors;
  /** List passed cases too. */
  verbose?: boolean;
}

/** A block per suite: its tally, then a diff for each failure, the reason for each skip and every problem. */
export function renderText(suites: readonly SuiteResult[], o: TextOptions): string {
  const c = o.colors;
  const lines: string[] = [];
  for (const suite of suites) {
    const s = summarize([suite]);
    const tally = suite.problems.length > 0 ? c.red('could not run') : summaryLine(s);
    const name = suite.name === path.basename(suite.file) ? '' : `  ${c.dim(suite.name)}`;
    lines.push(`${c.bold(displayPath(suite.file, o.cwd))}${name}  ${tally}`);
    for (const p of suite.problems) {
      const where = displayLocation(p, o.cwd);
      lines.push(`  ${c.red(c.bold('ERROR'))} ${where ? `${where}  ` : ''}${p.message}`);
    }
    for (const w of suite.warnings) {
      const where = displayLocation(w, o.cwd);
      lines.push(`  ${c.yellow('warning')} ${where ? `${where}  ` : ''}${w.message}`);
    }
    for (const r of suite.cases) {
      if (r.status === 'passed' && !o.verbose) continue;
      lines.push(...renderCase(r, o));
    }
  }
  const total = summarize(suites);
  const line = summaryLine(total);
  lines.push('', total.failed > 0 || total.errors > 0 ? c.red(line) : c.green(line));
  return lines.join('\n');
}

function renderCase(r: CaseResult, o: TextOptions): string[] {
  const c = o.colors;
  const tag = { passed: c.green('PASS'), failed: c.red(c.bold('FAIL')), skipped: c.yellow('SKIP') }[r.status];
  const lines = [`  ${tag}  ${c.dim(displayLocation(r, o.cwd))}  ${r.name}`];
  const indent = '        ';
  if (r.status === 'passed') return lines;
  if (r.kind === 'example') {
    lines.push(`${indent}${r.message ?? ''}`);
    return lines;
  }
  lines.push(
    `${indent}call      ${r.call.tool}: ${describeCall(r.call)}${r.call.mode ? `  (mode ${r.call.mode})` : ''}`,
  );
  if (r.status === 'skipped' || !r.actual) {
    lines.push(`${indent}${r.message ?? ''}`);
    return lines;
  }
  lines.push(...decisionDiff(r, o));
  return lines;
}

function decisionDiff(r: DecisionResult, o: TextOptions): string[] {
  const c = o.colors;
  const actual = r.actual!;
  const expected = `${r.expected.decision}${r.expected.rule ? ` by ${r.expected.rule}` : ''}`;
  const decided = actual.rule ? `by ${describeRule(actual.rule, o.cwd)}` : `(${actual.by})`;
  return [
    c.green(`      - expected  ${expected}`),
    c.red(`      + actual    ${actual.decision} ${decided}${actual.model ? ' [model]' : ''}`),
    `        reason    ${actual.reason}`,
  ];
}
