import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { answerHookInput, type HookInput, readServiceRecord, readToken } from '../../src/service/index.js';
import { decisionOf, hookInput, send, settingsLoader, useTestServices } from './helpers.js';

const start = useTestServices();

describe('automode serve: the HTTP interface', () => {
  it('listens on loopback and a socket of its own, and writes the token and service.json for the user alone', async () => {
    const { service, dir } = await start();
    expect(service.record.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(readServiceRecord(dir)).toEqual(service.record);
    expect(readToken(dir)).toBe(service.token);
    expect(service.token).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of ['token', 'service.json', 'service.sock'])
      expect(statSync(join(dir, file)).mode & 0o777).toBe(0o600);
  });

  it('refuses a request without the token or with a wrong one, over HTTP and the socket', async () => {
    const { service } = await start();
    const body = hookInput({ tool_name: 'Bash', tool_input: { command: 'git status' } });
    // The right length, one character off (never the same character: the token is random hex).
    const wrong = `${service.token.slice(0, -1)}${service.token.endsWith('0') ? '1' : '0'}`;
    for (const via of ['http', 'socket'] as const) {
      expect((await send(service, { body, token: null, via })).status).toBe(401);
      expect((await send(service, { body, token: wrong, via })).status).toBe(401);
      expect((await send(service, { body, token: 'short', via })).status).toBe(401);
      expect((await send(service, { path: '/status', method: 'GET', token: null, via })).status).toBe(401);
      const ok = await send(service, { body, via });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.body).hookSpecificOutput.permissionDecision).toBe('allow');
    }
  });

  it('refuses a body over the limit, said in advance or streamed, and still answers one at the limit', async () => {
    const { service } = await start({ maxBodyBytes: 1024 });
    const big = `{"tool_name":"Bash","tool_input":{"command":"echo ${'x'.repeat(4000)}"}}`;
    expect((await send(service, { body: big })).status).toBe(413);
    expect((await send(service, { body: big, chunked: true })).status).toBe(413);
    const fits = hookInput({ tool_name: 'Bash', tool_input: { command: 'git status' } });
    expect((await send(service, { body: fits.padEnd(1024, ' ') })).status).toBe(200);
  });

  it('has /hook, /health and /status only; health says nothing but ok', async () => {
    const { service } = await start();
    expect(await send(service, { method: 'GET', path: '/health', token: null })).toEqual({
      status: 200,
      body: '{"ok":true}',
    });
    expect((await send(service, { method: 'GET', path: '/nothing' })).status).toBe(404);
    expect((await send(service, { method: 'GET', path: '/hook' })).status).toBe(405);
    expect((await send(service, { method: 'POST', path: '/status', body: '{}' })).status).toBe(405);
    const status = await send(service, { method: 'GET', path: '/status' });
    expect(status.status).toBe(200);
    expect(JSON.parse(status.body)).toMatchObject({ pid: process.pid, version: 'test', decisions: 0 });
  });

  it('answers each hook input exactly as automode hook would', async () => {
    const { service, home, project } = await start();
    const load = settingsLoader(home, project);
    const decide = async ({ call }: HookInput) => createClassifier(await load(call.cwd)).classify(call);
    const bash = (command: string, extra: Record<string, unknown> = {}) =>
      hookInput({ tool_name: 'Bash', tool_input: { command }, cwd: project, ...extra });
    const inputs = [
      bash('git status'),
      bash('npm test'),
      bash('curl https://example.com'),
      bash('git push origin main'),
      bash('npm install left-pad'),
      bash('echo $(ls) && rm -rf build'),
      hookInput({ tool_name: 'Read', tool_input: { file_path: join(project, 'README.md') }, cwd: project }),
      bash('curl https://example.com', { hook_event_name: 'PermissionRequest' }),
      bash('npm test', { hook_event_name: 'PermissionRequest' }),
      bash('git status', { hook_event_name: 'PostToolUse', tool_response: {} }),
      hookInput({ tool_name: 'Bash', tool_input: 'not an object' }),
    ];
    const answers: string[] = [];
    for (const raw of inputs) {
      const expected = await answerHookInput(raw, decide);
      const got = await send(service, { body: raw });
      expect(got.body).toBe(expected);
      expect(got.status).toBe(inputs.indexOf(raw) === inputs.length - 1 ? 400 : 200);
      answers.push(got.body);
    }
    const decisions = answers.map(decisionOf);
    expect(decisions).toEqual([
      'allow',
      'allow',
      'deny',
      'ask',
      'none',
      'ask',
      'allow',
      'deny',
      'allow',
      'none',
      'ask',
    ]);
    const garbage = await send(service, { body: 'not json at all' });
    expect(garbage.status).toBe(400);
    expect(garbage.body).toBe(await answerHookInput('not json at all', decide));
  });

  it('reloads the settings when a settings file appears or changes, and asks for every call while it is broken', async () => {
    const { service, project } = await start();
    const local = join(project, '.claude', 'settings.local.json');
    const body = hookInput({
      tool_name: 'Bash',
      tool_input: { command: 'npm install left-pad' },
      cwd: project,
    });
    const decision = async () => {
      const answer = (await send(service, { body })).body;
      return answer === '{}' ? 'none' : JSON.parse(answer).hookSpecificOutput.permissionDecision;
    };
    expect(await decision()).toBe('none');
    writeFileSync(local, JSON.stringify({ permissions: { allow: ['Bash(npm install *)'] } }));
    expect(await decision()).toBe('allow');
    writeFileSync(local, '{"permissions": {"allow": [');
    expect(await decision()).toBe('ask');
    const status = JSON.parse((await send(service, { method: 'GET', path: '/status' })).body);
    expect(status.folders).toContainEqual({ cwd: project, failed: true, reloads: 2 });
    writeFileSync(local, JSON.stringify({ permissions: { deny: ['Bash(npm install *)'] } }));
    expect(await decision()).toBe('deny');
  });

  it('a second service for the same folder is refused while the first answers; a stale record is replaced', async () => {
    const first = await start();
    const { startService, createDecider } = await import('../../src/service/index.js');
    const decider = createDecider({ load: settingsLoader(first.home, first.project) });
    await expect(startService({ decider, dir: first.dir, version: 'test' })).rejects.toThrow(
      /already running/,
    );
    await first.service.close();
    writeFileSync(
      join(first.dir, 'service.json'),
      JSON.stringify({ pid: process.pid, version: 'old', startedAt: '', url: 'http://127.0.0.1:1' }),
    );
    const second = await startService({ decider, dir: first.dir, version: 'test' });
    expect(readServiceRecord(first.dir)?.url).toBe(second.record.url);
    await second.close();
    expect(readServiceRecord(first.dir)).toBeUndefined();
  });
});
