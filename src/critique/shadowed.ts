import { loadRuleChecks } from '../policy/index.js';
import type { Provenance } from '../rules/index.js';
import { type CritiqueInputOptions, loadInputs } from './inputs.js';
import { ruleLocation } from './locations.js';
import { analyseRule } from './model.js';
import { overlapFindings } from './overlap.js';

export interface Shadow {
  /** Why the rule never fires: the critique's `dead-rule` message. */
  message: string;
  /** The rules that decide first, as written. */
  by: string[];
  /** Only automode's shipped rules decide first: Claude Code still applies the rule. */
  onlyShipped: boolean;
}

/** The key `shadowedRules` files a rule under: its source, file and pointer. */
export function provenanceKey(p: Provenance): string {
  return `${p.source}\0${p.file ?? ''}\0${p.pointer}`;
}

/**
 * The rules of the effective configuration that never fire, because stricter rules match everything they
 * match: the critique's `dead-rule` analysis, by `provenanceKey`.
 */
export async function shadowedRules(options: CritiqueInputOptions): Promise<Map<string, Shadow>> {
  const inputs = await loadInputs(options);
  await loadRuleChecks();
  const ctx = { cwd: inputs.cwd, home: inputs.home };
  const analysed = [
    ...inputs.subjects.map((r) => analyseRule(r, true, ctx)),
    ...inputs.context.map((r) => analyseRule(r, false, ctx)),
  ];
  const dead = overlapFindings(analysed, { documents: inputs.documents, home: inputs.home }).filter(
    (f) => f.code === 'dead-rule',
  );
  const shadows = new Map<string, Shadow>();
  for (const rule of inputs.subjects) {
    const at = ruleLocation(rule, inputs.documents);
    const finding = dead.find(
      (f) =>
        f.location.source === at.source && f.location.file === at.file && f.location.pointer === at.pointer,
    );
    if (!finding) continue;
    shadows.set(provenanceKey(rule.provenance), {
      message: finding.message,
      by: (finding.related ?? []).map((r) => r.rule ?? r.pointer ?? r.source),
      onlyShipped: finding.severity === 'note',
    });
  }
  return shadows;
}
