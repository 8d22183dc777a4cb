import type { PartVerdict, RuleRef, Verdict } from '../classifier/verdict.js';
import type { Colors } from './output.js';

export function decisionColor(c: Colors, decision: string): string {
  if (decision === 'allow') return c.green(c.bold('allow'));
  if (decision === 'deny') return c.red(c.bold('deny'));
  return c.yellow(c.bold(decision));
}

export function ruleLocation(rule: RuleRef): string {
  const where = rule.file
    ? `${rule.file}${rule.line ? `:${rule.line}:${rule.column ?? 1}` : ''}`
    : rule.source;
  return `${rule.label ? `${rule.label}: ` : ''}${rule.text}  ${where}${rule.file ? ` (${rule.source})` : ''}`;
}

export function partLine(p: PartVerdict, c: Colors): string {
  const rule = p.rule ? c.dim(`  ← ${ruleLocation(p.rule)}`) : '';
  const text = p.reason.includes(p.subject) ? p.reason : `${p.subject}: ${p.reason}`;
  return `${decisionColor(c, p.decision)} ${text}${rule}`;
}

export function renderVerdict(v: Verdict, c: Colors): string {
  const lines = [`${decisionColor(c, v.decision)}  ${v.reason}`];
  if (v.rule) lines.push(`rule     ${ruleLocation(v.rule)}`);
  lines.push(c.dim(`tool ${v.tool}, mode ${v.mode}, decided by ${v.by}`));
  if (v.parts.length > 1) {
    lines.push('parts');
    for (const p of v.parts) lines.push(`  ${partLine(p, c)}`);
  }
  return lines.join('\n');
}

/** The verdict as JSON: the analysis is left to `explain`. */
export function verdictJson(v: Verdict & { analysis?: unknown }): Record<string, unknown> {
  const { analysis: _analysis, ...rest } = v;
  return rest;
}
