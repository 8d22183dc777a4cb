// The cost of the sandbox per Bash command: `true` run with `bash -c` as the Bash tool runs it, on the host and
// inside the sandbox (the wrap by @anthropic-ai/sandbox-runtime, then bubblewrap), taking turns run by run. Also
// the one-off start (dependency check, proxies). Linux with bubblewrap, socat and ripgrep only
// (scripts/setup-sandbox.sh); elsewhere the section reports that it was skipped. The worst realistic case is
// measured too: the wrap in a big project (3,375 folders three levels deep, nested repositories and `.claude`
// folders among them), where the protected names below the project are looked for before every command.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize } from './stats.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function runBash(line, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}: ${err}`))));
  });
}

async function timed(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const round = (x) => Math.round(x * 10) / 10;

export const sandboxSection = {
  name: 'sandbox',
  targets: [
    { key: 'sandboxAddedMedianMs', label: 'sandboxed `true`, added time per command (median, ms)', max: 300 },
  ],
  async run(opts) {
    if (process.platform !== 'linux') return { sandboxSkipped: `not Linux (${process.platform})` };
    const { loadSettings } = await import(pathToFileURL(join(ROOT, 'dist/index.js')).href);
    const { Sandbox, stopSandboxRuntime } = await import(
      pathToFileURL(join(ROOT, 'dist/pipeline/index.js')).href
    );
    const base = mkdtempSync(join(tmpdir(), 'automode-bench-sandbox-'));
    const project = join(base, 'project');
    const home = join(base, 'home');
    mkdirSync(project);
    mkdirSync(home);
    try {
      const settings = await loadSettings({
        cwd: project,
        home,
        managedPath: join(base, 'managed.json'),
        env: {},
      });
      const sandbox = new Sandbox(settings, { enabled: true });
      let status;
      const startMs = await timed(async () => {
        status = await sandbox.status();
      });
      if (!status.available) return { sandboxSkipped: status.reason };
      const runs = Math.max(30, (opts?.runs ?? 3) * 10);
      const host = [];
      const boxed = [];
      const wrap = [];
      for (let i = 0; i < runs + 3; i++) {
        const h = await timed(() => runBash('true', project));
        let line;
        const w = await timed(async () => {
          line = await sandbox.wrap('true');
        });
        const b = w + (await timed(() => runBash(line, project)));
        sandbox.release();
        if (i < 3) continue;
        host.push(h);
        boxed.push(b);
        wrap.push(w);
      }
      const h = summarize(host);
      const b = summarize(boxed);
      const w = summarize(wrap);
      return {
        sandboxRuns: runs,
        sandboxStartMs: round(startMs),
        sandboxHostMedianMs: round(h.median),
        sandboxHostP99Ms: round(h.p99),
        sandboxHostMeanMs: round(h.mean),
        sandboxHostMinMs: round(h.min),
        sandboxHostMaxMs: round(h.max),
        sandboxedMedianMs: round(b.median),
        sandboxedP99Ms: round(b.p99),
        sandboxedMeanMs: round(b.mean),
        sandboxedMinMs: round(b.min),
        sandboxedMaxMs: round(b.max),
        sandboxWrapMedianMs: round(w.median),
        sandboxAddedMedianMs: round(b.median - h.median),
        sandboxAddedMeanMs: round(b.mean - h.mean),
        ...(await bigProject(base, settings, Sandbox, runs)),
      };
    } finally {
      await stopSandboxRuntime();
      rmSync(base, { recursive: true, force: true });
    }
  },
};

/** The wrap in a project of 15 × 15 × 15 folders, every 15th a repository and every 15th a `.claude` folder. */
async function bigProject(base, settings, Sandbox, runs) {
  const project = join(base, 'big');
  let folders = 0;
  for (let a = 0; a < 15; a++)
    for (let b = 0; b < 15; b++)
      for (let c = 0; c < 15; c++) {
        const at = join(project, `a${a}`, `b${b}`, `c${c}`);
        mkdirSync(at, { recursive: true });
        folders++;
        if (c === 0) mkdirSync(join(project, `a${a}`, `b${b}`, '.git', 'hooks'), { recursive: true });
        if (c === 1) mkdirSync(join(project, `a${a}`, `b${b}`, '.claude'), { recursive: true });
      }
  const sandbox = new Sandbox({ ...settings, cwd: project }, { enabled: true, cwd: project });
  const wrap = [];
  for (let i = 0; i < runs + 3; i++) {
    const w = await timed(() => sandbox.wrap('true'));
    if (i >= 3) wrap.push(w);
  }
  sandbox.close();
  const w = summarize(wrap);
  return {
    sandboxBigFolders: folders,
    sandboxBigWrapMedianMs: round(w.median),
    sandboxBigWrapP99Ms: round(w.p99),
    sandboxBigWrapMeanMs: round(w.mean),
  };
}
