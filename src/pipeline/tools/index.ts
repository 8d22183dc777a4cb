import type { AnyTool } from '../tool.js';
import { agentTool } from './agent.js';
import { type BashToolOptions, bashTool } from './bash.js';
import { bashOutputTool } from './bash-output.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { notebookEditTool } from './notebook-edit.js';
import { readTool } from './read.js';
import { todoWriteTool } from './todo.js';
import { toolSearchTool } from './tool-search.js';
import { type WebFetchToolOptions, webFetchTool } from './web-fetch.js';
import { type WebSearchToolOptions, webSearchTool } from './web-search.js';
import { writeTool } from './write.js';

/**
 * The reference tools: Bash, BashOutput, Read, Write, Edit, NotebookEdit, Glob, Grep, TodoWrite, ToolSearch, Agent,
 * WebFetch and WebSearch (these two ask a model: `webFetch.model`, `webSearch.model`, else the environment's
 * model client).
 */
export function referenceTools(
  options: { bash?: BashToolOptions; webFetch?: WebFetchToolOptions; webSearch?: WebSearchToolOptions } = {},
): AnyTool[] {
  return [
    bashTool(options.bash),
    bashOutputTool(),
    readTool(),
    writeTool(),
    editTool(),
    notebookEditTool(),
    globTool(),
    grepTool(),
    todoWriteTool(),
    toolSearchTool(),
    agentTool(),
    webFetchTool(options.webFetch),
    webSearchTool(options.webSearch),
  ];
}
