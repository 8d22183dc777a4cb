import { isObject } from './guards.js';
import { type Mode, toMode } from './modes.js';

/** Text that must hold a JSON object; `syntax` tells text that is not JSON from a value that is not an object. */
export function parseJsonObject(
  text: string,
): { value: Record<string, unknown> } | { error: string; syntax: boolean } {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? { value } : { error: 'not an object', syntax: false };
  } catch (e) {
    return { error: (e as Error).message, syntax: true };
  }
}

export interface CallLine {
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  mode?: Mode;
}

/** A PreToolUse-shaped object: `{tool_name, tool_input, cwd?, permission_mode?}`. */
export function parseCallLine(line: string): CallLine | { error: string } {
  const parsed = parseJsonObject(line);
  if ('error' in parsed) return { error: parsed.error };
  const { tool_name, tool_input, cwd, permission_mode } = parsed.value;
  if (typeof tool_name !== 'string' || tool_name === '')
    return { error: 'tool_name must be a non-empty string' };
  if (!isObject(tool_input)) return { error: 'tool_input must be an object' };
  const call: CallLine = { tool: tool_name, input: tool_input };
  if (typeof cwd === 'string') call.cwd = cwd;
  const mode = toMode(permission_mode);
  if (mode) call.mode = mode;
  return call;
}
