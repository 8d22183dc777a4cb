import { type Anthropic, AnthropicError } from '@anthropic-ai/sdk';
import { type AttemptFailure, classifyError, StreamCutError } from './errors.js';
import type { ResolvedRequest } from './types.js';

export type AttemptOutcome = { ok: true; body: unknown } | ({ ok: false } & AttemptFailure);

/**
 * One HTTP request, ended by `limitMs` or by the caller's signal whatever the SDK does: the SDK is given an
 * abort signal, and its promise is raced against that signal so nothing waits on a stuck body read.
 */
export async function attemptOnce(
  sdk: Anthropic,
  request: ResolvedRequest,
  stream: boolean,
  limitMs: number,
  signal: AbortSignal | undefined,
): Promise<AttemptOutcome> {
  limitMs = Math.max(1, Math.ceil(limitMs));
  const controller = new AbortController();
  let ended: 'timeout' | 'aborted' | undefined;
  const stop = (why: 'timeout' | 'aborted') => {
    ended ??= why;
    controller.abort();
  };
  const timer = setTimeout(() => stop('timeout'), limitMs);
  const onAbort = () => stop('aborted');
  signal?.addEventListener('abort', onAbort, { once: true });
  const stopped = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(new Error('attempt stopped')), { once: true });
  });
  stopped.catch(() => {});
  const options = { signal: controller.signal, timeout: limitMs + 1000, maxRetries: 0 };
  try {
    const work = stream
      ? streamed(sdk, request, options)
      : sdk.messages.create({ ...request, stream: false }, options);
    work.catch(() => {});
    return { ok: true, body: await Promise.race([work, stopped]) };
  } catch (error) {
    if (ended === 'timeout') {
      return {
        ok: false,
        kind: 'timeout',
        message: `no complete answer within ${limitMs} ms`,
        retryable: true,
      };
    }
    if (ended === 'aborted') return { ok: false, kind: 'aborted', message: 'call aborted', retryable: false };
    return { ok: false, ...classifyError(error) };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The SDK's stream helper. A stream that closes before `message_stop` was cut off, not finished: the helper
 * then either returns the partial message or rejects with its own bare error (a failure inside the stream
 * reaches us as an error with a cause, or as an API error).
 */
async function streamed(
  sdk: Anthropic,
  request: ResolvedRequest,
  options: { signal: AbortSignal; timeout: number; maxRetries: number },
): Promise<unknown> {
  const runner = sdk.messages.stream(request, options);
  let stopped = false;
  runner.on('streamEvent', (event) => {
    if (event.type === 'message_stop') stopped = true;
  });
  const message = await runner.finalMessage().catch((error: unknown) => {
    const bare =
      error instanceof AnthropicError &&
      Object.getPrototypeOf(error) === AnthropicError.prototype &&
      error.cause === undefined;
    throw !stopped && bare ? new StreamCutError() : error;
  });
  if (!stopped) throw new StreamCutError();
  return message;
}
