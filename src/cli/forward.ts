import { request } from 'node:http';
import {
  isHookAnswer,
  PATHS,
  readServiceRecord,
  readToken,
  serviceDir,
  TOKEN_HEADER,
} from '../service/index.js';

/** Where a forwarding hook sends the call, and the token it shows. */
export interface ForwardTarget {
  socketPath?: string;
  url?: URL;
  token: string;
}

/**
 * What became of a forwarded call: the service's answer; no service to answer (decide in-process); or a service
 * that answered badly (no decision: automode never allows on a bad answer).
 */
export type Forwarded =
  | { kind: 'answer'; body: string }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'bad'; reason: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Errors that mean nothing listens there. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOENT', 'ENOTSOCK', 'EADDRNOTAVAIL']);

/** Below Claude Code's own 60 s hook timeout, with room for the model to judge in the service. */
export const FORWARD_TIMEOUT_MS = 45_000;

/**
 * The target that `--forward` names: an empty value reads service.json in the service folder; a value that
 * starts with http:// is a loopback URL; anything else is a Unix socket's path. The token always comes from the
 * service folder. Undefined when no service is configured.
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
  const token = readToken(dir);
  if (!token) return undefined;
  if (socketPath) return { socketPath, token };
  let parsed: URL;
  try {
    parsed = new URL(url ?? '');
  } catch {
    return { error: `not a URL: ${url}` };
  }
  if (parsed.protocol !== 'http:' || !LOOPBACK.has(parsed.hostname))
    return { error: `the service must be at an http:// loopback address, not ${url}` };
  return { url: parsed, token };
}

/** Sends the hook input, exactly as received, to the service's hook path. */
export function forward(
  input: string,
  target: ForwardTarget,
  timeoutMs: number = FORWARD_TIMEOUT_MS,
): Promise<Forwarded> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (f: Forwarded) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(f);
    };
    const where = target.socketPath
      ? { socketPath: target.socketPath }
      : { host: target.url?.hostname.replace(/^\[|\]$/g, ''), port: target.url?.port || 80 };
    const req = request(
      {
        ...where,
        method: 'POST',
        path: PATHS.hook,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(input),
          [TOKEN_HEADER]: `Bearer ${target.token}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (e) => settle({ kind: 'bad', reason: `answer broke off: ${e.message}` }));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          const body = Buffer.concat(chunks).toString('utf8');
          if (status === 413) settle({ kind: 'unavailable', reason: 'the hook input is too large for it' });
          else if (status < 200 || status > 299) settle({ kind: 'bad', reason: `answered HTTP ${status}` });
          else if (!isHookAnswer(body))
            settle({ kind: 'bad', reason: 'answered with something not a hook answer' });
          else settle({ kind: 'answer', body });
        });
      },
    );
    const timer = setTimeout(() => {
      settle({ kind: 'bad', reason: `did not answer within ${timeoutMs} ms` });
      req.destroy();
    }, timeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code && UNREACHABLE.has(e.code))
        settle({ kind: 'unavailable', reason: `is not reachable (${e.code})` });
      else settle({ kind: 'bad', reason: `failed: ${e.message}` });
    });
    req.end(input);
  });
}
