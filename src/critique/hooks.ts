import type { LocatedDocument, Segment } from '../rules/index.js';
import { toPointer } from '../rules/index.js';
import { isObject } from '../shared/index.js';
import type { CritiqueFile, Finding } from './types.js';

/** The events whose automode hook decides whether a call runs. */
const DECIDING_EVENTS = ['PreToolUse', 'PermissionRequest'] as const;

/** `automode hook`, `automode.js hook`, `"…/automode" hook`: the command hook. */
const AUTOMODE_COMMAND = /\bautomode(?:\.js)?["']?\s+hook\b/;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** What the hook entry runs that is automode, or undefined. */
function automodeHook(h: Record<string, unknown>): { field: 'command' | 'url'; what: string } | undefined {
  if (h.type === 'command' && typeof h.command === 'string' && AUTOMODE_COMMAND.test(h.command)) {
    return { field: 'command', what: `\`${h.command}\`` };
  }
  if (h.type !== 'http' || typeof h.url !== 'string') return undefined;
  try {
    // automode serve listens on loopback only, and answers hook inputs at /hook.
    const url = new URL(h.url);
    return LOOPBACK.has(url.hostname) && url.pathname === '/hook'
      ? { field: 'url', what: `the automode service at ${h.url}` }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PreToolUse and PermissionRequest hooks that run automode without `"onFailure": "block"`: when automode cannot
 * start, times out or crashes, Claude Code lets the call through as if automode had allowed it.
 */
export function hookFindings(
  files: readonly CritiqueFile[],
  documents: ReadonlyMap<string, LocatedDocument>,
): Finding[] {
  const findings: Finding[] = [];
  for (const file of files) {
    const doc = documents.get(file.path);
    if (file.kind !== 'settings' || !doc || !isObject(doc.value) || !isObject(doc.value.hooks)) continue;
    for (const event of DECIDING_EVENTS) {
      const matchers = doc.value.hooks[event];
      if (!Array.isArray(matchers)) continue;
      matchers.forEach((m, i) => {
        if (!isObject(m) || !Array.isArray(m.hooks)) return;
        m.hooks.forEach((h, j) => {
          if (!isObject(h) || h.onFailure === 'block') return;
          const hook = automodeHook(h);
          if (!hook) return;
          const path: Segment[] = ['hooks', event, i, 'hooks', j, hook.field];
          const position = doc.locate(path);
          findings.push({
            code: 'automode-hook-fails-open',
            severity: 'warning',
            message:
              `the ${event} hook runs ${hook.what} without "onFailure": "block": if it cannot start, times out ` +
              'or crashes, Claude Code lets the call through as if automode had allowed it',
            location: {
              source: file.source,
              file: file.path,
              pointer: toPointer(path),
              ...(position ? { line: position.line, column: position.column } : {}),
            },
            related: [],
            fix: 'add "onFailure": "block" to the hook entry (Claude Code 2.1.295 and later)',
          });
        });
      });
    }
  }
  return findings;
}
