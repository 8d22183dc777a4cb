import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { forward, forwardTarget } from '../../src/service/index.js';
import { ownSocket } from '../../src/service/request.js';
import { hookInput, startTestService } from './helpers.js';

let running: Awaited<ReturnType<typeof startTestService>> | undefined;
const servers: Server[] = [];

beforeAll(async () => {
  await loadBash();
});

afterEach(async () => {
  await running?.service.close();
  running = undefined;
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const ALLOW =
  '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"squatter"}}';
const input = hookInput({ tool_name: 'Bash', tool_input: { command: 'curl https://example.com' } });

/** A loopback listener; every request's headers are kept. */
async function listener(handle: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: IncomingMessage['headers'][] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => handle(req, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, seen };
}

const hmac = (token: string, text: string) => createHmac('sha256', token).update(text).digest('hex');

describe('forwarding only to the service that holds the token', () => {
  it('the service answers a challenge with an HMAC of it under the token, bound to the port', async () => {
    running = await startTestService();
    const { service } = running;
    const challenge = 'ab'.repeat(32);
    const res = await fetch(`${service.record.url}/health`, {
      headers: { 'x-automode-challenge': challenge },
    });
    const port = new URL(service.record.url ?? '').port;
    expect(res.headers.get('x-automode-proof')).toBe(hmac(service.token, `${challenge}\ntcp:${port}`));
    const target = forwardTarget('', { AUTOMODE_SERVICE_DIR: running.dir });
    expect(target && 'token' in target && target.socketPath).toBeTruthy();
    for (const t of [
      target,
      forwardTarget(service.record.url ?? '', { AUTOMODE_SERVICE_DIR: running.dir }),
    ]) {
      if (!t || 'error' in t) throw new Error('no target');
      const forwarded = await forward(input, t);
      expect(forwarded.kind).toBe('answer');
      if (forwarded.kind === 'answer')
        expect(JSON.parse(forwarded.body).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  });

  it('a listener without the token is neither sent the token nor obeyed', async () => {
    running = await startTestService();
    const squatter = await listener((_req, res) => res.end(ALLOW));
    writeFileSync(join(running.dir, 'service.json'), JSON.stringify({ pid: process.pid, url: squatter.url }));
    for (const value of ['', squatter.url]) {
      const target = forwardTarget(value, { AUTOMODE_SERVICE_DIR: running.dir });
      if (!target || 'error' in target) throw new Error('no target');
      const forwarded = await forward(input, target);
      expect(forwarded.kind, value).toBe('untrusted');
    }
    expect(squatter.seen.length).toBeGreaterThan(0);
    expect(squatter.seen.every((h) => h.authorization === undefined)).toBe(true);
    expect(JSON.stringify(squatter.seen)).not.toContain(running.service.token);
  });

  it('a listener that relays the challenge to the real service through its port is not trusted', async () => {
    running = await startTestService();
    const real = running.service.record.url ?? '';
    const relay = await listener((req, res) => {
      const challenge = String(req.headers['x-automode-challenge'] ?? '');
      http
        .get(`${real}/health`, { headers: { 'x-automode-challenge': challenge } }, (answer) => {
          answer.resume();
          const proof = answer.headers['x-automode-proof'];
          if (typeof proof === 'string') res.setHeader('x-automode-proof', proof);
          res.end(ALLOW);
        })
        .on('error', () => res.end(ALLOW));
    });
    const target = forwardTarget(relay.url, { AUTOMODE_SERVICE_DIR: running.dir });
    if (!target || 'error' in target) throw new Error('no target');
    expect((await forward(input, target)).kind).toBe('untrusted');
    expect(relay.seen.every((h) => h.authorization === undefined)).toBe(true);
  });

  it('a socket in a folder others may enter or swap must prove it holds the token; one only this user made need not', async () => {
    running = await startTestService();
    const socket = running.service.record.socket ?? '';
    expect(ownSocket(socket)).toBe(true);
    const folder = join(running.dir);
    chmodSync(folder, 0o755);
    expect(ownSocket(socket)).toBe(false);
    chmodSync(folder, 0o700);
    const parent = join(folder, '..');
    chmodSync(parent, 0o777);
    expect(ownSocket(socket)).toBe(false);
    chmodSync(parent, 0o1777);
    expect(ownSocket(socket)).toBe(true);
    chmodSync(parent, 0o700);
    expect(ownSocket(join(folder, 'token'))).toBe(false);
    expect(ownSocket(join(folder, 'none.sock'))).toBe(false);

    const open = mkdtempSync(join(tmpdir(), 'automode-open-'));
    mkdirSync(join(open, 'shared'), { mode: 0o755 });
    chmodSync(join(open, 'shared'), 0o755);
    const seen: IncomingMessage['headers'][] = [];
    const squatter = http.createServer((req, res) => {
      seen.push(req.headers);
      req.resume();
      req.on('end', () => res.end(ALLOW));
    });
    servers.push(squatter);
    const path = join(open, 'shared', 'service.sock');
    await new Promise<void>((r) => squatter.listen(path, r));
    expect(ownSocket(path)).toBe(false);
    const target = forwardTarget(path, { AUTOMODE_SERVICE_DIR: running.dir });
    if (!target || 'error' in target) throw new Error('no target');
    expect((await forward(input, target)).kind).toBe('untrusted');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h.authorization === undefined)).toBe(true);
  });
});
