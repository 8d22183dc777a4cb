import { chmodSync, lstatSync, mkdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDecider, type RunningService, readToken, startService } from '../../src/service/index.js';
import { hookInput, send, settingsLoader, tempProject } from './helpers.js';

const running: RunningService[] = [];
const roots: string[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function project() {
  const t = tempProject();
  roots.push(t.root);
  return t;
}

async function start(t: ReturnType<typeof tempProject>, rotateToken = false) {
  const service = await startService({
    decider: createDecider({ load: settingsLoader(t.home, t.project) }),
    dir: t.dir,
    version: 'test',
    rotateToken,
  });
  running.push(service);
  return service;
}

const body = hookInput({ tool_name: 'Bash', tool_input: { command: 'npm test' } });
const VALID = 'ab'.repeat(32);

describe('the service token across restarts', () => {
  it('a restarted service keeps its token: a hook configured with it still gets an answer', async () => {
    const t = project();
    const first = await start(t);
    const token = first.token;
    await first.close();
    const again = await start(t);
    expect(again.token).toBe(token);
    expect(readToken(t.dir)).toBe(token);
    const answer = await send(again, { body, token });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).hookSpecificOutput.permissionDecision).toBe('allow');
    expect(statSync(join(t.dir, 'token')).mode & 0o777).toBe(0o600);
    expect(statSync(t.dir).mode & 0o777).toBe(0o700);
  });

  it('rotateToken starts with a new token where a restart would keep it, and the old one is refused', async () => {
    const t = project();
    const first = await start(t);
    const old = first.token;
    await first.close();
    const kept = await start(t);
    expect(kept.token).toBe(old);
    await kept.close();
    const rotated = await start(t, true);
    expect(rotated.token).not.toBe(old);
    expect(rotated.token).toMatch(/^[0-9a-f]{64}$/);
    expect(readToken(t.dir)).toBe(rotated.token);
    expect((await send(rotated, { body, token: old })).status).toBe(401);
    expect((await send(rotated, { body })).status).toBe(200);
  });

  it('keeps a token file that is private to the user, and replaces one that is not or holds no token', async () => {
    const cases: [string, (file: string) => void, boolean][] = [
      ['private', (file) => writeFileSync(file, `${VALID}\n`, { mode: 0o600 }), true],
      [
        'readable by others',
        (file) => {
          writeFileSync(file, `${VALID}\n`);
          chmodSync(file, 0o644);
        },
        false,
      ],
      [
        'a link',
        (file) => {
          writeFileSync(`${file}.elsewhere`, `${VALID}\n`, { mode: 0o600 });
          symlinkSync(`${file}.elsewhere`, file);
        },
        false,
      ],
      ['no token', (file) => writeFileSync(file, 'not a token\n', { mode: 0o600 }), false],
    ];
    for (const [name, plant, kept] of cases) {
      const t = project();
      mkdirSync(t.dir, { mode: 0o700 });
      const file = join(t.dir, 'token');
      plant(file);
      const service = await start(t);
      if (kept) expect(service.token, name).toBe(VALID);
      else expect(service.token, name).not.toBe(VALID);
      expect(service.token, name).toMatch(/^[0-9a-f]{64}$/);
      expect(lstatSync(file).isFile(), name).toBe(true);
      expect(statSync(file).mode & 0o777, name).toBe(0o600);
      expect(readToken(t.dir), name).toBe(service.token);
    }
  });
});
