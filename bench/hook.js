// The command hook as Claude Code runs it: a new process per tool call. Each case is a real `node` process fed
// a real hook input on stdin; the cases take turns run by run, so that the machine's load falls on all of them.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** Wall time of one process, in ms, from spawn to exit. */
function timed(args, stdin, env) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0 || !out.trim()) reject(new Error(`${args.join(' ')} exited ${code}: ${out}`));
      else resolve(ms);
    });
    child.stdin.end(stdin);
  });
}

function stats(values) {
  const s = [...values].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  const r = (n) => Math.round(n * 10) / 10;
  return { median: r(median), p99: r(q(0.99)), mean: r(mean) };
}

export const hookSection = {
  name: 'hook',
  targets: [{ key: 'hookGitStatusRatio', label: 'hook git status / node floor (median)', max: 1.5 }],
  async run(opts) {
    const runs = Math.max(10, (opts?.runs ?? 3) * 10);
    const dir = mkdtempSync(join(tmpdir(), 'automode-bench-hook-'));
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.end(ANSWER));
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address();
      writeFileSync(join(dir, 'token'), 'bench');
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        AUTOMODE_MANAGED_SETTINGS: join(dir, 'managed.json'),
        AUTOMODE_SERVICE_DIR: dir,
      };
      const hook = [BIN, 'hook', '--no-llm'];
      const cases = {
        floor: [['-e', FLOOR], input('Bash', { command: 'git status' }, dir)],
        gitStatus: [hook, input('Bash', { command: 'git status' }, dir)],
        compound: [hook, input('Bash', { command: 'echo $(ls) && rm -rf build' }, dir)],
        read: [hook, input('Read', { file_path: join(dir, 'README.md') }, dir)],
        forward: [
          [...hook, `--forward=http://127.0.0.1:${port}`],
          input('Bash', { command: 'git status' }, dir),
        ],
      };
      const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
      for (const [args, stdin] of Object.values(cases)) await timed(args, stdin, env);
      for (let i = 0; i < runs; i++) {
        const names = Object.keys(cases);
        const order = i % 2 ? names.reverse() : names;
        for (const name of order) times[name].push(await timed(cases[name][0], cases[name][1], env));
      }
      const figures = { hookRuns: runs };
      for (const [name, values] of Object.entries(times)) {
        const s = stats(values);
        const key = `hook${name[0].toUpperCase()}${name.slice(1)}`;
        figures[`${key}MedianMs`] = s.median;
        figures[`${key}P99Ms`] = s.p99;
        figures[`${key}MeanMs`] = s.mean;
      }
      const floor = figures.hookFloorMedianMs;
      for (const name of ['gitStatus', 'compound', 'read', 'forward'])
        figures[`hook${name[0].toUpperCase()}${name.slice(1)}Ratio`] =
          Math.round((figures[`hook${name[0].toUpperCase()}${name.slice(1)}MedianMs`] / floor) * 100) / 100;
      return figures;
    } finally {
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
