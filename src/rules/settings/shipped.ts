import type { Diagnostic, Provenance, Rule, SourceName } from '../types.js';

/** One entry of `automode.disableShippedRules`: a shipped rule's text (`Bash(git push --force *)`) or label. */
export interface DisableEntry {
  text: string;
  provenance: Provenance;
}

/** A shipped rule turned off, and the settings entry that turned it off. */
export interface DisabledRule {
  rule: Rule;
  by: Provenance;
}

/**
 * Sources that may turn off a shipped **deny** rule. A project's settings come with the repository, so they
 * may only turn off shipped ask rules: a cloned repository must not lift automode's own deny rules.
 */
const MAY_DISABLE_DENY: ReadonlySet<SourceName> = new Set([
  'policySettings',
  'flagSettings',
  'cliArg',
  'localSettings',
  'userSettings',
]);

/** Whether a shipped rule is named by an entry: by its text as written, or (pattern rules) by its label. */
function names(rule: Rule, text: string): boolean {
  return rule.text === text || (rule.type === 'pattern' && rule.label === text);
}

/**
 * Drops the shipped rules (source `defaults`) that `entries` name. An entry that names no shipped rule, or
 * that names a shipped deny rule from a source that may not turn it off, is a located warning.
 */
export function disableShipped(
  rules: readonly Rule[],
  entries: readonly DisableEntry[],
): { rules: Rule[]; disabled: DisabledRule[]; diagnostics: Diagnostic[] } {
  const shipped = rules.filter((r) => r.provenance.source === 'defaults');
  const disabled = new Map<Rule, Provenance>();
  const diagnostics: Diagnostic[] = [];
  const warn = (entry: DisableEntry, code: Diagnostic['code'], message: string) => {
    const p = entry.provenance;
    diagnostics.push({
      severity: 'warning',
      code,
      message,
      source: p.source,
      ...(p.file === undefined ? {} : { file: p.file }),
      ...(p.line === undefined ? {} : { line: p.line, column: p.column }),
      pointer: p.pointer,
      rule: entry.text,
    });
  };
  for (const entry of entries) {
    const named = shipped.filter((r) => names(r, entry.text.trim()));
    if (named.length === 0) {
      warn(
        entry,
        'shipped-rule-unknown',
        "disableShippedRules: the entry names no shipped rule (a shipped rule's text or label); nothing is turned off",
      );
      continue;
    }
    for (const rule of named) {
      if (rule.behavior === 'deny' && !MAY_DISABLE_DENY.has(entry.provenance.source)) {
        warn(
          entry,
          'shipped-deny-kept',
          `disableShippedRules: ${entry.provenance.source} may only turn off shipped ask rules; this shipped deny rule stays on`,
        );
        continue;
      }
      if (!disabled.has(rule)) disabled.set(rule, entry.provenance);
    }
  }
  return {
    rules: rules.filter((r) => !disabled.has(r)),
    disabled: [...disabled].map(([rule, by]) => ({ rule, by })),
    diagnostics,
  };
}
