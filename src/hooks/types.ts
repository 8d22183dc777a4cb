import type { SourceName } from '../rules/index.js';

/** The events the pipeline fires. Names are case-sensitive, as in settings files. */
export type HookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PermissionRequest'
  | 'PermissionDenied';

export const HOOK_EVENTS: readonly HookEvent[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
];

/** Where an `{"type": "http"}` hook sends the input. */
export interface HttpHookTarget {
  url: string;
  /** Values may name environment variables (`$VAR`, `${VAR}`) listed in `allowedEnvVars`. */
  headers: Record<string, string>;
  allowedEnvVars: string[];
}

/** One `{"type": "command"}` or `{"type": "http"}` entry of a settings `hooks` block, with its matcher. */
export interface CommandHook {
  event: HookEvent;
  /** The matcher as written ('' when absent). */
  matcher: string;
  /** The shell command; for an http hook its URL (what identical hooks are recognised by). */
  command: string;
  /** Set for an http hook: the input is POSTed there instead of run as a command. */
  http?: HttpHookTarget;
  timeoutMs: number;
  /**
   * `"onFailure": "block"`: when the hook cannot start, times out or exits with a code other than 0 and 2 (an http
   * hook: cannot connect or answers other than 2xx), the call is blocked instead of going on.
   */
  onFailure?: 'block';
  source: SourceName;
  file?: string;
  /** JSON pointer of the entry, e.g. `/hooks/PreToolUse/0/hooks/1`. */
  pointer: string;
}

/** What every hook receives on stdin; events add their own fields. */
export interface HookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: HookEvent;
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  tool_response?: unknown;
  error?: string;
  is_interrupt?: boolean;
  permission_suggestions?: unknown[];
  /** PermissionDenied: why the classifier denied the call. */
  reason?: string;
}

/** How one hook process ended. `blocked` is exit code 2. */
export type HookRunStatus = 'success' | 'blocked' | 'failed' | 'timeout' | 'crashed' | 'aborted';

export interface HookRun {
  hook: CommandHook;
  status: HookRunStatus;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Output beyond the cap was dropped. */
  truncated: boolean;
  durationMs: number;
  /** Why the run failed, when it did (spawn error, timeout, signal). */
  error?: string;
}
