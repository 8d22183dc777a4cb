import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/client.js';
import { createRecorder, createReplayClient, parseRecording } from '../../src/llm/recording.js';
import {
  isLoopbackHost,
  isSameHostRedirect,
  upgradeToHttps,
  type WebFetchToolOptions,
} from '../../src/pipeline/tools/web-fetch.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';
import { run, setup } from './helpers.js';

/** A loopback web server: each path is one behaviour; it counts connections and requests. */
interface PageServer {
  url: string;
  port: number;
  connections: number;
  paths: string[];
  /** Resolves when the big body's response is closed, with whether it was closed before it ended. */
  bigClosed: Promise<boolean>;
  close(): Promise<void>;
}

const HTML = `<!doctype html><html><head><title>Guide</title><style>p { color: red }</style></head><body>
<h1>Getting started</h1>
<h2>Install</h2>
<p>Read <a href="https://docs.example.test/install">the install notes</a> first, then run <code>npm i</code>.</p>
<pre><code class="language-js">const answer = 42;
console.log(answer);</code></pre>
<script>document.write('not text')</script>
</body></html>`;

async function startPageServer(): Promise<PageServer> {
  const sockets = new Set<Socket>();
  let closedBig: (early: boolean) => void = () => {};
  const bigClosed = new Promise<boolean>((resolve) => {
    closedBig = resolve;
  });
  const state = { connections: 0, paths: [] as string[] };
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    state.paths.push(url);
    const port = (server.address() as AddressInfo).port;
    switch (url) {
      case '/page.html':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return void res.end(HTML);
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end('plain notes: version 3');
      case '/same':
        res.writeHead(302, { location: '/page.html' });
        return void res.end();
      case '/other':
        res.writeHead(301, { location: `http://localhost:${port}/page.html` });
        return void res.end();
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('no such page');
      case '/big': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(16 * 1024, 'a');
        let sent = 0;
        res.on('close', () => closedBig(!res.writableFinished));
        const pump = () => {
          while (!res.destroyed && sent < 50 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        return pump();
      }
      case '/declared':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(64 * 1024) });
        res.write('a'.repeat(100)); // the rest never comes: only the declared length can fail the fetch
        return;
      case '/slow':
        return; // never answers
      default:
        res.writeHead(404);
        res.end();
    }
  });
  server.on('connection', (socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    paths: state.paths,
    bigClosed,
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let pages: PageServer;
let api: MessagesServer;

beforeAll(async () => {
  pages = await startPageServer();
  api = await startMessagesServer();
});

afterAll(async () => {
  await pages.close();
  await api.close();
});

beforeEach(() => {
  api.fallback(reply.text('The page explains how to install.'));
});

const ALLOW = { permissions: { allow: ['WebFetch(domain:127.0.0.1)', 'WebFetch(domain:example.test)'] } };

function client() {
  return createModelClient({
    apiKey: 'test-key',
    baseURL: api.url,
    model: 'claude-test',
    retry: { maxRetries: 0 },
  });
}

async function fetchSetup(options: WebFetchToolOptions = {}, project: object = ALLOW) {
  return setup({ project, webFetch: { model: client(), timeoutMs: 5000, ...options } });
}

/** The text of the user message of the last Messages request. */
function lastPrompt(): string {
  const body = api.messageRequests().at(-1)?.body;
  const messages = body?.messages as { content: string }[];
  return messages[0]!.content;
}

describe('WebFetch: which URLs are fetched over https', () => {
  it('upgrades http to https unless the host is loopback', () => {
    const up = (u: string) => upgradeToHttps(new URL(u)).href;
    expect(up('http://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(up('http://docs.example.test:8080/')).toBe('https://docs.example.test:8080/');
    expect(up('https://example.com/')).toBe('https://example.com/');
    for (const local of [
      'http://127.0.0.1:3000/x',
      'http://localhost/',
      'http://app.localhost/',
      'http://[::1]:80/',
    ]) {
      expect(up(local)).toBe(new URL(local).href);
    }
    expect(isLoopbackHost('127.10.0.1')).toBe(true);
    expect(isLoopbackHost('localhost.example.com')).toBe(false);
    expect(isLoopbackHost('10.0.0.1')).toBe(false);
  });

  it('follows a redirect only to the same scheme, host and port', () => {
    const same = (a: string, b: string) => isSameHostRedirect(new URL(a), new URL(b));
    expect(same('https://a.test/x', 'https://a.test/y')).toBe(true);
    expect(same('https://a.test/x', 'https://b.test/x')).toBe(false);
    expect(same('https://a.test/x', 'https://www.a.test/x')).toBe(false);
    expect(same('https://a.test/x', 'http://a.test/x')).toBe(false);
    expect(same('https://a.test/x', 'https://a.test:8443/x')).toBe(false);
    expect(same('https://a.test/x', 'https://user:pw@a.test/x')).toBe(false);
  });

  it('requests an http URL of another host over https, through the pipeline', async () => {
    const seen: string[] = [];
    const fake: typeof fetch = async (input) => {
      seen.push(String(input));
      return new Response('hello', { status: 200, headers: { 'content-type': 'text/plain' } });
    };
    const { ctx } = await fetchSetup({ fetch: fake });
    const r = await run(ctx, 'WebFetch', { url: 'http://example.test/readme', prompt: 'What does it say?' });
    expect(r.result.error).toBeUndefined();
    expect(seen).toEqual(['https://example.test/readme']);
  });
});

describe('WebFetch through the pipeline', () => {
  it('turns HTML into Markdown (headings, links, code) and answers with the model', async () => {
    const { ctx } = await fetchSetup();
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/page.html`, prompt: 'How do I install it?' });
    expect(r.result.error).toBeUndefined();
    expect(r.text).toBe('The page explains how to install.');
    const prompt = lastPrompt();
    expect(prompt).toContain('# Getting started');
    expect(prompt).toContain('## Install');
    expect(prompt).toContain('[the install notes](https://docs.example.test/install)');
    expect(prompt).toContain('`npm i`');
    expect(prompt).toContain('```js\nconst answer = 42;\nconsole.log(answer);\n```');
    expect(prompt).not.toContain('not text');
    expect(prompt).not.toContain('color: red');
    expect(prompt).toContain('How do I install it?');
    const body = api.messageRequests().at(-1)!.body!;
    expect(body.model).toBe('claude-test');
    expect(body.tools).toBeUndefined();
  });

  it('passes text that is not HTML as it is', async () => {
    const { ctx } = await fetchSetup();
    await run(ctx, 'WebFetch', { url: `${pages.url}/notes.txt`, prompt: 'Which version?' });
    expect(lastPrompt()).toContain('---\nplain notes: version 3\n---');
  });

  it('follows a redirect within the same host', async () => {
    const { ctx } = await fetchSetup();
    const before = pages.paths.length;
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/same`, prompt: 'Summarise' });
    expect(r.text).toBe('The page explains how to install.');
    expect(pages.paths.slice(before)).toEqual(['/same', '/page.html']);
  });

  it('does not follow a redirect to another host: the model is told where it leads', async () => {
    const { ctx } = await fetchSetup();
    const before = { paths: pages.paths.length, model: api.messageRequests().length };
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/other`, prompt: 'Summarise' });
    expect(r.result.error).toBeUndefined();
    const target = `http://localhost:${pages.port}/page.html`;
    expect(r.text).toBe(
      [
        'REDIRECT DETECTED: The URL redirects to a different host.',
        '',
        `Original URL: ${pages.url}/other`,
        `Redirect URL: ${target}`,
        'Status: 301',
        '',
        'To complete your request, I need to fetch content from the redirected URL. Please use WebFetch again with these parameters:',
        `- url: "${target}"`,
        '- prompt: "Summarise"',
      ].join('\n'),
    );
    expect(pages.paths.slice(before.paths)).toEqual(['/other']);
    expect(api.messageRequests().length).toBe(before.model);
  });

  it('fails on a status that is not a success', async () => {
    const { ctx } = await fetchSetup();
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/missing`, prompt: 'Summarise' });
    expect(r.result.error?.stage).toBe('execution');
    expect(r.text).toContain(`${pages.url}/missing answered 404 Not Found`);
  });

  it('stops reading a body over the limit, with an error, and closes the connection', async () => {
    const { ctx } = await fetchSetup({ maxBytes: 256 * 1024 });
    const before = api.messageRequests().length;
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/big`, prompt: 'Summarise' });
    expect(r.result.error?.stage).toBe('execution');
    expect(r.text).toContain(`the response of ${pages.url}/big is larger than 262144 bytes`);
    expect(await pages.bigClosed).toBe(true);
    expect(api.messageRequests().length).toBe(before);
  });

  it('fails at once on a declared length over the limit', async () => {
    const { ctx } = await fetchSetup({ maxBytes: 1024, timeoutMs: 3000 });
    const started = Date.now();
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/declared`, prompt: 'Summarise' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.text).toContain(`the response of ${pages.url}/declared is larger than 1024 bytes`);
  });

  it('times out on a server that does not answer', async () => {
    const { ctx } = await fetchSetup({ timeoutMs: 300 });
    const started = Date.now();
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/slow`, prompt: 'Summarise' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.result.error?.stage).toBe('execution');
    expect(r.text).toContain(`WebFetch of ${pages.url}/slow timed out after 300 ms`);
  });

  it('rejects a URL that is not http or https, or carries credentials, before any request', async () => {
    const { ctx } = await fetchSetup();
    const before = pages.connections;
    const ftp = await run(ctx, 'WebFetch', { url: 'ftp://127.0.0.1/file', prompt: 'x' });
    expect(ftp.result.error?.stage).toBe('validation');
    const creds = await run(ctx, 'WebFetch', { url: `http://user:pw@127.0.0.1:${pages.port}/`, prompt: 'x' });
    expect(creds.result.error?.stage).toBe('validation');
    expect(pages.connections).toBe(before);
  });

  it('never contacts a host a WebFetch(domain:…) deny rule names', async () => {
    // example.test reaches the loopback server through this fetch: first allowed, then denied.
    let calls = 0;
    const toLoopback: typeof fetch = (input, init) => {
      calls++;
      return fetch(String(input).replace(/^https?:\/\/example\.test\//, `${pages.url}/`), init);
    };
    const url = 'https://example.test/page.html';
    const allowed = await fetchSetup({ fetch: toLoopback });
    const requests = pages.paths.length;
    const ok = await run(allowed.ctx, 'WebFetch', { url, prompt: 'Summarise' });
    expect(ok.result.error).toBeUndefined();
    expect(pages.paths.slice(requests)).toEqual(['/page.html']);

    const denied = await fetchSetup(
      { fetch: toLoopback },
      { permissions: { allow: ['WebFetch(domain:127.0.0.1)'], deny: ['WebFetch(domain:example.test)'] } },
    );
    calls = 0;
    const connections = pages.connections;
    const seen = pages.paths.length;
    const r = await run(denied.ctx, 'WebFetch', { url, prompt: 'Summarise' });
    expect(r.result.error?.stage).toBe('permission');
    expect(r.text).toContain('WebFetch(domain:example.test)');
    expect(calls).toBe(0);
    expect(pages.connections).toBe(connections);
    expect(pages.paths.length).toBe(seen);
  });

  it('fails when the model gives no answer', async () => {
    api.fallback(reply.overloaded());
    const { ctx } = await fetchSetup();
    const r = await run(ctx, 'WebFetch', { url: `${pages.url}/notes.txt`, prompt: 'Which version?' });
    expect(r.result.error?.stage).toBe('execution');
    expect(r.text).toContain('the model gave no answer (overloaded');
  });

  it("records the model's answers and replays them without the API", async () => {
    const file = path.join(os.tmpdir(), `automode-webfetch-${process.pid}-${Date.now()}.jsonl`);
    const recorder = createRecorder(client(), file);
    const live = await fetchSetup({ model: recorder });
    const input = { url: `${pages.url}/page.html`, prompt: 'How do I install it?' };
    expect((await run(live.ctx, 'WebFetch', input)).text).toBe('The page explains how to install.');
    expect(await recorder.flush()).toEqual({ ok: true, written: 1 });

    const parsed = parseRecording(await readFile(file, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    const replay = createReplayClient(parsed.exchanges, { model: 'claude-test' });
    api.fallback(reply.text('a different answer'));
    const before = api.messageRequests().length;
    const replayed = await fetchSetup({ model: replay });
    expect((await run(replayed.ctx, 'WebFetch', input)).text).toBe('The page explains how to install.');
    expect(api.messageRequests().length).toBe(before);
  });
});
