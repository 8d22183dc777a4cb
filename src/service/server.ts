import { timingSafeEqual } from 'node:crypto';
import { chmodSync, rmdirSync, rmSync, utimesSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { makeDirectories } from '../shared/index.js';
import { type AnswerOptions, answerFor, readHookInput } from './answer.js';
import { autoKeyDigest, STARTING_FILE } from './auto.js';
import type { Decider, Decision } from './decider.js';
import { PATHS, RECORD_FILE, type ServiceRecord, TOKEN_FILE, TOKEN_HEADER } from './discovery.js';
import { type FolderLock, FolderLockedError, lockFolder } from './lock.js';
import { proveTo } from './proof.js';
import { hookOutput } from './protocol.js';
import { liveService } from './request.js';
import { serviceToken, writePrivate } from './token.js';

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const SOCKET_FILE = 'service.sock';

export interface ServiceOptions {
  decider: Decider;
  /** The folder of service.json, the token and the default socket. */
  dir: string;
  version: string;
  answer?: AnswerOptions;
  /** Loopback port (0: any free one); false: no HTTP listener. */
  port?: number | false;
  /** Unix socket path (default: service.sock in the folder); false: none. */
  socket?: string | false;
  maxBodyBytes?: number;
  log?: (decision: Decision) => void;
  /** A new token even when the folder's token file holds a valid one (which is otherwise kept). */
  rotateToken?: boolean;
  /**
   * An automatic service's key (`hook --serve`), as the SHA-256 of its text in hex: the service then answers
   * calls to PATHS.autoHook, whose body's first line is the key of the hook that sent it, only when it is this
   * one (409 otherwise: the hook decides in-process).
   */
  autoKey?: string;
}

export interface RunningService {
  readonly record: ServiceRecord;
  readonly token: string;
  /** Stops accepting, lets requests in flight finish, removes service.json and the socket. */
  close(): Promise<void>;
}

/**
 * Starts the service, holding the folder's lock until it is closed; refuses (FolderLockedError) when another
 * service holds it, or when a live service of a version without the lock owns the folder. Nothing of the
 * folder's owner (socket, token, service.json) is touched before the lock is taken.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { dir } = options;
  makeDirectories(dir, 0o700);
  chmodSync(dir, 0o700);
  const lock = await lockFolder(dir);
  try {
    const live = await liveService(dir);
    if (live) throw new FolderLockedError(dir, live.pid, join(dir, RECORD_FILE));
    return await listenLocked(options, lock);
  } catch (e) {
    lock.release();
    throw e;
  }
}

async function listenLocked(options: ServiceOptions, lock: FolderLock): Promise<RunningService> {
  const { dir, decider } = options;
  const token = serviceToken(join(dir, TOKEN_FILE), options.rotateToken === true);

  const expected = Buffer.from(`Bearer ${token}`);
  const authorized = (req: IncomingMessage) => {
    const given = Buffer.from(String(req.headers[TOKEN_HEADER] ?? ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const autoKey = Buffer.from(options.autoKey ?? '');
  const isAutoKey = (text: string) => {
    const given = Buffer.from(autoKeyDigest(text));
    return given.length === autoKey.length && timingSafeEqual(given, autoKey);
  };
  const startedAt = new Date();
  // An automatic service's record is touched as it decides (every few seconds at most): the hook that finds
  // too many running asks the one idle longest to leave.
  let usedAt = 0;
  const markUsed = () => {
    const now = Date.now();
    if (now - usedAt < 5_000) return;
    usedAt = now;
    try {
      utimesSync(join(dir, RECORD_FILE), now / 1000, now / 1000);
    } catch {}
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === PATHS.health) {
      if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' }, { allow: 'GET' });
      return send(res, 200, { ok: true });
    }
    const auto = path === PATHS.autoHook && options.autoKey !== undefined;
    if (path !== PATHS.hook && !auto && path !== PATHS.status) return send(res, 404, { error: 'not found' });
    const method = path === PATHS.status ? 'GET' : 'POST';
    if (req.method !== method) return send(res, 405, { error: 'method not allowed' }, { allow: method });
    if (!authorized(req)) return refuse(req, res, 401, 'a valid token is required');
    if (path === PATHS.status) return send(res, 200, status());
    let body = await readBody(req, maxBody);
    if (body === undefined) return refuse(req, res, 413, `the body is over ${maxBody} bytes`);
    if (auto) {
      const end = body.indexOf('\n');
      if (end < 0 || !isAutoKey(body.slice(0, end)))
        return refuse(req, res, 409, 'this service decides for another configuration');
      body = body.slice(end + 1);
    }
    const t0 = performance.now();
    const input = readHookInput(body);
    if (input.event === undefined) return sendText(res, 200, '{}');
    if ('error' in input)
      return sendText(
        res,
        400,
        hookOutput(input.event, 'ask', `automode could not read the hook input: ${input.error}`),
      );
    if (auto) {
      // The headers now, the answer once decided (the connection's end delimits it): a hook that hears nothing
      // within ANSWER_START_MS knows this service is stopped or stuck, not judging a slow call.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
    }
    let answer: string;
    try {
      const { verdict, reused } = await decider.decide(input);
      answer = answerFor(input.event, verdict, options.answer, input.call.cwd);
      options.log?.(decider.describe(input, verdict, reused, performance.now() - t0));
    } catch (e) {
      answer = hookOutput(input.event, 'ask', `automode failed, so it asks: ${(e as Error).message}`);
    }
    if (auto) {
      res.end(answer);
      markUsed();
      return;
    }
    return sendText(res, 200, answer);
  };

  const status = () => ({
    pid: process.pid,
    version: options.version,
    startedAt: startedAt.toISOString(),
    uptimeSeconds: Math.round((Date.now() - startedAt.getTime()) / 1000),
    cwd: process.cwd(),
    memoryBytes: process.memoryUsage.rss(),
    ...decider.status(),
  });

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    proveTo(token, req, res);
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: String((e as Error)?.message ?? e) });
      else res.destroy();
    });
  };

  const servers: http.Server[] = [];
  const record: ServiceRecord = {
    pid: process.pid,
    version: options.version,
    startedAt: startedAt.toISOString(),
  };
  try {
    if (options.port !== false) {
      const server = http.createServer(listener);
      await listen(server, { host: '127.0.0.1', port: options.port ?? 0 });
      servers.push(server);
      record.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
    if (options.socket !== false) {
      const socket = options.socket ?? join(dir, SOCKET_FILE);
      rmSync(socket, { force: true });
      const server = http.createServer(listener);
      await listen(server, { path: socket });
      chmodSync(socket, 0o600);
      servers.push(server);
      record.socket = socket;
    }
    if (servers.length === 0) throw new Error('the service needs a port or a socket to listen on');
  } catch (e) {
    await Promise.all(servers.map(closeServer));
    throw e;
  }
  writePrivate(join(dir, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
  // An automatic service is found by its record from now on: the claim of the hook that started it is done.
  if (options.autoKey !== undefined) rmSync(join(dir, STARTING_FILE), { force: true });

  let closing: Promise<void> | undefined;
  return {
    record,
    token,
    close() {
      closing ??= (async () => {
        await Promise.all(servers.map(closeServer));
        decider.close();
        rmSync(join(dir, RECORD_FILE), { force: true });
        if (record.socket) rmSync(record.socket, { force: true });
        // An automatic service leaves nothing behind; its token goes while it still holds the lock, so that a
        // service started meanwhile (which waits for the lock) never loses the token it will write.
        if (options.autoKey !== undefined) rmSync(join(dir, TOKEN_FILE), { force: true });
        lock.release();
        if (options.autoKey !== undefined)
          try {
            rmdirSync(dir);
          } catch {}
      })();
      return closing;
    },
  };
}

function listen(
  server: http.Server,
  where: { host: string; port: number } | { path: string },
): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

/** The body as text, or undefined as soon as it is over the limit (the rest is not read). */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.off('data', onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Answers and closes the connection: what is left of the body is never read. */
function refuse(req: IncomingMessage, res: ServerResponse, code: number, error: string): void {
  res.shouldKeepAlive = false;
  send(res, code, { error }, { connection: 'close' });
  res.on('finish', () => req.socket.destroySoon());
}

function send(
  res: ServerResponse,
  code: number,
  value: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  sendText(res, code, JSON.stringify(value), headers);
}

function sendText(
  res: ServerResponse,
  code: number,
  text: string,
  headers: http.OutgoingHttpHeaders = {},
): void {
  res.writeHead(code, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}
