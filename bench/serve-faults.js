// The `serve-faults` section of bench/run.js: what a service of `automode hook --serve` costs and how a call
// fares when it is hung. Memory: the resident size of one automatic service (from /proc) after it has answered a
// hundred calls of three kinds. Hung: each run starts a service, stops it (SIGSTOP) and times one hook call, which
// decides in its own process after the service has sent nothing for 1.5 s and replaces it.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(ROOT, 'bin/automode.js');

const input = (cwd, command) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    cwd,
    session_id: 'b',
  });

function hook(env, cwd, command) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'hook', '--no-llm', '--serve'], { cwd, env });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || !out.trim()) reject(new Error(`hook --serve exited ${code}: ${out}`));
      else resolve(Number(process.hrtime.bigint() - t0) / 1e6);
    });
    child.stdin.end(input(cwd, command));
  });
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid of the automatic service under HOME `home` that listens, other than `not`. */
async function servicePid(home, not) {
  const root = join(home, '.automode', 'auto');
  for (let i = 0; i < 400; i++) {
    for (const name of existsSync(root) ? readdirSync(root) : []) {
      try {
        const { pid } = JSON.parse(readFileSync(join(root, name, 'service.json'), 'utf8'));
        if (pid !== not && alive(pid) && existsSync(join(root, name, 'service.sock'))) return pid;
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('hook --serve started no service');
}

const rssMb = (pid) => {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : Number.NaN;
};

export const serveFaultsSection = {
  name: 'serve-faults',
  targets: [
    {
      key: 'autoServiceRssMb',
      label: 'one hook --serve service, resident memory after 100 calls (MB)',
      max: 150,
    },
    {
      key: 'hungServiceCallP99Ms',
      label: 'hook --serve call when its service is stopped (p99 wall, ms)',
      max: 6000,
    },
  ],
  async run(opts) {
    const runs = Math.max(5, (opts?.runs ?? 3) * 3);
    const home = mkdtempSync(join(tmpdir(), 'automode-bench-faults-'));
    const project = join(home, 'project');
    mkdirSync(project);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
    };
    const pids = [];
    try {
      await hook(env, project, 'git status');
      let pid = await servicePid(home);
      pids.push(pid);
      const commands = ['git status', 'echo $(ls) && rm -rf build', 'cat README.md | grep x'];
      for (let i = 0; i < 100; i++) await hook(env, project, commands[i % 3]);
      const figures = { autoServiceRssMb: rssMb(pid) };
      const hung = [];
      for (let i = 0; i < runs; i++) {
        process.kill(pid, 'SIGSTOP');
        hung.push(await hook(env, project, 'rm -rf /'));
        const old = pid;
        pid = await servicePid(home, old);
        pids.push(pid);
      }
      const s = summarize(hung);
      figures.hungServiceCallRuns = runs;
      figures.hungServiceCallMedianMs = Math.round(s.median);
      figures.hungServiceCallP99Ms = Math.round(s.p99);
      return figures;
    } finally {
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
      rmSync(home, { recursive: true, force: true });
    }
  },
};
