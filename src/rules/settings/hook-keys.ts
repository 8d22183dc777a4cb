import { isObject } from '../../shared/index.js';
import { closestName, didYouMean } from '../closest-name.js';
import { parsePermissionRule } from '../permission/parse.js';
import {
  HOOK_COMMON_KEYS,
  HOOK_EVENT_KEYS,
  HOOK_HANDLER_KEYS,
  HOOK_ON_FAILURE,
  HOOK_TYPES,
} from './known-keys.js';
import type { Report } from './types.js';

/**
 * Hook events, hook types and handler fields Claude Code does not know: it never runs such hooks, or ignores
 * the field, so a misspelt `posttooluse`, `"type": "comand"` or `onFaliure` would otherwise switch a hook (or
 * its failure policy) off without a word.
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
        if (isObject(h)) checkHandler(h, ['hooks', event, i, 'hooks', j], report);
      });
    });
  }
}

function checkHandler(h: Record<string, unknown>, at: (string | number)[], report: Report): void {
  if (typeof h.type === 'string' && !HOOK_TYPES.includes(h.type)) {
    const meant = closestName(h.type, HOOK_TYPES);
    report(
      [...at, 'type'],
      'warning',
      'unknown-hook-type',
      `hook type "${h.type}" is not one Claude Code runs (${HOOK_TYPES.join(', ')}), so the hook never runs${didYouMean(meant)}`,
    );
  }
  const own = typeof h.type === 'string' ? HOOK_HANDLER_KEYS[h.type] : undefined;
  const known = [...HOOK_COMMON_KEYS, ...(own ?? Object.values(HOOK_HANDLER_KEYS).flat())];
  for (const key of Object.keys(h)) {
    // Keys close to no known field are left alone, as for settings: Claude Code adds fields over time.
    const meant = closestName(key, known);
    if (meant === undefined) continue;
    report(
      [...at, key],
      'warning',
      'unknown-hook-field',
      `"${key}" is not a field of a ${own ? `${h.type} ` : ''}hook, so Claude Code ignores it${didYouMean(meant)}`,
    );
  }
  if (h.onFailure !== undefined && !HOOK_ON_FAILURE.includes(h.onFailure as string)) {
    report(
      [...at, 'onFailure'],
      'error',
      'invalid-on-failure',
      `onFailure is ${JSON.stringify(h.onFailure)}; Claude Code takes "block" (a hook that cannot start, times out or exits with an unexpected code blocks the action) or "continue" (the default: the action goes on)`,
    );
  }
  if (h.if !== undefined) checkCondition(h.if, [...at, 'if'], report);
}

/** A handler's `if` is a permission rule (`Bash(git *)`); one that is not, or names no tool, matches no call. */
function checkCondition(value: unknown, at: (string | number)[], report: Report): void {
  const problem =
    typeof value !== 'string'
      ? 'it is not a string'
      : parsePermissionRule(value, { behavior: 'deny' }).issues.find(
          (i) => i.severity === 'error' || i.code === 'unknown-tool',
        )?.message;
  if (problem === undefined) return;
  report(
    at,
    'warning',
    'invalid-hook-if',
    `the hook's "if" ${JSON.stringify(value)} is not a permission rule that can match a call (${problem})`,
  );
}
