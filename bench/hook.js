// The ways to wire automode into Claude Code, per tool call, in one run: the command hook deciding in its own
// process, the command hook with a service of its own (`--serve`), the command hook forwarding to a running
// `automode serve`, and Claude Code's HTTP hook posting to that service. Beside them, the floors: a node process that prints a fixed answer, and an HTTP round trip to a
// server that answers a fixed body. Each process case is a real `node` process fed a real hook input on stdin;
// the cases take turns run by run, so that the machine's load falls on all of them.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin/automode.js');
const ANSWER =
  '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"bench"}}';
const FLOOR = `let n=0;process.stdin.on('data',(c)=>{n+=c.length}).on('end',()=>{process.stdout.write(${JSON.stringify(`${ANSWER}\n`)})})`;

const input = (tool, toolInput, cwd) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: toolInput,
    cwd,
    session_id: 'bench',
  });

/**
 * One process, timed by bash's `time` around it alone: wall time from spawn to exit and the CPU time (user +
 * system) it used, in ms. CPU time is the steadier of the two on a shared machine.
 */
function timed(args, stdin, env) {
  return new Promise((resolve, reject) => {
    const script = 'TIMEFORMAT="%3R %3U %3S"; time "$@" 2>/dev/null';
    const child = spawn('bash', ['-c', script, 'bash', process.execPath, ...args], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const times = /([\d.]+) ([\d.]+) ([\d.]+)\s*$/.exec(err);
      if (code !== 0 || !out.trim() || !times)
        reject(new Error(`${args.join(' ')} exited ${code}: ${out}${err}`));
      else resolve({ wall: Number(times[1]) * 1000, cpu: (Number(times[2]) + Number(times[3])) * 1000 });
    });
    child.stdin.end(stdin);
  });
}

/** One POST on a fresh connection, as a hook call makes it; resolves with the wall time in ms. */
function post(url, token, body) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const req = request(
      `${url}/hook`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let out = '';
        res.on('data', (c) => {
          out += c;
        });
        res.on('end', () => {
          if (res.statusCode !== 200 || !out) reject(new Error(`HTTP ${res.statusCode}: ${out}`));
          else resolve(Number(process.hrtime.bigint() - start) / 1e6);
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `automode serve` in a child process, answering once its service.json is written. */
async function startService(dir, env) {
  const child = spawn(process.execPath, [BIN, 'serve', '--no-llm'], {
    env,
    stdio: ['ignore', 'ignore', 'ignore'],
  });
  const record = join(dir, 'service', 'service.json');
  for (let i = 0; i < 300 && !existsSync(record); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(record)) throw new Error('automode serve did not start');
  const { url } = JSON.parse(readFileSync(record, 'utf8'));
  const token = readFileSync(join(dir, 'service', 'token'), 'utf8').trim();
  return { child, url, token };
}

/** Waits until the service `automode hook --serve` started under HOME `dir` listens on its socket. */
async function autoServiceListening(dir) {
  const root = join(dir, '.automode', 'auto');
  for (let i = 0; i < 300; i++) {
    if (existsSync(root) && readdirSync(root).some((name) => existsSync(join(root, name, 'service.sock'))))
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('automode hook --serve started no service');
}

function stopAutoServices(dir) {
  const root = join(dir, '.automode', 'auto');
  for (const name of existsSync(root) ? readdirSync(root) : []) {
    try {
      process.kill(JSON.parse(readFileSync(join(root, name, 'service.json'), 'utf8')).pid, 'SIGTERM');
    } catch {}
  }
}

const CALLS = {
  GitStatus: (dir) => input('Bash', { command: 'git status' }, dir),
  Compound: (dir) => input('Bash', { command: 'echo $(ls) && rm -rf build' }, dir),
  Read: (dir) => input('Read', { file_path: join(dir, 'README.md') }, dir),
};

export const hookSection = {
  name: 'hook',
  // The command hook's targets are those of `automode hook --serve`, the command README recommends; the hook
  // deciding in its own process (`command…`) is reported beside it.
  targets: [
    ...['GitStatus', 'Compound', 'Read'].flatMap((call) => [
      {
        key: `serve${call}Ratio`,
        label: `command hook --serve, ${call} / node floor (median wall)`,
        max: 1.5,
      },
      {
        key: `serve${call}P99Ratio`,
        label: `command hook --serve, ${call} / node floor (p99 wall)`,
        max: 1.5,
      },
      {
        key: `serve${call}CpuRatio`,
        label: `command hook --serve, ${call} / node floor (median CPU)`,
        max: 1.5,
      },
      { key: `forward${call}Ratio`, label: `forwarding hook, ${call} / node floor (median wall)`, max: 1.3 },
      {
        key: `forward${call}CpuRatio`,
        label: `forwarding hook, ${call} / node floor (median CPU)`,
        max: 1.3,
      },
    ]),
    { key: 'httpGitStatusRatio', label: 'HTTP hook, git status / fixed-answer HTTP (median)', max: 2 },
  ],
  async run(opts) {
    const runs = Math.max(10, (opts?.runs ?? 3) * 10);
    const dir = mkdtempSync(join(tmpdir(), 'automode-bench-hook-'));
    const fixed = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(ANSWER));
    });
    await new Promise((r) => fixed.listen(0, '127.0.0.1', r));
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      AUTOMODE_MANAGED_SETTINGS: join(dir, 'managed.json'),
      AUTOMODE_SERVICE_DIR: join(dir, 'service'),
    };
    const service = await startService(dir, env);
    try {
      const fixedUrl = `http://127.0.0.1:${fixed.address().port}`;
      const hook = [BIN, 'hook', '--no-llm'];
      const cases = { floor: () => timed(['-e', FLOOR], CALLS.GitStatus(dir), env) };
      cases.fixedHttp = () => post(fixedUrl, 'none', CALLS.GitStatus(dir));
      for (const [name, call] of Object.entries(CALLS)) {
        cases[`command${name}`] = () => timed(hook, call(dir), env);
        cases[`serve${name}`] = () => timed([...hook, '--serve'], call(dir), env);
        cases[`forward${name}`] = () => timed([...hook, '--forward'], call(dir), env);
        cases[`http${name}`] = () => post(service.url, service.token, call(dir));
      }
      const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
      const cpu = {};
      const record = (name, value) => {
        if (typeof value === 'number') times[name].push(value);
        else {
          times[name].push(value.wall);
          cpu[name] ??= [];
          cpu[name].push(value.cpu);
        }
      };
      for (const run of Object.values(cases)) await run();
      // The first --serve call started the hook's own service: the runs measure the calls it answers.
      await autoServiceListening(dir);
      for (let i = 0; i < runs; i++) {
        const names = Object.keys(cases);
        for (const name of i % 2 ? names.reverse() : names) record(name, await cases[name]());
      }
      const figures = { hookRuns: runs };
      const put = (name, values) => {
        for (const [stat, value] of Object.entries(summarize(values)))
          figures[`${name}${stat === 'p99' ? 'P99' : stat[0].toUpperCase() + stat.slice(1)}Ms`] =
            Math.round(value * 10) / 10;
      };
      for (const [name, values] of Object.entries(times)) put(name, values);
      for (const [name, values] of Object.entries(cpu)) put(`${name}Cpu`, values);
      const ratio = (a, b, stat = 'Median') =>
        Math.round((figures[`${a}${stat}Ms`] / figures[`${b}${stat}Ms`]) * 100) / 100;
      for (const name of Object.keys(CALLS)) {
        for (const way of ['command', 'serve', 'forward']) {
          figures[`${way}${name}Ratio`] = ratio(`${way}${name}`, 'floor');
          figures[`${way}${name}P99Ratio`] = ratio(`${way}${name}`, 'floor', 'P99');
          figures[`${way}${name}CpuRatio`] = ratio(`${way}${name}Cpu`, 'floorCpu');
          figures[`${way}${name}CpuP99Ratio`] = ratio(`${way}${name}Cpu`, 'floorCpu', 'P99');
        }
        figures[`http${name}Ratio`] = ratio(`http${name}`, 'fixedHttp');
      }
      return figures;
    } finally {
      stopAutoServices(dir);
      service.child.kill('SIGTERM');
      await new Promise((r) => service.child.once('close', r));
      await new Promise((r) => fixed.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
