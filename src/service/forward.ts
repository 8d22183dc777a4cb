import { PATHS, readServiceRecord, readToken, serviceDir } from './discovery.js';
import { isHookAnswer } from './protocol.js';
import { requestWithToken } from './request.js';
import { NO_FIRST_BYTE } from './wire.js';

/** Where a forwarding hook sends the call, and the token it shows. */
export interface ForwardTarget {
  socketPath?: string;
  url?: URL;
  token: string;
  /** For an automatic service (`hook --serve`): the key's text, which the service checks against its own. */
  key?: string;
}

/**
 * What became of a forwarded call: the service's answer; no service to answer (decide in-process); a listener
 * that is not the service, never sent the token nor obeyed (decide in-process); or a service that answered badly
 * (no decision: automode never allows on a bad answer).
 */
export type Forwarded =
  | { kind: 'answer'; body: string }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'untrusted'; reason: string }
  | { kind: 'bad'; reason: string }
  | { kind: 'hung'; reason: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Errors that mean nothing listens there. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTSOCK', 'EADDRNOTAVAIL']);

/** Below Claude Code's own 60 s hook timeout, with room for the model to judge in the service. */
export const FORWARD_TIMEOUT_MS = 45_000;

/**
 * An automatic service (`hook --serve`) sends its answer's headers as soon as it has read a call it will
 * decide, before deciding: one that has sent nothing this long after the call is stopped or stuck, and the hook
 * decides in-process.
 */
export const ANSWER_START_MS = 2_000;

/**
 * The target that `--forward` names: an empty value reads service.json in the service folder; a value that
 * starts with a scheme must be an http:// loopback URL; anything else is a Unix socket's path. The token always
 * comes from the service folder. Undefined when no service is configured; an error for a value that is no
 * loopback URL, whether or not a service runs.
 */
export function forwardTarget(
  value: string,
  env: NodeJS.ProcessEnv = process.env,
): ForwardTarget | { error: string } | undefined {
  const dir = serviceDir(env);
  let socketPath: string | undefined;
  let url: string | undefined;
  if (value === '') {
    const record = readServiceRecord(dir);
    if (!record) return undefined;
    if (record.socket) socketPath = record.socket;
    else url = record.url;
  } else if (/^[a-z]+:\/\//i.test(value)) url = value;
  else socketPath = value;
  let parsed: URL | undefined;
  if (!socketPath) {
    try {
      parsed = new URL(url ?? '');
    } catch {
      return { error: `not a URL: ${url}` };
    }
    if (parsed.protocol !== 'http:' || !LOOPBACK.has(parsed.hostname))
      return { error: `the service must be at an http:// loopback address, not ${url}` };
  }
  const token = readToken(dir);
  if (!token) return undefined;
  return parsed ? { url: parsed, token } : { socketPath: socketPath as string, token };
}

/** Sends the hook input, exactly as received, to the service's hook path. */
export async function forward(
  input: string,
  target: ForwardTarget,
  timeoutMs: number = FORWARD_TIMEOUT_MS,
  firstByteMs?: number,
): Promise<Forwarded> {
  const record = target.socketPath ? { socket: target.socketPath } : { url: target.url?.href ?? '' };
  const where = target.socketPath ?? target.url?.href;
  let answer: Awaited<ReturnType<typeof requestWithToken>>;
  try {
    answer = await requestWithToken(record, target.token, {
      method: 'POST',
      // The key is JSON, so one line: the body's first line, the hook input after it.
      ...(target.key === undefined
        ? { path: PATHS.hook, body: input }
        : { path: PATHS.autoHook, body: `${target.key}\n${input}` }),
      timeoutMs,
      ...(firstByteMs !== undefined ? { firstByteMs } : {}),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code && UNREACHABLE.has(code)) return { kind: 'unavailable', reason: `is not reachable (${code})` };
    if (code === NO_FIRST_BYTE)
      return { kind: 'hung', reason: (e as Error).message.replace(/^the service /, '') };
    return { kind: 'bad', reason: `failed: ${(e as Error).message}` };
  }
  if ('unproven' in answer)
    return { kind: 'untrusted', reason: `what listens at ${where} ${answer.unproven}` };
  const { status, body, proven } = answer;
  if (!proven) return { kind: 'bad', reason: 'answered without the proof that it holds the token' };
  if (status === 413) return { kind: 'unavailable', reason: 'the hook input is too large for it' };
  if (status === 409) return { kind: 'unavailable', reason: 'decides for another configuration' };
  // 400 is the service's answer to an input it cannot read: the ask `automode hook` prints for it.
  const answered = (status >= 200 && status <= 299) || status === 400;
  if (!answered) return { kind: 'bad', reason: `answered HTTP ${status}` };
  if (!isHookAnswer(body)) return { kind: 'bad', reason: 'answered with something not a hook answer' };
  return { kind: 'answer', body };
}
