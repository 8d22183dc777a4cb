import type { ParsedPermission } from '../types.js';
import { matchMcpTool } from './mcp.js';

/** Whether a parsed rule is about the named tool (MCP rules cover a server or a wildcard of its tools). */
export function matchRuleTool(parsed: ParsedPermission, toolName: string): boolean {
  if (parsed.kind === 'mcp') return matchMcpTool(parsed, toolName);
  return parsed.tool === toolName || (parsed.kind === 'tool' && parsed.tool === '*');
}
