import { lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { PATHS, readServiceRecord, readToken, type ServiceRecord, TOKEN_HEADER } from './discovery.js';
import { bindingOf, CHALLENGE_HEADER, isProof, newChallenge, PROOF_HEADER } from './proof.js';
import { exchange, type WireAddress } from './wire.js';

export interface ServiceResponse {
  status: number;
  body: string;
  /** The service's proof that it holds the token, when the request carried a challenge. */
  proof?: string;
}

type Address = Pick<ServiceRecord, 'socket' | 'url'>;

/** One request to a running service, over its Unix socket when it has one, else over loopback HTTP. */
export async function requestService(
  record: Address,
  request: {
    method: 'GET' | 'POST';
    path: string;
    token?: string;
    body?: string;
    timeoutMs?: number;
    /** Fail (code NO_FIRST_BYTE) when the service has sent nothing this soon. */
    firstByteMs?: number;
    challenge?: string;
  },
): Promise<ServiceResponse> {
  const headers: Record<string, string> = {};
  if (request.token) headers[TOKEN_HEADER] = `Bearer ${request.token}`;
  if (request.challenge) headers[CHALLENGE_HEADER] = request.challenge;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const res = await exchange(
    addressOf(record),
    {
      method: request.method,
      path: request.path,
      headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    request.timeoutMs ?? 5_000,
    request.firstByteMs,
  );
  const proof = res.headers[PROOF_HEADER];
  return { status: res.status, body: res.body, ...(proof !== undefined ? { proof } : {}) };
}

function addressOf(record: Address): WireAddress {
  if (record.socket) return { socket: record.socket };
  const url = new URL(record.url ?? '');
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port) || 80 };
}

/** How the client reached the address, as the service binds its proof (see proof.ts). */
export function bindingFor(record: Address): string {
  return record.socket ? bindingOf(undefined) : bindingOf(Number(new URL(record.url ?? '').port) || 80);
}

/**
 * A request that carries the token, sent only once the listener proved it holds it (else `unproven`, and
 * nothing was sent); `proven` says whether the answer proves it too.
 */
export async function requestWithToken(
  record: Address,
  token: string,
  request: { method: 'GET' | 'POST'; path: string; body?: string; timeoutMs?: number; firstByteMs?: number },
): Promise<(ServiceResponse & { proven: boolean }) | { unproven: string }> {
  // Only this user (or root) can listen there, and they can read the token: a proof would add nothing.
  if (record.socket && ownSocket(record.socket))
    return { ...(await requestService(record, { ...request, token })), proven: true };
  const binding = bindingFor(record);
  const hello = newChallenge();
  const health = await requestService(record, {
    method: 'GET',
    path: PATHS.health,
    challenge: hello,
    timeoutMs: Math.min(request.timeoutMs ?? HANDSHAKE_TIMEOUT_MS, HANDSHAKE_TIMEOUT_MS),
  });
  if (!isProof(token, hello, binding, health.proof))
    return { unproven: 'does not prove that it holds the token (not the service of service.json)' };
  const challenge = newChallenge();
  const res = await requestService(record, { ...request, token, challenge });
  return { ...res, proven: isProof(token, challenge, binding, res.proof) };
}

const HANDSHAKE_TIMEOUT_MS = 5_000;

/**
 * Whether a Unix socket can only have been made by this user: a socket of this user's, in a folder of this
 * user's that nobody else may enter, whose parent (owned by this user or root) nobody else may change but by
 * the sticky bit's rules, so that the folder cannot be swapped for another after this check.
 */
export function ownSocket(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  try {
    const socket = lstatSync(path);
    const folder = lstatSync(dirname(path));
    const parent = lstatSync(dirname(dirname(path)));
    return (
      socket.isSocket() &&
      socket.uid === uid &&
      folder.isDirectory() &&
      folder.uid === uid &&
      (folder.mode & 0o077) === 0 &&
      parent.isDirectory() &&
      (parent.uid === uid || parent.uid === 0) &&
      ((parent.mode & 0o022) === 0 || (parent.mode & 0o1000) !== 0)
    );
  } catch {
    return false;
  }
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The record of the service that owns the folder, when its process is alive and answers its health check. */
export async function liveService(dir: string): Promise<ServiceRecord | undefined> {
  const record = readServiceRecord(dir);
  if (!record || !pidAlive(record.pid)) return undefined;
  try {
    const health = await requestService(record, { method: 'GET', path: PATHS.health, timeoutMs: 2_000 });
    return health.status === 200 ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The running service's status, or the reason there is none. */
export async function serviceStatus(
  dir: string,
): Promise<{ record: ServiceRecord; status: Record<string, unknown> } | { error: string }> {
  const record = readServiceRecord(dir);
  if (!record) return { error: `no service is running (no readable service.json in ${dir})` };
  if (!pidAlive(record.pid)) return { error: `no service is running (process ${record.pid} is gone)` };
  try {
    const token = readToken(dir);
    if (!token) return { error: `no service is running (no readable token in ${dir})` };
    const res = await requestWithToken(record, token, { method: 'GET', path: PATHS.status });
    if ('unproven' in res) return { error: `what listens there ${res.unproven}` };
    if (!res.proven) return { error: 'the service answered without the proof that it holds the token' };
    if (res.status !== 200) return { error: `the service answered ${res.status}: ${res.body}` };
    return { record, status: JSON.parse(res.body) as Record<string, unknown> };
  } catch (e) {
    return { error: `the service does not answer: ${(e as Error).message}` };
  }
}
