import { estimatedTokens } from '../../llm/index.js';
import type { AnyTool, ToolRegistry } from '../tool.js';

/**
 * When MCP tools are deferred, as Claude Code's `ENABLE_TOOL_SEARCH` sets it: `always` (unset, `true`): every
 * MCP tool is deferred and found with ToolSearch; `auto` (`auto`, `auto:N`): deferred only when their
 * definitions would take more than N % of the context window (default 10); `off` (`false`): all sent upfront.
 */
export type ToolSearchMode = { kind: 'always' } | { kind: 'auto'; percent: number } | { kind: 'off' };

const DEFAULT_AUTO_PERCENT = 10;

/** Reads an `ENABLE_TOOL_SEARCH` value; one it does not know keeps the default and says so. */
export function parseToolSearchMode(value: string | undefined): { mode: ToolSearchMode; problem?: string } {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '' || v === 'true' || v === '1') return { mode: { kind: 'always' } };
  if (v === 'false' || v === '0') return { mode: { kind: 'off' } };
  if (v === 'auto') return { mode: { kind: 'auto', percent: DEFAULT_AUTO_PERCENT } };
  const auto = /^auto:(\d{1,3})$/.exec(v);
  if (auto && Number(auto[1]) <= 100) return { mode: { kind: 'auto', percent: Number(auto[1]) } };
  return {
    mode: { kind: 'always' },
    problem: `ENABLE_TOOL_SEARCH=${value} is not true, false, auto or auto:N (0-100); MCP tools are deferred`,
  };
}

/** Tokens the tools' definitions take in a request. */
function definitionTokens(registry: ToolRegistry, tools: readonly AnyTool[]): number {
  return tools.reduce((n, t) => n + estimatedTokens(JSON.stringify(registry.definition(t))), 0);
}

/**
 * Applies the mode to deferred tools already in the registry: under `auto`, when their definitions fit in the
 * share of the context window, they are loaded upfront. Returns whether they stay deferred.
 */
export function applyToolSearchMode(
  registry: ToolRegistry,
  tools: readonly AnyTool[],
  mode: ToolSearchMode,
  contextWindowTokens: number,
): boolean {
  const deferred = tools.filter((t) => registry.isDeferred(t));
  const upfront =
    mode.kind === 'off' ||
    (mode.kind === 'auto' &&
      definitionTokens(registry, deferred) <= (contextWindowTokens * mode.percent) / 100);
  if (upfront) for (const t of deferred) registry.load(t);
  return !upfront && deferred.length > 0;
}
