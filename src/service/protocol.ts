import { isObject, parseJsonObject } from '../shared/index.js';

// What automode answers Claude Code, in or out of process: the hook's output format. A forwarding hook loads
// only this, the service's address and its client, never the classifier.

/** The Claude Code hook events automode answers. */
export type HookEvent = 'PreToolUse' | 'PermissionRequest';

/** The answer that decides nothing: Claude Code's own permissions and prompts apply. */
export const NO_DECISION = '{}';

/**
 * The answer in the shape the event expects. As a PermissionRequest hook (consulted only when Claude Code
 * would show its dialog), automode answers allow or deny and leaves an ask to the dialog: it prints no decision.
 */
export function hookOutput(event: HookEvent, decision: 'allow' | 'ask' | 'deny', reason: string): string {
  if (event === 'PermissionRequest') {
    if (decision === 'ask') return NO_DECISION;
    const d = decision === 'deny' ? { behavior: 'deny', message: reason } : { behavior: 'allow' };
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: d } });
  }
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  });
}

/**
 * The event a raw hook input names, as `answerHookInput` reads it (no name is a PreToolUse); undefined when the
 * input is no JSON object or names an event automode does not answer.
 */
export function hookEventOf(raw: string): HookEvent | undefined {
  const parsed = parseJsonObject(raw);
  if ('error' in parsed) return undefined;
  const name = parsed.value.hook_event_name;
  if (name === undefined || name === 'PreToolUse') return 'PreToolUse';
  return name === 'PermissionRequest' ? 'PermissionRequest' : undefined;
}

/** Whether a body is an answer `automode hook` could print: what a forwarding hook accepts from the service. */
export function isHookAnswer(body: string): boolean {
  const parsed = parseJsonObject(body);
  if ('error' in parsed) return false;
  const keys = Object.keys(parsed.value);
  if (keys.length === 0) return true;
  return keys.length === 1 && isObject(parsed.value.hookSpecificOutput);
}
