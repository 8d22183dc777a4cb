import { z } from 'zod';
import type { Message } from './types.js';

const MessageShape = z.looseObject({
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(z.looseObject({ type: z.string() })),
  stop_reason: z.string().nullable(),
  usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
});

/**
 * The message, when the body is one: the SDK hands back whatever a 200 carried (a string for a non-JSON body,
 * any JSON value), and a stream cut before `message_delta` leaves `stop_reason` null.
 */
export function checkMessage(body: unknown): { ok: true; message: Message } | { ok: false; message: string } {
  const parsed = MessageShape.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    return {
      ok: false,
      message: `response is not a message${where}: ${issue?.message ?? 'unexpected shape'}`,
    };
  }
  if (parsed.data.stop_reason === null) return { ok: false, message: 'response message has no stop_reason' };
  return { ok: true, message: body as Message };
}
