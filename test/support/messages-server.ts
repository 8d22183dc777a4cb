/**
 * A loopback HTTP server that speaks the Anthropic Messages API (JSON and streaming) and Message Batches, so
 * tests run the real SDK over real HTTP. Each request to `POST /v1/messages` takes the next scripted reply;
 * when the queue is empty the fallback answers, and without one the server answers a 400 saying so.
 *
 *   const server = await startMessagesServer([reply.rateLimited({ retryAfter: 1 }), reply.text('hi')]);
 *   const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
 *   ...
 *   await server.close();
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { type BatchItem, BatchStore } from './messages-batches.js';
import type { Reply } from './messages-replies.js';
import { buildMessage, counterIds, encodeSse, errorBody, sseEvents } from './messages-wire.js';

export type { ContentSpec, Reply, StopReason, UsageNumbers } from './messages-replies.js';
export { reply } from './messages-replies.js';

/** The fields of a Messages request body that tests look at; the rest is there too. */
export interface RequestBody {
  model?: string;
  stream?: boolean;
  max_tokens?: number;
  system?: unknown;
  messages?: unknown[];
  tools?: unknown[];
  tool_choice?: unknown;
  [key: string]: unknown;
}

export interface RecordedRequest {
  /** Order of arrival, over every route. */
  index: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there was none or it did not parse. */
  body: RequestBody | undefined;
  raw: string;
  receivedAt: number;
  /** Set when a responder is asked for one request of a batch (those are not in `requests`). */
  batch?: { id: string; customId: string };
}

export type Responder = Reply | ((request: RecordedRequest) => Reply | Promise<Reply>);

export interface MessagesServerOptions {
  /** Retrieves until a batch ends (default 1: the first retrieve sees it ended). */
  batchPolls?: number;
}

export interface MessagesServer {
  /** `http://127.0.0.1:<port>`, for `baseURL` or `ANTHROPIC_BASE_URL`. */
  readonly url: string;
  /** Every HTTP request received, in order. */
  readonly requests: RecordedRequest[];
  /** The requests to `POST /v1/messages`. */
  messageRequests(): RecordedRequest[];
  /** Appends replies to the queue. */
  script(...responders: Responder[]): void;
  /** Answers when the queue is empty; `undefined` restores the "not scripted" 400. */
  fallback(responder: Responder | undefined): void;
  /** Scripted replies not used yet. */
  pending(): number;
  batchPolls: number;
  /** Stops listening, ends every delay and destroys open sockets. */
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

/** An array is the queue of replies; a single responder is the fallback for every request. */
export async function startMessagesServer(
  script?: Responder[] | Responder,
  options: MessagesServerOptions = {},
): Promise<MessagesServer> {
  const queue: Responder[] = Array.isArray(script) ? [...script] : [];
  let fallback: Responder | undefined = Array.isArray(script) ? undefined : script;
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const inFlight = new Set<AbortController>();
  const ids = counterIds();
  let url = '';
  let closed = false;
  const batches = new BatchStore(ids, () => url);

  const state = {
    batchPolls: options.batchPolls ?? 1,
    next(request: RecordedRequest): Promise<Reply> {
      const responder = queue.shift() ?? fallback;
      if (responder === undefined) {
        const message = `messages-server: no scripted reply for request #${request.index} ${request.path}`;
        return Promise.resolve({ type: 'error', status: 400, errorType: 'invalid_request_error', message });
      }
      return Promise.resolve(typeof responder === 'function' ? responder(request) : responder);
    },
  };

  const server = http.createServer((req, res) => {
    const abort = new AbortController();
    inFlight.add(abort);
    res.on('close', () => {
      abort.abort();
      inFlight.delete(abort);
    });
    handle(req, res, abort.signal).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        send(res, 500, { 'content-type': 'application/json' }, errorBody('api_error', String(error)));
      } else {
        res.destroy();
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    const body = parseJson(raw);
    const recorded: RecordedRequest = {
      index: requests.length,
      method,
      path,
      headers: req.headers,
      body,
      raw: raw ?? '',
      receivedAt: Date.now(),
    };
    requests.push(recorded);
    if (raw === undefined) return sendError(res, 413, 'request_too_large', 'request body too large');

    if (method === 'POST' && path === '/v1/messages') {
      if (!body) return sendError(res, 400, 'invalid_request_error', 'body is not a JSON object');
      return answer(res, await state.next(recorded), body, signal);
    }
    if (method === 'POST' && path === '/v1/messages/batches') return createBatch(res, recorded);
    const match = /^\/v1\/messages\/batches\/([^/]+)(\/results|\/cancel)?$/.exec(path);
    if (match) {
      const [, id = '', action] = match;
      if (method === 'GET' && action === undefined) return sendJson(res, batches.poll(id));
      if (method === 'POST' && action === '/cancel') return sendJson(res, batches.cancel(id));
      if (method === 'GET' && action === '/results') {
        const jsonl = batches.results(id);
        if (jsonl === undefined) return sendError(res, 404, 'not_found_error', `no results for batch ${id}`);
        return send(res, 200, { 'content-type': 'application/x-jsonl' }, jsonl);
      }
    }
    sendError(res, 404, 'not_found_error', `${method} ${path} is not served here`);
  }

  async function createBatch(res: ServerResponse, recorded: RecordedRequest): Promise<void> {
    const items = recorded.body?.requests;
    if (!Array.isArray(items) || !items.every(isBatchItem)) {
      return sendError(res, 400, 'invalid_request_error', 'requests: expected [{custom_id, params}]');
    }
    const replyFor = (item: BatchItem, id: string) => {
      const body = item.params as RequestBody;
      const one = { ...recorded, body, raw: JSON.stringify(body), path: '/v1/messages' };
      return state.next({ ...one, batch: { id, customId: item.custom_id } });
    };
    sendJson(res, await batches.create(items, replyFor, state.batchPolls));
  }

  async function answer(res: ServerResponse, reply: Reply, body: RequestBody, signal: AbortSignal) {
    if (reply.type === 'hang') return sleep(Number.POSITIVE_INFINITY, signal);
    await sleep(reply.delayMs ?? 0, signal);
    if (signal.aborted) return;
    const requestId = ids.next('req');
    switch (reply.type) {
      case 'drop':
        res.socket?.destroy();
        return;
      case 'raw':
        return send(res, reply.status, { 'request-id': requestId, ...reply.headers }, reply.body);
      case 'error': {
        const headers = { 'content-type': 'application/json', 'request-id': requestId, ...reply.headers };
        return send(res, reply.status, headers, errorBody(reply.errorType, reply.message, requestId));
      }
      case 'message': {
        const message = buildMessage(reply, body, ids);
        if (body.stream === true) return stream(res, reply, message, requestId, signal);
        const text = JSON.stringify(message);
        if (reply.dropAfterEvents !== undefined) return dropMidBody(res, text, requestId);
        return send(res, 200, { 'content-type': 'application/json', 'request-id': requestId }, text);
      }
    }
  }

  async function stream(
    res: ServerResponse,
    reply: Extract<Reply, { type: 'message' }>,
    message: ReturnType<typeof buildMessage>,
    requestId: string,
    signal: AbortSignal,
  ): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': requestId,
    });
    const events = sseEvents(message);
    for (let i = 0; i < events.length; i++) {
      if (i > 0) await sleep(reply.eventDelayMs ?? 0, signal);
      if (reply.stall && i === reply.stall.afterEvents) await sleep(reply.stall.ms, signal);
      if (signal.aborted) return;
      if (reply.endAfterEvents === i) break;
      if (reply.dropAfterEvents === i) {
        res.socket?.destroy();
        return;
      }
      if (reply.streamError?.afterEvents === i) {
        const { errorType, message: text } = reply.streamError;
        res.end(encodeSse({ event: 'error', data: JSON.parse(errorBody(errorType, text)) }));
        return;
      }
      await write(res, encodeSse(events[i]!));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    requests,
    messageRequests: () => requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages'),
    script: (...responders) => void queue.push(...responders),
    fallback: (responder) => {
      fallback = responder;
    },
    pending: () => queue.length,
    get batchPolls() {
      return state.batchPolls;
    },
    set batchPolls(n: number) {
      state.batchPolls = n;
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      for (const abort of inFlight) abort.abort();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      return done;
    },
  };
}

function isBatchItem(x: unknown): x is BatchItem {
  const item = x as BatchItem | null;
  return typeof item === 'object' && item !== null && typeof item.custom_id === 'string' && !!item.params;
}

/** The body as text, or undefined past the size limit. */
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
  });
}

function parseJson(raw: string | undefined): RequestBody | undefined {
  if (!raw) return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as RequestBody)
      : undefined;
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), ...headers });
  res.end(body);
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  send(res, status, { 'content-type': 'application/json' }, errorBody(type, message));
}

function sendJson(res: ServerResponse, value: object | undefined): void {
  if (value === undefined) sendError(res, 404, 'not_found_error', 'no such batch');
  else send(res, 200, { 'content-type': 'application/json' }, JSON.stringify(value));
}

/** Headers and half the body, then the socket is destroyed: the client sees the response cut short. */
function dropMidBody(res: ServerResponse, text: string, requestId: string): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'request-id': requestId,
  });
  res.write(text.slice(0, Math.floor(text.length / 2)), () => res.socket?.destroy());
}

/** Writes and waits until the chunk is handed to the socket, so that a later destroy does not swallow it. */
function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(chunk, () => resolve());
  });
}

/** Resolves after `ms`, or at once when the signal aborts (the client left or the server closed). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    signal.addEventListener('abort', done, { once: true });
  });
}
