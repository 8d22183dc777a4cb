import { matchWildcard } from './wildcard.js';

export interface McpName {
  server: string;
  /** Absent for `mcp__server`: every tool of the server. */
  toolPattern?: string;
}

/** Splits `mcp__server__tool` at the first `__` after the prefix. */
export function parseMcpName(name: string): McpName | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice(5);
  const split = rest.indexOf('__');
  if (split === -1) return rest ? { server: rest } : undefined;
  const server = rest.slice(0, split);
  const toolPattern = rest.slice(split + 2);
  if (!server || !toolPattern) return undefined;
  return { server, toolPattern };
}

export function matchMcpTool(rule: McpName, toolName: string): boolean {
  const called = parseMcpName(toolName);
  if (!called || (rule.server !== '*' && called.server !== rule.server)) return false;
  if (rule.toolPattern === undefined || rule.toolPattern === '*') return true;
  return called.toolPattern !== undefined && matchWildcard(rule.toolPattern, called.toolPattern);
}
