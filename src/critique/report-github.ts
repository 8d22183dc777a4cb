import { CODES } from './codes.js';
import { formatLocation } from './locations.js';
import { relativeTo } from './report-text.js';
import type { CritiqueReport, Finding, FindingSeverity } from './types.js';

const COMMAND: Record<FindingSeverity, string> = { error: 'error', warning: 'warning', note: 'notice' };

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: one `::error file=...,line=...,col=...,title=...::message` per finding. */
export function renderGithub(report: CritiqueReport, cwd: string): string {
  const rel = relativeTo(cwd);
  return report.findings.map((f) => annotation(f, rel)).join('\n');
}

function annotation(f: Finding, rel: (file: string) => string): string {
  const props: string[] = [];
  if (f.location.file !== undefined && f.location.file !== '--settings') {
    props.push(`file=${escapeProperty(rel(f.location.file))}`);
    if (f.location.line !== undefined) {
      props.push(`line=${f.location.line}`, `col=${f.location.column ?? 1}`);
    }
  }
  props.push(`title=${escapeProperty(`automode ${f.code}: ${CODES[f.code].title}`)}`);
  const body = [f.message];
  if (f.witness) body.push(`witness: ${JSON.stringify(f.witness.value)}`);
  for (const r of f.related) body.push(`related: ${formatLocation(r, rel)} ${r.message}`);
  if (f.fix) body.push(`fix: ${f.fix}`);
  if (f.partial) body.push(`partial: ${f.partial}`);
  return `::${COMMAND[f.severity]} ${props.join(',')}::${escapeData(body.join('\n'))}`;
}
