import type { SourceName } from '../rules/index.js';

/** The events of one tool call: their matcher is the tool name. */
export type ToolHookEvent =
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PermissionRequest'
  | 'PermissionDenied';

/**
 * The events the pipeline and the reference agent loop fire. Names are case-sensitive, as in settings files.
 * SubagentStart and SubagentStop match the agent type, PreCompact the trigger (`manual`, `auto`).
 */
export type HookEvent = ToolHookEvent | 'SubagentStart' | 'SubagentStop' | 'PreCompact';

export const HOOK_EVENTS: readonly HookEvent[] = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionRequest',
  'PermissionDenied',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
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
  /**
   * The shell command; with `args`, the program run directly (found on PATH) with no shell; for an http hook
   * its URL.
   */
  command: string;
  /**
   * The exec form (Claude Code 2.1.139 and later): the program's arguments, each passed as written, no shell
   * reads them.
   */
  args?: string[];
  /**
   * `"async": true` (or `"asyncRewake": true`): the hook runs in the background. Nothing waits for it and its
   * answer decides nothing; it is still stopped at its timeout.
   */
  async?: boolean;
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
export interface CommonHookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  /** Set when the hook fires inside a sub-agent (its tool calls, its SubagentStart and SubagentStop). */
  agent_id?: string;
  agent_type?: string;
}

/** What a tool event's hooks receive on stdin. */
export interface HookInput extends CommonHookInput {
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

/** SubagentStart: a sub-agent is about to get its first prompt. */
export interface SubagentStartInput extends CommonHookInput {
  hook_event_name: 'SubagentStart';
  agent_id: string;
  agent_type: string;
}

/** SubagentStop: a sub-agent has answered; a hook may keep it running. */
export interface SubagentStopInput extends CommonHookInput {
  hook_event_name: 'SubagentStop';
  agent_id: string;
  agent_type: string;
  /** The sub-agent runs again because a SubagentStop hook kept it running. */
  stop_hook_active: boolean;
  agent_transcript_path: string;
  /** The text of the sub-agent's last message: what the parent gets. */
  last_assistant_message: string;
}

/** PreCompact: the conversation is about to be summarised. */
export interface PreCompactInput extends CommonHookInput {
  hook_event_name: 'PreCompact';
  trigger: 'manual' | 'auto';
  /** What the user asked the summary to keep (`/compact <instructions>`); empty for `auto`. */
  custom_instructions: string;
}

/** The input of any event the pipeline fires. */
export type AnyHookInput = HookInput | SubagentStartInput | SubagentStopInput | PreCompactInput;

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
