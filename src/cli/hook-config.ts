/**
 * The hook blocks automode prints for `.claude/settings.json` (Claude Code 2.1.295 and later). The CLI is named
 * from the project's root, which Claude Code passes in CLAUDE_PROJECT_DIR, so that a session in a subfolder
 * finds it; `onFailure: block` makes a hook that cannot start, times out or fails block the call instead of
 * letting it through unchecked.
 */
export const HOOK_COMMAND = '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/automode hook';

export type HookEvent = 'PreToolUse' | 'PermissionRequest';

export function commandHook(options = ''): Record<string, unknown> {
  return { type: 'command', command: options ? `${HOOK_COMMAND} ${options}` : HOOK_COMMAND };
}

export function hooksBlock(event: HookEvent, hook: Record<string, unknown>): Record<string, unknown> {
  return { hooks: { [event]: [{ matcher: '*', hooks: [{ ...hook, onFailure: 'block' }] }] } };
}
