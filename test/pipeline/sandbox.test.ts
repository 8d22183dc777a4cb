import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ToolResultMessage } from '../../src/pipeline/messages.js';
import { textOf } from '../../src/pipeline/messages.js';
import { runTools } from '../../src/pipeline/run-tools.js';
import { stopSandboxRuntime } from '../../src/pipeline/sandbox/runtime.js';
import { collect, recordingHandler, run } from './helpers.js';
import { permission, projects, requireSandboxPrograms } from './sandbox-helpers.js';

const made = projects();
const project = made.make;

let server: http.Server;
let port: number;

beforeAll(async () => {
  requireSandboxPrograms();
  server = http.createServer((_req, res) => res.end('hello from the host\n'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.close();
  await stopSandboxRuntime();
  await made.remove();
});

const ENABLED = { sandbox: { enabled: true } };

describe.skipIf(process.platform !== 'linux')('the Bash tool in the sandbox (bubblewrap)', () => {
  test(`the runtime library runs through runTools on this Node (${process.version})`, async () => {
    const s = await project(ENABLED);
    const block = {
      type: 'tool_use' as const,
      id: 'toolu_node',
      name: 'Bash',
      input: { command: 'mkdir out && echo "in:$SANDBOX_RUNTIME"' },
    };
    const messages = await collect(runTools([block], s.ctx));
    const result = messages.at(-1) as ToolResultMessage;
    expect(permission(messages)).toMatchObject({ decision: 'allow', by: 'sandbox' });
    expect(result.block.is_error).toBeFalsy();
    expect(textOf(result.block.content)).toBe('in:1\n');
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(20);
  });

  test("writes land in the project and the session's temp folder, not elsewhere", async () => {
    // Every question answered yes: the sandbox alone decides where the writes land.
    const s = await project(ENABLED, { handler: recordingHandler('allow').handler });
    const inTmp = path.join(tmpdir(), `automode-sandbox-${process.pid}-${Date.now()}`);
    const outside = path.join(s.outside, 'escaped.txt');
    const r = await run(s.ctx, 'Bash', {
      command: `echo a > made.txt && echo b > "$TMPDIR/b" && cp "$TMPDIR/b" made-b.txt && echo c > ${outside}`,
    });
    expect(r.result.block.is_error).toBe(true);
    expect(r.text).toContain('Read-only file system');
    expect(await readFile(path.join(s.cwd, 'made.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(path.join(s.cwd, 'made-b.txt'), 'utf8')).toBe('b\n');
    expect(existsSync(outside)).toBe(false);
    const host = await run(s.ctx, 'Bash', { command: `echo b > ${inTmp}` });
    expect(host.result.block.is_error).toBe(true);
    expect(existsSync(inTmp)).toBe(false);
  });

  test('the same command off the sandbox writes outside: the sandbox is what stops it', async () => {
    const { handler } = recordingHandler('allow');
    const s = await project({}, { handler });
    const outside = path.join(s.outside, 'escaped.txt');
    const r = await run(s.ctx, 'Bash', { command: `echo c > ${outside}` });
    expect(r.result.block.is_error).toBeFalsy();
    expect(existsSync(outside)).toBe(true);
  });

  test('sandbox.filesystem.allowWrite and Edit allow rules widen the writes; denyWrite narrows them', async () => {
    const s = await project({
      sandbox: { enabled: true, filesystem: { allowWrite: ['../outside'], denyWrite: ['./locked'] } },
      permissions: { allow: ['Edit(~/extra/**)'] },
    });
    await mkdir(path.join(s.cwd, 'locked'));
    await mkdir(path.join(s.root, 'home', 'extra'));
    const r = await run(s.ctx, 'Bash', {
      command: 'echo a > ../outside/ok.txt && echo e > ../home/extra/e.txt && echo b > locked/no.txt',
    });
    expect(await readFile(path.join(s.root, 'home', 'extra', 'e.txt'), 'utf8')).toBe('e\n');
    expect(r.text).toContain('Read-only file system');
    expect(await readFile(path.join(s.outside, 'ok.txt'), 'utf8')).toBe('a\n');
    expect(existsSync(path.join(s.cwd, 'locked', 'no.txt'))).toBe(false);
  });

  test('a Read deny rule makes the file unreadable inside the sandbox, however the command names it', async () => {
    const { handler } = recordingHandler('allow');
    const s = await project({ ...ENABLED, permissions: { deny: ['Read(./secret.txt)'] } }, { handler });
    await writeFile(path.join(s.cwd, 'secret.txt'), 'the secret\n');
    await writeFile(path.join(s.cwd, 'open.txt'), 'not secret\n');
    const r = await run(s.ctx, 'Bash', { command: 'for f in open secret; do cat "$f.txt"; done' });
    expect(r.text).toContain('not secret');
    expect(r.text).not.toContain('the secret');
  });

  test('a host not allowed is unreachable; one allowed by the settings or a WebFetch rule is reached', async () => {
    // The runtime exempts loopback hosts from its proxy (NO_PROXY); `--noproxy ''` sends them through it.
    const url = (host: string) => `curl -sS -m 10 --noproxy '' http://${host}:${port}/`;
    const closed = await project(ENABLED);
    const blocked = await run(closed.ctx, 'Bash', { command: url('127.0.0.1') });
    expect(blocked.text).toContain('blocked by network allowlist');
    expect(blocked.text).not.toContain('hello from the host');
    const direct = await run(closed.ctx, 'Bash', {
      command: `curl -sS -m 10 --noproxy '*' http://127.0.0.1:${port}/`,
    });
    expect(direct.result.block.is_error).toBe(true);
    expect(direct.text).not.toContain('hello from the host');

    const open = await project({ sandbox: { enabled: true, network: { allowedDomains: ['127.0.0.1'] } } });
    const reached = await run(open.ctx, 'Bash', { command: url('127.0.0.1') });
    expect(reached.text).toBe('hello from the host\n');
    const other = await run(open.ctx, 'Bash', { command: url('localhost') });
    expect(other.text).toContain('blocked by network allowlist');

    const byRule = await project({
      sandbox: { enabled: true },
      permissions: { allow: ['WebFetch(domain:localhost)'] },
    });
    expect((await run(byRule.ctx, 'Bash', { command: url('localhost') })).text).toBe('hello from the host\n');
  });

  test('a sandboxed command past its timeout is killed with everything it started', async () => {
    const s = await project(ENABLED);
    const marker = `314.${process.pid}`;
    const r = await run(s.ctx, 'Bash', { command: `sleep ${marker} & wait`, timeout: 1500 });
    expect(r.text).toContain('Command timed out after 1500 ms');
    await expect.poll(() => pgrep(`sleep ${marker}`), { timeout: 5000 }).toBe(false);
  });

  test('a command in the background runs sandboxed too, and killing it ends everything in it', async () => {
    const s = await project(ENABLED);
    const marker = `313.${process.pid}`;
    const outside = path.join(s.outside, 'bg.txt');
    const r = await run(s.ctx, 'Bash', {
      command: `echo bg > ${outside}; echo started; sleep ${marker}`,
      run_in_background: true,
    });
    const id = (r.result.block.content as string).match(/ID: (\S+)\./)?.[1] ?? '';
    const task = s.ctx.session.tasks.get(id);
    expect(task).toBeDefined();
    await expect.poll(() => task?.process.stdout, { timeout: 10_000 }).toContain('started');
    expect(task?.process.stderr).toContain('Read-only file system');
    expect(existsSync(outside)).toBe(false);
    expect(pgrep(`sleep ${marker}`)).toBe(true);
    s.ctx.session.tasks.kill(id);
    await task?.process.done;
    await expect.poll(() => pgrep(`sleep ${marker}`), { timeout: 5000 }).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('permission for sandboxed calls', () => {
  test('autoAllowBashIfSandboxed (default) allows what the rules leave open, by the sandbox', async () => {
    const { handler, requests } = recordingHandler('deny');
    const s = await project(ENABLED, { handler });
    const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(permission(r.messages)).toMatchObject({ decision: 'allow', by: 'sandbox' });
    expect(requests).toHaveLength(0);
    expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(true);
  });

  test('without the sandbox, or with autoAllowBashIfSandboxed false, the same call is asked', async () => {
    for (const settings of [{}, { sandbox: { enabled: true, autoAllowBashIfSandboxed: false } }]) {
      const { handler, requests } = recordingHandler('deny');
      const s = await project(settings, { handler });
      const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
      expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'test' });
      expect(requests).toHaveLength(1);
    }
  });

  test('a deny rule still denies and an ask rule still asks', async () => {
    const denied = await project({ ...ENABLED, permissions: { deny: ['Bash(touch:*)'] } });
    const d = await run(denied.ctx, 'Bash', { command: 'touch made.txt' });
    expect(permission(d.messages)).toMatchObject({
      decision: 'deny',
      by: 'classifier',
      rule: { text: 'Bash(touch:*)' },
    });
    expect(existsSync(path.join(denied.cwd, 'made.txt'))).toBe(false);

    const { handler, requests } = recordingHandler('deny');
    const asked = await project({ ...ENABLED, permissions: { ask: ['Bash(touch:*)'] } }, { handler });
    const a = await run(asked.ctx, 'Bash', { command: 'touch made.txt' });
    expect(requests).toHaveLength(1);
    expect(permission(a.messages)).toMatchObject({ decision: 'deny', by: 'test' });
  });

  test('a PreToolUse hook deny still denies', async () => {
    const s = await project({
      ...ENABLED,
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo no >&2; exit 2' }] }],
      },
    });
    const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'hook' });
  });

  test('excludedCommands and dangerouslyDisableSandbox take the call out of the sandbox, to the normal flow', async () => {
    const { handler, requests } = recordingHandler('deny');
    const s = await project({ sandbox: { enabled: true, excludedCommands: ['touch'] } }, { handler });
    await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    await run(s.ctx, 'Bash', { command: 'mkdir out', dangerouslyDisableSandbox: true });
    expect(requests.map((q) => q.input.command)).toEqual(['touch made.txt', 'mkdir out']);
    const r = await run(s.ctx, 'Bash', { command: 'mkdir out' });
    expect(permission(r.messages)).toMatchObject({ decision: 'allow', by: 'sandbox' });
  });

  test('with allowUnsandboxedCommands false, dangerouslyDisableSandbox is ignored: the call runs sandboxed', async () => {
    const s = await project({ sandbox: { enabled: true, allowUnsandboxedCommands: false } });
    const outside = path.join(s.outside, 'escaped.txt');
    const r = await run(s.ctx, 'Bash', { command: `echo c > ${outside}`, dangerouslyDisableSandbox: true });
    expect(permission(r.messages)).toMatchObject({ decision: 'allow', by: 'sandbox' });
    expect(r.text).toContain('Read-only file system');
    expect(existsSync(outside)).toBe(false);
  });

  test('--sandbox (enabled: true) turns it on without settings; enabled: false turns it off', async () => {
    const on = await project({}, { enabled: true });
    expect(permission((await run(on.ctx, 'Bash', { command: 'touch a' })).messages)).toMatchObject({
      by: 'sandbox',
    });
    const { handler, requests } = recordingHandler('deny');
    const off = await project(ENABLED, { handler, enabled: false });
    await run(off.ctx, 'Bash', { command: 'touch a' });
    expect(requests).toHaveLength(1);
  });
});

function pgrep(pattern: string): boolean {
  try {
    execFileSync('pgrep', ['-f', pattern], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
