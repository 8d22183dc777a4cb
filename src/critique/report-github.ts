import { workflowCommand } from '../shared/index.js';
import { CODES } from './codes.js';
import { formatLocation } from './locations.js';
import { relativeTo } from './report-text.js';
import type { CritiqueReport, Finding, FindingSeverity } from './types.js';

const COMMAND: Record<FindingSeverity, string> = { error: 'error', warning: 'warning', note: 'notice' };

/** GitHub Actions workflow commands: one `::error file=...,line=...,col=...,title=...::message` per finding. */
export function renderGithub(report: CritiqueReport, cwd: string): string {
  const rel = relativeTo(cwd);
  return report.findings.map((f) => annotation(f, rel)).join('\n');
}

function annotation(f: Finding, rel: (file: string) => string): string {
  const props: [string, string | number][] = [];
  if (f.location.file !== undefined && f.location.file !== '--settings') {
    props.push(['file', rel(f.location.file)]);
    if (f.location.line !== undefined) props.push(['line', f.location.line], ['col', f.location.column ?? 1]);
  }
  props.push(['title', `automode ${f.code}: ${CODES[f.code].title}`]);
  const body = [f.message];
  if (f.witness) body.push(`witness: ${JSON.stringify(f.witness.value)}`);
  for (const r of f.related) body.push(`related: ${formatLocation(r, rel)} ${r.message}`);
  if (f.fix) body.push(`fix: ${f.fix}`);
  if (f.partial) body.push(`partial: ${f.partial}`);
  return workflowCommand(COMMAND[f.severity], props, body.join('\n'));
}
