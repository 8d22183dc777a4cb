import type { ModelInfo } from '../classifier/index.js';
import type { PartVerdict, RuleRef, Verdict } from '../policy/index.js';
import type { Colors } from '../shared/index.js';

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
  const soft = p.soft ? c.dim(`  (soft ask: ${p.soft})`) : '';
  return `${decisionColor(c, p.decision)} ${text}${soft}${rule}`;
}

/** Auto mode: what kind of ask decided, or which soft asks the model judged. */
function askLines(v: Verdict & { model?: ModelInfo }): string[] {
  const lines: string[] = [];
  const settled = v.model ? 'the model did not settle it' : 'no model is configured';
  if (v.ask === 'soft') lines.push(`ask      soft: in auto mode the model judges it; ${settled}`);
  if (v.ask === 'hard') lines.push('ask      hard: it stays with a person, even in auto mode');
  if (v.parts.length <= 1) for (const p of v.parts) if (p.soft) lines.push(`soft     ${p.soft}`);
  return lines;
}

export function renderVerdict(v: Verdict & { model?: ModelInfo }, c: Colors): string {
  const lines = [`${decisionColor(c, v.decision)}  ${v.reason}`];
  if (v.rule) lines.push(`rule     ${ruleLocation(v.rule)}`);
  const effect = v.parts.find((p) => p.reason === v.reason && p.effect !== undefined)?.effect;
  if (effect) lines.push(`effect   it ${effect}`);
  if (v.model) lines.push(`model    ${modelLine(v.model)}`);
  lines.push(...askLines(v));
  lines.push(c.dim(`tool ${v.tool}, mode ${v.mode}, decided by ${v.by}`));
  if (v.parts.length > 1) {
    lines.push('parts');
    for (const p of v.parts) lines.push(`  ${partLine(p, c)}`);
  }
  return lines.join('\n');
}

function modelLine(m: ModelInfo): string {
  const what = m.ok ? `${m.decision}${m.rule ? ` (${m.rule})` : ''}` : `failed: ${m.failure}`;
  const cost = m.cached ? 'from the cache' : `${m.latencyMs} ms, $${m.costUsd.toFixed(5)}`;
  const t = m.tokens;
  const tokens = `${t.input} in, ${t.output} out, ${t.cacheRead} cache read, ${t.cacheWrite} cache write`;
  const extra = [m.deniedTooOften ? 'too many denials: asking' : '', ...m.warnings]
    .filter(Boolean)
    .join('; ');
  return `stage ${m.stage}: ${what}; ${tokens}; ${cost}${extra ? `; ${extra}` : ''}`;
}

/** The verdict as JSON: the analysis is left to `explain`. */
export function verdictJson(v: Verdict & { analysis?: unknown }): Record<string, unknown> {
  const { analysis: _analysis, ...rest } = v;
  return rest;
}
