import { isError } from '../diagnostics.js';
import { locatedPermissionRule } from '../permission/located.js';
import type { Behavior, Diagnostic, Rule } from '../types.js';
import { bySource } from './order.js';
import type { LoadedSettings } from './types.js';

/** Returns new settings with rules granted through the API; the input is left unchanged. */
export function addRules(
  settings: LoadedSettings,
  source: 'session' | 'command',
  rules: readonly { behavior: Behavior; text: string }[],
): LoadedSettings {
  const diagnostics: Diagnostic[] = [];
  const added: Rule[] = [];
  if (settings.scalars.allowManagedPermissionRulesOnly?.value) {
    if (rules.length > 0) {
      diagnostics.push({
        severity: 'warning',
        code: 'managed-only',
        message: `allowManagedPermissionRulesOnly is set in managed settings: ${rules.length} rule(s) from ${source} ignored`,
        source,
      });
    }
  } else {
    rules.forEach(({ behavior, text }, index) => {
      const origin = { source, root: settings.cwd };
      const located = locatedPermissionRule(text, behavior, origin, undefined, [behavior, index]);
      diagnostics.push(...located.diagnostics);
      if (located.rule) added.push(located.rule);
    });
  }
  return {
    ...settings,
    rules: bySource([...settings.rules, ...added], (rule) => rule.provenance.source),
    diagnostics: [...settings.diagnostics, ...diagnostics],
    failed: [...settings.failed, ...diagnostics.filter(isError)],
  };
}
