import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PROFILE = path.join(ROOT, 'defaults/profiles/read-services.json');

let home: string;
beforeAll(async () => {
  home = await mkdtemp(path.join(os.tmpdir(), 'automode-profile-bound-'));
});
afterAll(() => rm(home, { recursive: true, force: true }));

/** Runs the CLI as a real process with a heap bound; kills it past `ms`. */
function critique(
  ms: number,
): Promise<{ code: number | null; signal: string | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        '--max-old-space-size=512',
        path.join(ROOT, 'bin/automode.js'),
        'critique',
        '--json',
        '--no-llm',
        PROFILE,
      ],
      { cwd: home, env: { ...process.env, HOME: home, ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '' } },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
  });
}

describe('critique of the read-services profile stays within bounds', () => {
  // Measured: about 18 s and 150 MB of memory on 2 shared cores. The bounds are generous for a loaded machine;
  // an automata check that grows without bound exhausts the 512 MB heap or the time and fails here.
  it('finishes with a report within 512 MB of heap and 4 minutes', async () => {
    const r = await critique(240_000);
    expect(r.signal, r.err).toBeNull();
    expect([0, 1], r.err).toContain(r.code);
    const report = JSON.parse(r.out);
    // The profile turns most service reads on through `automode.readServices`; its rules are the rest.
    expect(report.summary.rules).toBeGreaterThan(80);
    expect(report.configErrors).toBe(0);
  }, 300_000);
});
