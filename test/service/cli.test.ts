import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hookConfig, runHttpHook } from '../../src/hooks/index.js';
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
function serve(env: Record<string, string>, cwd: string, options: string[] = []) {
  const c = spawn(process.execPath, [bin, 'serve', '--no-llm', ...options], { cwd, env });
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
    expect(hooks.http.hooks.PreToolUse[0].hooks[0]).toEqual({
      type: 'http',
      url: `${record?.url}/hook`,
      headers: { Authorization: `Bearer \${AUTOMODE_TOKEN}` },
      allowedEnvVars: ['AUTOMODE_TOKEN'],
      timeout: 60,
      onFailure: 'block',
    });
    expect(config.out).not.toContain(String(token));
    expect(config.err).toContain(`export AUTOMODE_TOKEN="$(cat ${join(dir, 'token')})"`);
    expect(hooks.forward.hooks.PreToolUse[0].hooks[0]).toEqual({
      type: 'command',
      command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/automode hook --forward',
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

  it('keeps its token across restarts, so the printed HTTP hook, its token from the environment, goes on answering', async () => {
    const { home, dir, env } = environment();
    const first = serve(env, home);
    await first.listening;
    const token = readToken(dir) ?? '';
    const printed = await run(['serve', '--print-hook-config'], env, home);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = serve(env, home);
    await second.listening;
    expect(readToken(dir)).toBe(token);
    // The printed hook, pointed at where the restarted service listens, run as Claude Code runs an HTTP hook.
    const http = JSON.parse(printed.out).http.hooks.PreToolUse[0].hooks[0];
    const hook = {
      ...http,
      url: `${readServiceRecord(dir)?.url}/hook`,
    };
    const config = hookConfig([
      {
        source: 'projectSettings',
        pointer: '/hooks',
        hooks: { PreToolUse: [{ matcher: '*', hooks: [hook] }] },
      },
    ]);
    const input = {
      hook_event_name: 'PreToolUse',
      session_id: 'r',
      cwd: home,
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
    };
    const entry = config.entries[0];
    if (!entry?.http) throw new Error(`no http hook: ${config.diagnostics.join('; ')}`);
    const answered = await runHttpHook({ ...entry, http: entry.http }, input, {
      cwd: home,
      env: { AUTOMODE_TOKEN: token },
    });
    expect(answered.status).toBe('success');
    expect(JSON.parse(answered.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
    const without = await runHttpHook({ ...entry, http: entry.http }, input, { cwd: home, env: {} });
    expect(without).toMatchObject({ status: 'failed', error: expect.stringContaining('401') });
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const rotated = serve(env, home, ['--rotate-token']);
    await rotated.listening;
    expect(readToken(dir)).toMatch(/^[0-9a-f]{64}$/);
    expect(readToken(dir)).not.toBe(token);
    const stale = await runHttpHook(
      { ...entry, http: { ...entry.http, url: `${readServiceRecord(dir)?.url}/hook` } },
      input,
      { cwd: home, env: { AUTOMODE_TOKEN: token } },
    );
    expect(stale).toMatchObject({ status: 'failed', error: expect.stringContaining('401') });
    rotated.child.kill('SIGTERM');
    expect(await rotated.exited).toBe(0);
  });
});
