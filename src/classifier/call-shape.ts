import { callOf, isObject } from '../shared/index.js';
import type { HookToolCall, ToolCall } from './types.js';

const EXPECTED =
  'classify() takes a tool call {tool, input, cwd?, mode?} or a Claude Code hook input {tool_name, tool_input, cwd?, permission_mode?}';

/** The call a library user passed, in either shape, or what is wrong with it. */
export function toolCallOf(given: ToolCall | HookToolCall): ToolCall | { error: string } {
  const value: unknown = given;
  if (!isObject(value)) return { error: `${EXPECTED}; it got ${value === null ? 'null' : typeof value}` };
  if (typeof value.tool === 'string' && value.tool !== '' && isObject(value.input)) return given as ToolCall;
  if ('tool_name' in value || 'tool_input' in value) {
    const call = callOf(value);
    return 'error' in call ? { error: `${EXPECTED}; in the hook input, ${call.error}` } : call;
  }
  const keys = Object.keys(value);
  return {
    error: `${EXPECTED}; it got an object with ${keys.length === 0 ? 'no keys' : `keys ${keys.join(', ')}`}`,
  };
}
