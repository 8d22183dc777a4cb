import { closestName } from '../closest-name.js';

/**
 * Claude Code's tool names, as permission rules and hook matchers write them (the tools reference as of v2.1.240,
 * with `Monitor` from 2.1.98), and names older versions had.
 */
export const KNOWN_TOOLS = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'WebFetch',
  'WebSearch',
  'Task',
  'Agent',
  'TodoWrite',
  'ExitPlanMode',
  'BashOutput',
  'KillShell',
  'Skill',
  'SlashCommand',
  'ToolSearch',
  'LS',
  'TaskOutput',
  'TaskStop',
  'Monitor',
  'PowerShell',
  'AskUserQuestion',
  'EnterPlanMode',
  'EnterWorktree',
  'ExitWorktree',
  'LSP',
  'ListMcpResourcesTool',
  'ReadMcpResourceTool',
  'CronCreate',
  'CronDelete',
  'CronList',
  'TaskCreate',
  'TaskGet',
  'TaskList',
  'TaskUpdate',
  'TeamCreate',
  'TeamDelete',
  'SendMessage',
] as const;

/**
 * Names a tool has gone by, and the name it has now. Claude Code renamed `Task` to `Agent`, `KillShell` to
 * `TaskStop`, and the output tools to `TaskOutput`, and still reads rules and hook matchers written with the old
 * names. The tool-execution design names the tools as Claude Code's source does: `FileRead`, `FileWrite`,
 * `FileEdit`, `BashTool`, `AgentTool`, and the tool classes behind them (`FileEditTool`, `GrepTool`, ...).
 */
export const TOOL_NAME_ALIASES: Readonly<Record<string, string>> = {
  Task: 'Agent',
  KillShell: 'TaskStop',
  AgentOutputTool: 'TaskOutput',
  BashOutputTool: 'TaskOutput',
  FileRead: 'Read',
  FileWrite: 'Write',
  FileEdit: 'Edit',
  BashTool: 'Bash',
  AgentTool: 'Agent',
  FileReadTool: 'Read',
  FileWriteTool: 'Write',
  FileEditTool: 'Edit',
  GlobTool: 'Glob',
  GrepTool: 'Grep',
  NotebookEditTool: 'NotebookEdit',
  WebFetchTool: 'WebFetch',
  WebSearchTool: 'WebSearch',
  TodoWriteTool: 'TodoWrite',
  TaskStopTool: 'TaskStop',
  TaskOutputTool: 'TaskOutput',
};

/** The tool's current name: an alias becomes the name it stands for; any other name is kept. */
export function canonicalToolName(name: string): string {
  return Object.hasOwn(TOOL_NAME_ALIASES, name) ? TOOL_NAME_ALIASES[name]! : name;
}

/** Input fields that a `Tool(param:value)` rule can never target: the tool's own specifier covers them. */
export const MAIN_FIELDS: ReadonlySet<string> = new Set([
  'command',
  'file_path',
  'path',
  'url',
  'pattern',
  'notebook_path',
]);

/** Bash input fields other than `command`, which are the only way `Bash(name:value)` reads as a param rule. */
export const BASH_PARAMS: ReadonlySet<string> = new Set([
  'command',
  'description',
  'timeout',
  'run_in_background',
  'dangerouslyDisableSandbox',
]);

export const WEBFETCH_PARAMS: ReadonlySet<string> = new Set(['url', 'prompt']);

export const PATH_TOOL_PARAMS: Readonly<Record<string, readonly string[]>> = {
  Read: ['file_path', 'offset', 'limit', 'pages'],
  Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
  MultiEdit: ['file_path', 'edits'],
  Write: ['file_path', 'content'],
  NotebookEdit: ['notebook_path', 'cell_id', 'new_source', 'cell_type', 'edit_mode'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'type', 'output_mode', 'multiline', 'head_limit'],
};

const known: ReadonlySet<string> = new Set(KNOWN_TOOLS);

export function isKnownTool(name: string): boolean {
  return known.has(canonicalToolName(name)) || name.startsWith('mcp__');
}

/** The known tool a name probably misspells (see `closestName`). */
export function suggestTool(name: string): string | undefined {
  return closestName(name, KNOWN_TOOLS);
}
