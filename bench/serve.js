// The `automode serve` section of bench/run.js: HTTP round trips to the service against a fixed-answer node:http
// server, and the service's memory after 10k and 100k decisions. The service runs in a child (with --expose-gc,
// so that heap figures are taken after a collection); this process is the client.

import { fork } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLE = 3000;
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
  const service = await startService({ decider, dir: join(dir, 'service'), version: 'bench', socket: false });
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

function post(agent, url, token, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/hook`,
      {
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

async function timed(agent, url, token, cwd, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const body = inputFor(i, cwd);
    const t0 = process.hrtime.bigint();
    await post(agent, url, token, body);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return summarize(times);
}

async function load(agent, url, token, cwd, from, to, parallel = 8) {
  let next = from;
  const worker = async () => {
    while (next < to) await post(agent, url, token, inputFor(next++, cwd));
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

const round = (v, d = 3) => Math.round(v * 10 ** d) / 10 ** d;
const mb = (v) => round(v / 1024 / 1024, 1);

export const serveSection = {
  name: 'serve',
  targets: [
    { key: 'serveHttpVsFixedMedian', label: 'serve HTTP / fixed-answer server, median', max: 2 },
    { key: 'serveHeapGrowth', label: 'serve heap after 100k / after 10k decisions', max: 1.2 },
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
      const { url, token, fixed, cwd } = await receive();
      await timed(agent, fixed, token, cwd, 500);
      await timed(agent, url, token, cwd, 500);
      const fixedTimes = await timed(agent, fixed, token, cwd, SAMPLE);
      const serveTimes = await timed(agent, url, token, cwd, SAMPLE);
      await load(agent, url, token, cwd, 0, 10_000 - 2 * 500 - SAMPLE);
      const at10k = await memory();
      await load(agent, url, token, cwd, 10_000, 100_000);
      const at100k = await memory();
      return {
        serveHttpMedianMs: round(serveTimes.median),
        serveHttpP99Ms: round(serveTimes.p99),
        serveHttpMeanMs: round(serveTimes.mean),
        fixedHttpMedianMs: round(fixedTimes.median),
        fixedHttpP99Ms: round(fixedTimes.p99),
        fixedHttpMeanMs: round(fixedTimes.mean),
        serveHttpVsFixedMedian: round(serveTimes.median / fixedTimes.median, 2),
        serveRss10kMb: mb(at10k.rss),
        serveHeap10kMb: mb(at10k.heapUsed),
        serveRss100kMb: mb(at100k.rss),
        serveHeap100kMb: mb(at100k.heapUsed),
        serveHeapGrowth: round(at100k.heapUsed / at10k.heapUsed, 2),
      };
    } finally {
      agent.destroy();
      service.send('stop');
    }
  },
};

if (process.argv.includes('--serve-bench-child')) await child();
