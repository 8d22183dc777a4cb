import type { OutputReplacement } from '../../hooks/index.js';
import type { AnyTool } from '../tool.js';

/** What the hooks' replacements leave as the output: the last one that fits the tool's output shape, if any. */
export interface ReplacedOutput {
  replaced: boolean;
  output: unknown;
  /** The hook whose replacement the output now is. */
  by?: string;
  /** Replacements not used, each with why. */
  errors: string[];
}

const isMcpTool = (tool: AnyTool) => tool.name.startsWith('mcp__');

function issues(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : 'the value'}: ${i.message}`)
    .join('; ');
}

/**
 * Checks each replacement against the tool's output schema. Later hooks (in settings order) win over earlier
 * ones; a replacement that does not fit is an error and takes no part, so the original output stays unless
 * some replacement fits. `updatedMCPToolOutput` counts for MCP tools only.
 */
export function replaceOutput(tool: AnyTool, output: unknown, replacements: readonly OutputReplacement[]) {
  const result: ReplacedOutput = { replaced: false, output, errors: [] };
  for (const r of replacements) {
    const refuse = (why: string) => result.errors.push(`${r.hook}: ${r.field} ignored: ${why}`);
    if (r.field === 'updatedMCPToolOutput' && !isMcpTool(tool)) {
      refuse(`it applies to MCP tools only, and ${tool.name} is not one (use updatedToolOutput)`);
      continue;
    }
    if (!tool.outputSchema) {
      refuse(`${tool.name} declares no output schema, so its output cannot be replaced`);
      continue;
    }
    const parsed = tool.outputSchema.safeParse(r.value);
    if (!parsed.success) {
      refuse(
        `it does not have the shape of ${tool.name}'s output (${issues(parsed.error)}); the output is kept`,
      );
      continue;
    }
    result.replaced = true;
    result.output = parsed.data;
    result.by = r.hook;
  }
  return result;
}
