import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { recordingHandler, run } from './helpers.js';
import { permission, projects, requireSandboxPrograms } from './sandbox-helpers.js';

const made = projects();
const project = made.make;

const savedPath = process.env.PATH;
let bin: string;

/** PATH holds bash, which and touch, not bubblewrap: the sandbox's dependency check fails for real. */
beforeAll(async () => {
  requireSandboxPrograms();
  bin = await mkdtemp(path.join(tmpdir(), 'automode-nobwrap-'));
  for (const name of ['bash', 'which', 'touch'])
    await symlink(execFileSync('which', [name], { encoding: 'utf8' }).trim(), path.join(bin, name));
  process.env.PATH = bin;
});

afterAll(async () => {
  process.env.PATH = savedPath;
  await rm(bin, { recursive: true, force: true });
  await made.remove();
});

describe.skipIf(process.platform !== 'linux')('a sandbox that cannot start', () => {
  test('asks, saying why, instead of running the command on the host', async () => {
    const { handler, requests } = recordingHandler('deny');
    const s = await project({ sandbox: { enabled: true } }, { handler });
    const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).toMatch(/^the sandbox is unavailable \(.*bubblewrap \(bwrap\) not installed/);
    expect(requests[0]?.reason).toContain('scripts/setup-sandbox.sh');
    expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'test' });
    expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(false);
  });

  test('headless, it is denied; an allow rule does not run it unasked either', async () => {
    for (const settings of [{}, { permissions: { allow: ['Bash(touch:*)'] } }]) {
      const s = await project({ ...settings, sandbox: { enabled: true } });
      const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
      expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'handler' });
      expect(permission(r.messages)?.reason).toContain('the sandbox is unavailable');
      expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(false);
    }
  });

  test('a deny rule still denies, by the rule', async () => {
    const s = await project({ sandbox: { enabled: true }, permissions: { deny: ['Bash(touch:*)'] } });
    const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'classifier' });
  });

  test('an explicit allow answer runs it without the sandbox, as asked', async () => {
    const { handler } = recordingHandler('allow');
    const s = await project({ sandbox: { enabled: true } }, { handler });
    await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(true);
  });

  test('a command excluded from the sandbox goes through the normal flow, not the unavailable ask', async () => {
    const { handler, requests } = recordingHandler('deny');
    const s = await project({ sandbox: { enabled: true, excludedCommands: ['touch'] } }, { handler });
    await run(s.ctx, 'Bash', { command: 'touch made.txt' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.reason).not.toContain('sandbox');
  });
});
