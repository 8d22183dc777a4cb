import type { Diagnostic, Rule, SourceName } from '../types.js';
import { SOURCE_ORDER } from '../types.js';

export function bySource<T>(items: readonly T[], sourceOf: (item: T) => SourceName): T[] {
  return [...items].sort((a, b) => SOURCE_ORDER.indexOf(sourceOf(a)) - SOURCE_ORDER.indexOf(sourceOf(b)));
}

/** With `allowManagedPermissionRulesOnly`, keeps managed rules and says, per file, how many others were dropped. */
export function keepManagedOnly(rules: readonly Rule[]): { rules: Rule[]; diagnostics: Diagnostic[] } {
  const dropped = new Map<string, { source: SourceName; file?: string; count: number }>();
  for (const rule of rules) {
    if (rule.provenance.source === 'policySettings' || rule.provenance.source === 'defaults') continue;
    const { source, file } = rule.provenance;
    const key = `${source}\0${file ?? ''}`;
    const entry = dropped.get(key) ?? { source, ...(file === undefined ? {} : { file }), count: 0 };
    entry.count++;
    dropped.set(key, entry);
  }
  const diagnostics: Diagnostic[] = [...dropped.values()].map(({ source, file, count }) => ({
    severity: 'warning',
    code: 'managed-only',
    message: `allowManagedPermissionRulesOnly is set in managed settings: ${count} rule(s) from ${source} ignored`,
    source,
    ...(file === undefined ? {} : { file }),
  }));
  const kept = rules.filter(
    (r) => r.provenance.source === 'policySettings' || r.provenance.source === 'defaults',
  );
  return { rules: kept, diagnostics };
}
