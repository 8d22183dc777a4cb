// The entry `automode/pipeline`: the tool-execution pipeline (lookup, validation, hooks, permission,
// execution, results), its permission handlers, the reference tools, MCP, and the hooks it runs. Other folders
// import the pipeline through this file too. The model client stays a lazy import: nothing here loads it.

// The settings' hooks, as the pipeline runs them (also usable alone).
export {
  type CommandHook,
  type ConfiguredHook,
  DEFAULT_HOOK_TIMEOUT_MS,
  type EventInput,
  type HookConfig,
  type HookConfigOptions,
  type HookEvent,
  type HookInput,
  type HookOutcome,
  type HookRun,
  type HookRunStatus,
  type HttpHookTarget,
  hookConfig,
  type LifecycleOutcome,
  MAX_HOOK_OUTPUT_CHARS,
  type OutputReplacement,
  type PermissionDeniedOutcome,
  type PermissionRequestOutcome,
  type PostToolUseOutcome,
  type PreCompactInput,
  type PreToolUseOutcome,
  type RunHookOptions,
  type RunHooksOptions,
  runCommandHook,
  runHooks,
  runHttpHook,
  runPermissionDeniedHooks,
  runPermissionRequestHooks,
  runPostToolUseHooks,
  runPreCompactHooks,
  runPreToolUseHooks,
  runSubagentStartHooks,
  runSubagentStopHooks,
  type SubagentStartInput,
  type SubagentStopInput,
} from '../hooks/index.js';
export { MAX_CLASSIFIER_CONTEXT_CHARS } from './classifier-context.js';
export { firePreCompactHooks } from './compaction-hooks.js';
export {
  createToolUseContext,
  PermissionState,
  type PipelineOptions,
  type SubagentLoop,
  type SubagentTask,
  type ToolUseContext,
} from './context.js';
export { classifyToolError, TelemetrySafeError, toolUseError } from './errors.js';
export { type ExecuteOptions, executeToolUse, INTERRUPT_MESSAGE, REJECT_MESSAGE } from './execute.js';
export { automaticSource, firstAnswer, fromAuto } from './handlers/answers.js';
export { coordinatorHandler } from './handlers/coordinator.js';
export { type InteractiveOptions, interactiveHandler } from './handlers/interactive.js';
export { FileMailbox, type MailboxMessage } from './handlers/mailbox.js';
export { type SettingsTarget, saveAllowRules, settingsTargets } from './handlers/save-rule.js';
export {
  answerPermissionRequests,
  type LeaderDecision,
  type PermissionRequestMessage,
  type PermissionResponseMessage,
  type SwarmWorkerOptions,
  servePermissionRequests,
  swarmWorkerHandler,
} from './handlers/swarm.js';
export { type TerminalPromptOptions, terminalPrompt } from './handlers/terminal.js';
export {
  type FailedStage,
  type HookMessage,
  type ImageBlock,
  type PermissionMessage,
  type PermissionRequestedMessage,
  type PipelineMessage,
  type ProgressMessage,
  type ResultBlock,
  type TextBlock,
  type ToolResultBlock,
  type ToolResultContent,
  type ToolResultMessage,
  type ToolUseBlock,
  textOf,
} from './messages.js';
export { decide, isSoftAsk } from './permission/decide.js';
export { DenialTracking } from './permission/denials.js';
export type { SandboxDecision } from './permission/sandbox.js';
export { destructiveWarning, suggestRules } from './permission/suggest.js';
export type {
  AutoDecision,
  PermissionAnswer,
  PermissionHandler,
  PermissionRequest,
  PermissionSource,
} from './permission/types.js';
export { persistLargeResult } from './results.js';
export { runTools } from './run-tools.js';
export { type SandboxConfig, sandboxRuntimeConfig } from './sandbox/config.js';
export { type SandboxStatus, stopSandboxRuntime } from './sandbox/runtime.js';
export { type BashSandbox, Sandbox, type SandboxOptions, type SandboxPlan } from './sandbox/sandbox.js';
export { MAX_TOOL_CONCURRENCY, STOPPED_MESSAGE, ToolScheduler } from './scheduler.js';
export {
  type InputSchema,
  inputJsonSchema,
  jsonSchemaInput,
  parseInput,
  semanticBoolean,
  semanticNumber,
} from './schema.js';
export { type FileRecord, SessionState, type Todo } from './session.js';
export { type StreamEvent, StreamingToolExecutor } from './streaming.js';
export {
  GENERAL_PURPOSE_AGENT,
  SUBAGENT_TYPES,
  type SubagentOutcome,
  type SubagentRequest,
} from './subagent-types.js';

export {
  type AnyTool,
  buildTool,
  type Lookup,
  type Tool,
  type ToolContext,
  type ToolDef,
  type ToolDefinition,
  type ToolEvent,
  type ToolPermission,
  ToolRegistry,
  type ValidationResult,
} from './tool.js';
export { AgentOutputSchema, agentTool } from './tools/agent.js';
export { type BackgroundTask, BackgroundTasks, type TaskOutput } from './tools/background.js';
export { type BashInput, type BashOutput, type BashToolOptions, bashTool, ShellError } from './tools/bash.js';
export { bashOutputTool } from './tools/bash-output.js';
export { editTool } from './tools/edit.js';
export { globTool } from './tools/glob.js';
export { grepTool } from './tools/grep.js';
export { referenceTools } from './tools/index.js';
export {
  connectMcpServer,
  connectMcpServers,
  type McpClient,
  type McpConnection,
  type McpHttpServerConfig,
  type McpOptions,
  type McpServerConfig,
  type McpServers,
  type McpSseServerConfig,
  type McpStdioServerConfig,
  McpToolCallError,
  mcpToolName,
} from './tools/mcp.js';
export { mcpServersFromSettings } from './tools/mcp-config.js';
export {
  BashOutputSchema,
  EditOutputSchema,
  GlobOutputSchema,
  GrepOutputSchema,
  McpOutputSchema,
  ReadOutputSchema,
  TaskOutputSchema,
  TodoWriteOutputSchema,
  ToolSearchOutputSchema,
  WriteOutputSchema,
} from './tools/output-schemas.js';
export { readTool } from './tools/read.js';
export { todoWriteTool } from './tools/todo.js';
export { deferredToolsNotice, toolSearchTool } from './tools/tool-search.js';
export { applyToolSearchMode, parseToolSearchMode, type ToolSearchMode } from './tools/tool-search-mode.js';
export {
  isLoopbackHost,
  type WebFetchInput,
  type WebFetchOutput,
  WebFetchOutputSchema,
  type WebFetchToolOptions,
  webFetchTool,
} from './tools/web-fetch.js';
export type { WebModel } from './tools/web-model.js';
export {
  type WebSearchInput,
  type WebSearchOutput,
  WebSearchOutputSchema,
  type WebSearchToolOptions,
  webSearchTool,
} from './tools/web-search.js';
export { writeTool } from './tools/write.js';
