import { isObject } from '../../shared/index.js';
import { closestName, didYouMean } from '../closest-name.js';
import { HOOK_EVENT_KEYS, HOOK_TYPES } from './known-keys.js';
import type { Report } from './types.js';

/**
 * Hook events and hook types Claude Code does not know: it never runs such hooks, so a misspelt `posttooluse`
 * or `"type": "comand"` would otherwise switch a hook off without a word.
 */
export function checkHookKeys(hooks: unknown, report: Report): void {
  if (!isObject(hooks)) return;
  for (const [event, matchers] of Object.entries(hooks)) {
    if (!HOOK_EVENT_KEYS.includes(event)) {
      const meant = closestName(event, HOOK_EVENT_KEYS);
      report(
        ['hooks', event],
        'warning',
        'unknown-hook-event',
        `"hooks.${event}" is not a Claude Code hook event, so its hooks never run${didYouMean(meant)}`,
      );
    }
    if (!Array.isArray(matchers)) continue;
    matchers.forEach((m, i) => {
      if (!isObject(m) || !Array.isArray(m.hooks)) return;
      m.hooks.forEach((h, j) => {
        if (!isObject(h) || typeof h.type !== 'string' || HOOK_TYPES.includes(h.type)) return;
        const meant = closestName(h.type, HOOK_TYPES);
        report(
          ['hooks', event, i, 'hooks', j, 'type'],
          'warning',
          'unknown-hook-type',
          `hook type "${h.type}" is not one Claude Code runs (${HOOK_TYPES.join(', ')}), so the hook never runs${didYouMean(meant)}`,
        );
      });
    });
  }
}
