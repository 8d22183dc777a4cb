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

/** The variable of Claude Code's environment that an HTTP hook's header takes the service's token from. */
export const TOKEN_ENV = 'AUTOMODE_TOKEN';

/** The HTTP hook for a service at `url`: the token is read from TOKEN_ENV, so that no settings file holds it. */
export function httpHook(url: string): Record<string, unknown> {
  return {
    type: 'http',
    url,
    headers: { Authorization: `Bearer \${${TOKEN_ENV}}` },
    allowedEnvVars: [TOKEN_ENV],
    timeout: 60,
  };
}

/** A word bash reads back unchanged. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
