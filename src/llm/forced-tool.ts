import type { z } from 'zod';
import type { Message, ModelFailure } from './types.js';

export type ToolInputResult<T> = { ok: true; input: T; toolUseId: string } | ModelFailure;

/**
 * The input of the one call to `toolName` in the answer, validated by `schema`. Anything short of exactly that
 * is a failure: a refusal, output cut at `max_tokens` (or the context window), an unfinished turn, a text-only
 * answer, a call to another tool, several calls to this one, or an input the schema rejects.
 */
export function forcedToolResult<T>(
  message: Message,
  toolName: string,
  schema: z.ZodType<T>,
): ToolInputResult<T> {
  const fail = (kind: ModelFailure['kind'], text: string): ModelFailure => ({
    ok: false,
    kind,
    message: text,
  });
  switch (message.stop_reason) {
    case 'refusal':
      return fail('refusal', `the model refused${textOf(message, ': ')}`);
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return fail(
        'max-tokens',
        `the answer was cut off (${message.stop_reason}) before the ${toolName} call was complete`,
      );
    case 'tool_use':
    case 'end_turn':
    case 'stop_sequence':
      break;
    default:
      return fail('malformed', `the turn did not finish (stop_reason ${String(message.stop_reason)})`);
  }
  const calls = message.content.filter((b) => b.type === 'tool_use');
  const mine = calls.filter((b) => b.name === toolName);
  if (mine.length === 0) {
    if (calls.length > 0) {
      const names = calls.map((b) => b.name).join(', ');
      return fail('malformed', `expected a call to ${toolName}, the model called ${names}`);
    }
    return fail(
      'malformed',
      `expected a call to ${toolName}, the model answered with text only${textOf(message, ': ')}`,
    );
  }
  if (mine.length > 1)
    return fail('malformed', `expected one call to ${toolName}, the model made ${mine.length}`);
  const call = mine[0]!;
  const parsed = schema.safeParse(call.input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
    return fail('malformed', `the ${toolName} input does not match its schema: ${issues.join('; ')}`);
  }
  return { ok: true, input: parsed.data, toolUseId: call.id };
}

function textOf(message: Message, lead: string): string {
  const text = message.content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join(' ')
    .trim();
  if (!text) return '';
  return `${lead}"${text.length > 200 ? `${text.slice(0, 200)}…` : text}"`;
}
