import path from 'node:path';
import type { ToolCall } from '../classifier/index.js';
import type { Mode } from '../shared/index.js';

/** A tool call as test cases, corpus lines and matchers write it: `command` is shorthand for a Bash input. */
export interface CallSpec {
  tool?: string;
  command?: string;
  input?: Record<string, unknown>;
  /** Working folder, relative to the project folder. */
  cwd?: string;
  mode?: Mode;
  /** The user's messages before the call; only a model reads them. */
  context?: string | string[];
}

/** A call with what only a model reads. */
export interface TestCall extends ToolCall {
  context?: string | string[];
}

export const DEFAULT_TOOL = 'Bash';

/** The call a spec describes, run from `project`; an error when the spec names neither command nor input. */
export function toCall(spec: CallSpec, project: string): TestCall | { error: string } {
  const tool = spec.tool ?? DEFAULT_TOOL;
  if (spec.command !== undefined && spec.input !== undefined)
    return { error: 'give command or input, not both' };
  if (spec.command !== undefined && tool !== 'Bash') {
    return { error: `command is shorthand for the Bash tool; give input for ${tool}` };
  }
  const input = spec.command !== undefined ? { command: spec.command } : spec.input;
  if (input === undefined) return { error: 'give command (for Bash) or input' };
  const call: TestCall = { tool, input, cwd: path.resolve(project, spec.cwd ?? '.') };
  if (spec.mode !== undefined) call.mode = spec.mode;
  if (spec.context !== undefined) call.context = spec.context;
  return call;
}

/** One line naming the call: the command for Bash (line breaks shown as ⏎), the tool and its input otherwise. */
export function describeCall(call: { tool: string; input: Record<string, unknown> }): string {
  const command = call.input.command;
  if (call.tool === 'Bash' && typeof command === 'string' && Object.keys(call.input).length === 1) {
    return command.replace(/\r?\n/g, ' ⏎ ');
  }
  return `${call.tool} ${JSON.stringify(call.input)}`;
}
