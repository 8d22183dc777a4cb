import { createClassifier, type ToolCall } from '../../classifier/index.js';
import type { ToolUseContext } from '../context.js';
import { errorText } from '../errors.js';
import type { FailedStage } from '../messages.js';
import type { AnyTool, ToolContext } from '../tool.js';
import { validateToolInput } from '../validate.js';

export type Rewrite =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; stage: FailedStage; kind: string; message: string };

/**
 * A PermissionRequest hook allowed the call with a rewritten input. The hook answered for the call it saw; the
 * new input must still be valid, and nothing may deny it: not the tool's own check, not a deny rule. (The
 * model is not asked again: the hook's allow stands in for the user's.)
 */
export async function checkRewrite(
  ctx: ToolUseContext,
  tool: AnyTool,
  toolCtx: ToolContext,
  call: ToolCall,
  rewritten: Record<string, unknown>,
): Promise<Rewrite> {
  const valid = await validateToolInput(tool, rewritten, toolCtx);
  if (!valid.ok) {
    const message = `A PermissionRequest hook rewrote the input into one that is not valid:\n${valid.message}`;
    return { ok: false, stage: 'validation', kind: valid.kind, message };
  }
  const denied = (reason: string): Rewrite => ({
    ok: false,
    stage: 'permission',
    kind: 'PermissionDenied',
    message: `Permission to use ${tool.name} has been denied: the input a PermissionRequest hook rewrote ${reason}`,
  });
  try {
    const own = await tool.checkPermissions(valid.input as never, toolCtx);
    if (own.behavior === 'deny') return denied(`is refused by ${tool.name}: ${own.reason}`);
  } catch (e) {
    return denied(`could not be checked by ${tool.name}: ${errorText(e)}`);
  }
  const verdict = await createClassifier(ctx.permissions.classifier.settings).classify({
    ...call,
    input: valid.input,
  });
  if (verdict.decision === 'deny') return denied(`is denied: ${verdict.reason}`);
  return { ok: true, input: valid.input };
}
