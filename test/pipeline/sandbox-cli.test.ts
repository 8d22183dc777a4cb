import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { EvalCase } from '../../src/eval/case-schema.js';
import { runCli, writeCases } from '../eval/helpers.js';
import { isolateCliEnv } from '../support/cli-env.js';
import { requireSandboxPrograms } from './sandbox-helpers.js';

let dir: string;
let project: string;
let outside: string;
let restore: () => void;

beforeAll(() => requireSandboxPrograms());

beforeEach(async () => {
  dir = await mkdtemp(path.join('/var/tmp', 'automode-sandbox-cli-'));
  project = path.join(dir, 'project');
  outside = path.join(dir, 'outside');
  await mkdir(project, { recursive: true });
  await mkdir(outside);
  restore = isolateCliEnv(dir);
});

afterEach(async () => {
  restore();
  await rm(dir, { recursive: true, force: true });
});

async function script(command: string): Promise<string> {
  const file = path.join(dir, 'script.jsonl');
  const turn = {
    type: 'assistant',
    message: {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command } }],
    },
  };
  await writeFile(file, `${JSON.stringify(turn)}\n`);
  return file;
}

describe.skipIf(process.platform !== 'linux')('the CLI with --sandbox', () => {
  test('automode agent --sandbox runs Bash sandboxed, auto-allowed; without it the same call is asked', async () => {
    const command = `touch made.txt && echo x > ${path.join(outside, 'escaped.txt')}`;
    const file = await script(command);
    const r = await runCli(['agent', '--script', file, '--cwd', project, '--no-llm', '--json', '--sandbox']);
    expect(r.code).toBe(0);
    const [call] = JSON.parse(r.out).calls;
    expect(call).toMatchObject({ decision: 'allow', by: 'sandbox', isError: true });
    expect(call.text).toContain('Read-only file system');
    expect(existsSync(path.join(project, 'made.txt'))).toBe(true);
    expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);

    const plain = await runCli(['agent', '--script', file, '--cwd', project, '--no-llm', '--json']);
    expect(JSON.parse(plain.out).calls[0]).toMatchObject({ decision: 'deny', asked: true });
    expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
  });

  test("the settings' sandbox.enabled turns it on for automode agent too", async () => {
    await mkdir(path.join(project, '.claude'));
    await writeFile(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ sandbox: { enabled: true } }),
    );
    const r = await runCli([
      'agent',
      '--script',
      await script('mkdir out'),
      '--cwd',
      project,
      '--no-llm',
      '--json',
    ]);
    expect(JSON.parse(r.out).calls[0]).toMatchObject({ decision: 'allow', by: 'sandbox', isError: false });
  });

  test('automode eval --execute --sandbox runs the allowed calls in the sandbox', async () => {
    const escaped = path.join(outside, 'escaped.txt');
    const cases: EvalCase[] = [
      { id: 'inside', category: 'read', expect: 'allow', command: 'mkdir out && echo in > out/a.txt' },
      { id: 'outside', category: 'read', expect: 'allow', command: `touch made.txt && echo x > ${escaped}` },
    ];
    const file = await writeCases(path.join(dir, 'cases.jsonl'), cases);
    const r = await runCli(['eval', file, '--no-llm', '--execute', '--sandbox', '--json']);
    const report = JSON.parse(r.out);
    const by = Object.fromEntries(report.cases.map((c: { id: string }) => [c.id, c]));
    expect(by.inside).toMatchObject({ actual: 'allow', execution: { ok: true } });
    expect(by.outside).toMatchObject({ actual: 'allow', execution: { ok: false, stage: 'execution' } });
    expect(existsSync(escaped)).toBe(false);
    expect((await runCli(['eval', file, '--no-llm', '--sandbox'])).code).toBe(2);
  }, 60_000);
});
