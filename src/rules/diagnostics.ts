import type { Diagnostic } from './types.js';

/** `file:line:column: severity code: message (rule text)`; missing parts are left out. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file ?? d.source, d.line, d.line === undefined ? undefined : d.column]
    .filter((part) => part !== undefined)
    .join(':');
  const rule = d.rule === undefined ? '' : ` (${d.rule})`;
  return `${where ? `${where}: ` : ''}${d.severity} ${d.code}: ${d.message}${rule}`;
}

export function isError(d: Diagnostic): boolean {
  return d.severity === 'error';
}
