import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readServiceRecord, readToken } from '../../src/service/index.js';

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

function environment() {
  const home = mkdtempSync(join(tmpdir(), 'automode-serve-cli-'));
  return {
    home,
    dir: join(home, 'service'),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      AUTOMODE_SERVICE_DIR: join(home, 'service'),
      AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
    },
  };
}

function run(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const c = spawn(process.execPath, [bin, ...args], { cwd, env });
    let out = '';
    let err = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.stderr.on('data', (d) => {
      err += d;
    });
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Starts `automode serve` and resolves once it says where it listens. */
function serve(env: Record<string, string>, cwd: string) {
  const c = spawn(process.execPath, [bin, 'serve', '--no-llm'], { cwd, env });
  child = c;
  let err = '';
  const exited = new Promise<number | null>((resolve) => c.on('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    c.stderr.on('data', (d) => {
      err += d;
      if (err.includes('listening on')) resolve();
    });
    c.on('exit', () => reject(new Error(`automode serve exited: ${err}`)));
  });
  return { child: c, exited, listening, stderr: () => err };
}

describe('automode serve as a process', () => {
  it('reports its status, prints the hook config, and stops cleanly on SIGTERM', async () => {
    const { home, dir, env } = environment();
    expect((await run(['serve', '--status'], env, home)).code).toBe(1);
    const service = serve(env, home);
    await service.listening;
    const record = readServiceRecord(dir);
    const token = readToken(dir);
    expect(record?.pid).toBe(service.child.pid);

    const answer = await fetch(`${record?.url}/hook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 'abc',
        cwd: home,
        tool_name: 'Bash',
        tool_input: { command: 'git status' },
      }),
    });
    expect(JSON.parse(await answer.text()).hookSpecificOutput.permissionDecision).toBe('allow');

    const status = await run(['serve', '--status', '--json'], env, home);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({
      running: true,
      pid: service.child.pid,
      sessions: 1,
      decisions: 1,
      byDecision: { allow: 1 },
    });
    const text = await run(['serve', '--status'], env, home);
    expect(text.out).toMatch(new RegExp(`pid ${service.child.pid}`));
    expect(text.out).toContain('decisions: 1');

    const config = await run(['serve', '--print-hook-config'], env, home);
    expect(config.code).toBe(0);
    const hooks = JSON.parse(config.out);
    expect(hooks.http.hooks.PreToolUse[0].hooks[0]).toMatchObject({
      type: 'http',
      url: `${record?.url}/hook`,
      headers: { Authorization: `Bearer ${token}` },
      onFailure: 'block',
    });
    expect(hooks.forward.hooks.PreToolUse[0].hooks[0]).toMatchObject({
      command: expect.stringContaining('automode hook --forward'),
      onFailure: 'block',
    });

    const second = await run(['serve', '--no-llm'], env, home);
    expect(second.code).toBe(2);
    expect(second.err).toContain('already running');

    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(existsSync(join(dir, 'service.json'))).toBe(false);
    expect(existsSync(join(dir, 'service.sock'))).toBe(false);
    expect(service.stderr()).toMatch(/session=abc PreToolUse tool=Bash decision=allow .*ms=/);
    expect((await run(['serve', '--status'], env, home)).code).toBe(1);
  });
});
