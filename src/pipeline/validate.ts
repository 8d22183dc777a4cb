import { classifyToolError, errorText, toolUseError } from './errors.js';
import { parseInput } from './schema.js';
import type { AnyTool, ToolContext } from './tool.js';

export type Validated =
  | { ok: true; input: Record<string, unknown>; ask?: string }
  | { ok: false; message: string; kind: string };

/** Stage 2: the schema (with coercion), then the tool's own check, which may reject or hand over to the user. */
export async function validateToolInput(tool: AnyTool, raw: unknown, ctx: ToolContext): Promise<Validated> {
  const parsed = parseInput(tool.inputSchema, raw, tool.name);
  if (!parsed.ok) return { ok: false, message: toolUseError(parsed.message), kind: 'InputValidationError' };
  const input = parsed.data as Record<string, unknown>;
  try {
    const v = await tool.validateInput(input, ctx);
    if (v.result) return { ok: true, input };
    if (v.behavior === 'ask') return { ok: true, input, ask: v.message };
    const code = v.errorCode !== undefined ? `:${v.errorCode}` : '';
    return { ok: false, message: toolUseError(v.message), kind: `ValidationRejected${code}` };
  } catch (e) {
    return {
      ok: false,
      message: toolUseError(`Error validating the input: ${errorText(e)}`),
      kind: classifyToolError(e),
    };
  }
}
