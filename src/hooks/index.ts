// The hooks of the settings (command and http), run for the pipeline: `automode/pipeline` re-exports the public
// names; this folder has no entry of its own.

export { MAX_HOOK_OUTPUT_CHARS, type RunHookOptions, runCommandHook } from './command.js';
export {
  type ConfiguredHook,
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookConfig,
  type HookConfigOptions,
  hookConfig,
  matchingHooks,
} from './config.js';
export { runHttpHook } from './http.js';
export { compileMatcher, type Matcher } from './matcher.js';
export type { OutputReplacement } from './output.js';
export {
  aggregateLifecycle,
  aggregatePermissionDenied,
  aggregatePermissionRequest,
  aggregatePostToolUse,
  aggregatePreToolUse,
  type EventInput,
  type HookOutcome,
  hasHooks,
  type LifecycleOutcome,
  type PermissionDeniedOutcome,
  type PermissionRequestOutcome,
  type PostToolUseOutcome,
  type PreToolUseOutcome,
  type RunHooksOptions,
  runHooks,
  runPermissionDeniedHooks,
  runPermissionRequestHooks,
  runPostToolUseHooks,
  runPreCompactHooks,
  runPreToolUseHooks,
  runSubagentStartHooks,
  runSubagentStopHooks,
} from './run.js';
export type {
  AnyHookInput,
  CommandHook,
  CommonHookInput,
  HookEvent,
  HookInput,
  HookRun,
  HookRunStatus,
  HttpHookTarget,
  PreCompactInput,
  SubagentStartInput,
  SubagentStopInput,
  ToolHookEvent,
} from './types.js';
