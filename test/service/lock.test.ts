import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import {
  createDecider,
  FolderLockedError,
  LOCK_FILE,
  type RunningService,
  readServiceRecord,
  readToken,
  startService,
} from '../../src/service/index.js';
import { hookInput, send, settingsLoader, tempProject } from './helpers.js';

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
const services: RunningService[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  await loadBash();
});

afterEach(async () => {
  await Promise.all(services.splice(0).map((s) => s.close()));
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const body = hookInput({ tool_name: 'Bash', tool_input: { command: 'npm test' } });
const allows = (answer: { status: number; body: string }) =>
  answer.status === 200 && JSON.parse(answer.body).hookSpecificOutput.permissionDecision === 'allow';

function startIn(t: ReturnType<typeof tempProject>) {
  return startService({
    decider: createDecider({ load: settingsLoader(t.home, t.project) }),
    dir: t.dir,
    version: 'test',
  });
}

describe('one service per folder', () => {
  it('of two services started at once in one folder, exactly one runs; the other touches nothing of it', async () => {
    for (let round = 0; round < 40; round++) {
      const t = tempProject();
      const results = await Promise.allSettled([startIn(t), startIn(t)]);
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      services.push(...won);
      expect(won, `round ${round}`).toHaveLength(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(FolderLockedError);
      expect(String(lost.reason.message)).toMatch(/already running/);
      const winner = won[0] as RunningService;
      expect(readToken(t.dir)).toBe(winner.token);
      expect(readServiceRecord(t.dir)).toEqual(winner.record);
      expect(allows(await send(winner, { body, via: 'socket' }))).toBe(true);
      expect(allows(await send(winner, { body, via: 'http' }))).toBe(true);
      await winner.close();
      services.length = 0;
    }
  });

  it('a lock left by a process that is gone is taken over; a closed service leaves none', async () => {
    const t = tempProject();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    mkdirSync(t.dir, { recursive: true });
    writeFileSync(join(t.dir, LOCK_FILE), `${gone.stdout}\n`);
    const service = await startIn(t);
    services.push(service);
    expect(readFileSync(join(t.dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    await expect(startIn(t)).rejects.toBeInstanceOf(FolderLockedError);
    expect(allows(await send(service, { body }))).toBe(true);
    await service.close();
    services.length = 0;
    const again = await startIn(t);
    services.push(again);
    expect(readToken(t.dir)).toBe(again.token);
  });

  it('of two automode serve processes started at once, one serves and the other exits 2 saying why', async () => {
    for (let round = 0; round < 4; round++) {
      const t = tempProject();
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: t.home,
        AUTOMODE_SERVICE_DIR: t.dir,
        AUTOMODE_MANAGED_SETTINGS: join(t.home, 'none.json'),
      };
      const runs = [0, 1].map(() => {
        const c = spawn(process.execPath, [bin, 'serve', '--no-llm'], { cwd: t.project, env });
        children.push(c);
        let err = '';
        return new Promise<{ child: ChildProcess; err: string; code?: number | null }>((resolve) => {
          c.stderr.on('data', (d) => {
            err += d;
            if (err.includes('listening on')) resolve({ child: c, err });
          });
          c.on('exit', (code) => resolve({ child: c, err, code }));
        });
      });
      const [a, b] = await Promise.all(runs);
      const winners = [a, b].filter((r) => r?.code === undefined);
      expect(winners, `round ${round}: ${a?.err} ${b?.err}`).toHaveLength(1);
      const loser = [a, b].find((r) => r?.code !== undefined);
      expect(loser?.code).toBe(2);
      expect(loser?.err).toMatch(/automode: a service \(pid \d+\) is already running for /);
      const winner = winners[0]?.child;
      const record = readServiceRecord(t.dir);
      expect(record?.pid).toBe(winner?.pid);
      const token = readToken(t.dir) ?? '';
      const service = {
        record: record ?? { pid: 0, version: '', startedAt: '' },
        token,
        close: async () => {},
      };
      const status = hookInput({ tool_name: 'Bash', tool_input: { command: 'git status' }, cwd: t.project });
      expect(allows(await send(service, { body: status, via: 'socket' }))).toBe(true);
      expect(allows(await send(service, { body: status, via: 'http' }))).toBe(true);
      winner?.kill('SIGTERM');
      await new Promise((resolve) => winner?.on('exit', resolve));
    }
  });
});
