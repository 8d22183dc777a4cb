import {
  AnthropicError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { retryAfterMs } from './retry.js';
import type { FailureKind } from './types.js';

/** One failed attempt: what it was, and whether another attempt may help. */
export interface AttemptFailure {
  kind: FailureKind;
  message: string;
  retryable: boolean;
  status?: number;
  retryAfterMs?: number;
}

/** A stream that closed before `message_stop`: the connection was cut, the answer is incomplete. */
export class StreamCutError extends Error {
  constructor() {
    super('stream ended before message_stop');
    this.name = 'StreamCutError';
  }
}

/** Maps what the SDK (or fetch under it) threw to a failure; anything unrecognised is `malformed`. */
export function classifyError(error: unknown): AttemptFailure {
  if (error instanceof StreamCutError) return { kind: 'network', message: error.message, retryable: true };
  if (error instanceof APIUserAbortError)
    return { kind: 'aborted', message: 'request aborted', retryable: false };
  if (error instanceof APIConnectionTimeoutError)
    return { kind: 'timeout', message: error.message, retryable: true };
  if (error instanceof APIConnectionError)
    return { kind: 'network', message: describe(error), retryable: true };
  if (error instanceof APIError) return fromApiError(error);
  if (error instanceof SyntaxError || causes(error).some((e) => e instanceof SyntaxError)) {
    return { kind: 'malformed', message: `response is not valid JSON: ${describe(error)}`, retryable: false };
  }
  if (isNetworkError(error)) return { kind: 'network', message: describe(error), retryable: true };
  const message = describe(error);
  if (!(error instanceof AnthropicError) && /authentication|api key|credential/i.test(message)) {
    return { kind: 'auth', message, retryable: false };
  }
  return { kind: 'malformed', message, retryable: false };
}

function fromApiError(error: APIError): AttemptFailure {
  const status = error.status;
  const message = error.apiMessage ? `${error.type ?? 'error'}: ${error.apiMessage}` : error.message;
  if (status === undefined) return fromErrorEvent(error.type, message);
  const failure = fromStatus(status, `${status} ${message}`, error.headers);
  if (failure.retryable && error.headers?.get('x-should-retry') === 'false') failure.retryable = false;
  return failure;
}

function fromStatus(status: number, message: string, headers: Headers | undefined): AttemptFailure {
  const withStatus = { status, message };
  if (status === 429) {
    return {
      kind: 'rate-limited',
      retryable: true,
      retryAfterMs: retryAfterMs(headers),
      ...withStatus,
    };
  }
  if (status === 529) {
    return { kind: 'overloaded', retryable: true, retryAfterMs: retryAfterMs(headers), ...withStatus };
  }
  if (status >= 500) {
    return { kind: 'server', retryable: true, retryAfterMs: retryAfterMs(headers), ...withStatus };
  }
  if (status === 401 || status === 403) return { kind: 'auth', retryable: false, ...withStatus };
  if (status === 408) return { kind: 'timeout', retryable: false, ...withStatus };
  return { kind: 'bad-request', retryable: false, ...withStatus };
}

/** An `event: error` inside a stream carries no status, only the error type. */
function fromErrorEvent(type: string | null, message: string): AttemptFailure {
  switch (type) {
    case 'overloaded_error':
      return { kind: 'overloaded', message, retryable: true };
    case 'rate_limit_error':
      return { kind: 'rate-limited', message, retryable: true };
    case 'timeout_error':
      return { kind: 'timeout', message, retryable: true };
    case 'authentication_error':
    case 'permission_error':
      return { kind: 'auth', message, retryable: false };
    case 'invalid_request_error':
    case 'not_found_error':
    case 'request_too_large':
      return { kind: 'bad-request', message, retryable: false };
    default:
      return { kind: 'server', message, retryable: true };
  }
}

const NETWORK_CODES = /^(UND_ERR|ECONN|EPIPE|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)/;

/** A connection that failed or was cut while the body was read (undici: `terminated`, `fetch failed`). */
function isNetworkError(error: unknown): boolean {
  return causes(error).some((e) => {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.test(code)) return true;
    return e instanceof TypeError && /^(terminated|fetch failed|other side closed)$/.test(e.message);
  });
}

function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  let e: unknown = error;
  while (e instanceof Error && chain.length < 8 && !chain.includes(e)) {
    chain.push(e);
    e = e.cause;
  }
  return chain;
}

function describe(error: unknown): string {
  const chain = causes(error).map((e) => e.message);
  if (chain.length === 0) return String(error);
  return [...new Set(chain)].join(': ');
}
