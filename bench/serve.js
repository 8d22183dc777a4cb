// The `automode serve` section of bench/run.js: HTTP round trips to the service against a fixed-answer node:http
// server; throughput and latency with 10, 50 and 200 concurrent clients over loopback HTTP and the Unix socket;
// and the service's memory after 10k and 50k decisions. The service runs in a child (with --expose-gc, so that
// heap figures are taken after a collection); this process is the client.

import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLE = 3000;
/** Requests per concurrency level and transport. */
const PER_LEVEL = 4000;
const CLIENTS = [10, 50, 200];
const FIXED =
  '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fixed"}}';

async function child() {
  const dist = (p) => import(pathToFileURL(join(ROOT, 'dist', p)).href);
  const { loadSettings } = await dist('index.js');
  const { createDecider, startService } = await dist('service/index.js');
  const dir = mkdtempSync(join(tmpdir(), 'automode-bench-serve-'));
  const decider = createDecider({
    load: (cwd) => loadSettings({ cwd: cwd ?? dir, home: dir, managedPath: join(dir, 'none.json'), env: {} }),
  });
  await decider.warm();
  const service = await startService({ decider, dir: join(dir, 'service'), version: 'bench' });
  const fixed = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(FIXED));
  });
  await new Promise((resolve) => fixed.listen(0, '127.0.0.1', resolve));
  process.on('message', (m) => {
    if (m === 'memory') {
      globalThis.gc?.();
      globalThis.gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.send({ rss, heapUsed });
    } else if (m === 'stop') {
      fixed.close();
      service.close().then(() => process.exit(0));
    }
  });
  process.send({
    url: service.record.url,
    socket: service.record.socket,
    token: service.token,
    fixed: `http://127.0.0.1:${fixed.address().port}`,
    cwd: dir,
  });
}

function inputFor(i, cwd) {
  const kind = i % 3;
  const tool_input =
    kind === 0
      ? { command: 'git status' }
      : kind === 1
        ? { command: 'echo $(ls) && rm -rf build' }
        : { file_path: join(cwd, 'src', `file-${i % 100}.ts`) };
  return JSON.stringify({
    session_id: `0b6f7c1e-5d2a-4f8e-9c3b-${String(i % 50).padStart(12, '0')}`,
    transcript_path: join(cwd, 'no-transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: kind === 2 ? 'Read' : 'Bash',
    tool_input,
    tool_use_id: `toolu_${i}`,
  });
}

/** Where to send: `url` (loopback HTTP) or `socket` (a Unix socket's path). */
function post(agent, target, token, body) {
  const where = target.socket
    ? { socketPath: target.socket }
    : { host: '127.0.0.1', port: Number(new URL(target.url).port) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        ...where,
        path: '/hook',
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () =>
          res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function timed(agent, target, token, cwd, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const body = inputFor(i, cwd);
    const t0 = process.hrtime.bigint();
    await post(agent, target, token, body);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return summarize(times);
}

/** Requests `from` to `to` sent by `clients` concurrent clients, each on its own kept-alive connection. */
async function load(target, token, cwd, from, to, clients = 8) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const times = [];
  let next = from;
  const worker = async () => {
    while (next < to) {
      const body = inputFor(next++, cwd);
      const t0 = process.hrtime.bigint();
      await post(agent, target, token, body);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  };
  const t0 = process.hrtime.bigint();
  try {
    await Promise.all(Array.from({ length: clients }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  return { ...summarize(times), perSecond: (to - from) / seconds };
}

const round = (v, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
const mb = (v) => round(v / 1024 / 1024, 1);

export const serveSection = {
  name: 'serve',
  targets: [
    { key: 'serveHttpVsFixedMedian', label: 'serve HTTP / fixed-answer server, median', max: 2 },
    { key: 'serveHeapGrowth', label: 'serve heap after 50k / after 10k decisions', max: 1.2 },
  ],
  async run() {
    const service = fork(fileURLToPath(import.meta.url), ['--serve-bench-child'], {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const messages = [];
    const waiters = [];
    service.on('message', (m) => {
      const waiter = waiters.shift();
      if (waiter) waiter(m);
      else messages.push(m);
    });
    const receive = () =>
      messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r));
    const memory = async () => {
      service.send('memory');
      return receive();
    };
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const { url, socket, token, fixed, cwd } = await receive();
      const http_ = { url };
      const unix = { socket };
      await timed(agent, { url: fixed }, token, cwd, 500);
      await timed(agent, http_, token, cwd, 500);
      await timed(agent, unix, token, cwd, 500);
      const fixedTimes = await timed(agent, { url: fixed }, token, cwd, SAMPLE);
      const serveTimes = await timed(agent, http_, token, cwd, SAMPLE);
      await load(http_, token, cwd, 1000 + SAMPLE, 10_000);
      const at10k = await memory();
      let sent = 10_000;
      const figures = {};
      for (const [name, target] of [
        ['Http', http_],
        ['Socket', unix],
      ])
        for (const clients of CLIENTS) {
          const run = await load(target, token, cwd, sent, sent + PER_LEVEL, clients);
          sent += PER_LEVEL;
          figures[`serve${name}${clients}PerSecond`] = Math.round(run.perSecond);
          figures[`serve${name}${clients}MedianMs`] = round(run.median);
          figures[`serve${name}${clients}P99Ms`] = round(run.p99);
        }
      await load(http_, token, cwd, sent, 50_000);
      const at50k = await memory();
      return {
        serveHttpMedianMs: round(serveTimes.median),
        serveHttpP99Ms: round(serveTimes.p99),
        serveHttpMeanMs: round(serveTimes.mean),
        fixedHttpMedianMs: round(fixedTimes.median),
        fixedHttpP99Ms: round(fixedTimes.p99),
        fixedHttpMeanMs: round(fixedTimes.mean),
        serveHttpVsFixedMedian: round(serveTimes.median / fixedTimes.median, 2),
        ...figures,
        serveRss10kMb: mb(at10k.rss),
        serveHeap10kMb: mb(at10k.heapUsed),
        serveRss50kMb: mb(at50k.rss),
        serveHeap50kMb: mb(at50k.heapUsed),
        serveHeapGrowth: round(at50k.heapUsed / at10k.heapUsed, 2),
      };
    } finally {
      agent.destroy();
      service.send('stop');
    }
  },
};

if (process.argv.includes('--serve-bench-child')) await child();
