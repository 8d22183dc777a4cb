import { validateToolInput } from '../validate.js';
import type { Stage, ToolRun } from './state.js';
import { fail } from './tool-result.js';

export interface ValidInput {
  input: Record<string, unknown>;
  /** The tool's check hands the call over to the user, for this reason. */
  ask?: string | undefined;
}

/** Stage 2: the block's input against the schema and the tool's own check. */
export async function* validationStage(run: ToolRun): Stage<ValidInput> {
  const validated = await validateToolInput(run.tool, run.block.input, run.toolCtx);
  if (!validated.ok) {
    yield fail(run, 'validation', validated.kind, validated.message);
    return;
  }
  return { input: validated.input, ask: validated.ask };
}
