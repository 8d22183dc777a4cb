import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGE1_TOOL, STAGE2_TOOL } from '../../src/classifier/model-parts.js';
import { STAGE2_INSTRUCTION } from '../../src/classifier/prompt.js';
import {
  type MessagesServer,
  type RecordedRequest,
  reply,
  startMessagesServer,
} from '../support/messages-server.js';
import { BIN, remove, tempFolder, writeTree } from './helpers.js';

/**
 * Cases the rules leave to the model, run against a model (a loopback Messages API server standing in for it),
 * recorded, then replayed offline.
 */
let root: string;
let server: MessagesServer | undefined;

/** The model's answers: copying from staging breaks the team's soft_deny rule; anything else breaks nothing. */
function answer(request: RecordedRequest) {
  const messages = JSON.stringify((JSON.parse(request.raw) as { messages: unknown }).messages);
  const staging = messages.includes('staging');
  if (messages.includes(JSON.stringify(STAGE2_INSTRUCTION).slice(1, -1))) {
    return reply.toolUse({
      name: STAGE2_TOOL,
      input: {
        reason: 'copies staging data',
        decision: 'soft_deny',
        rule: 'Staging data',
        allow_exception: '',
        user_requested: false,
      },
    });
  }
  return reply.toolUse({ name: STAGE1_TOOL, input: { flag: staging, rule: staging ? 'Staging data' : '' } });
}

function run(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent/automode-test-home', ...env },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

beforeAll(async () => {
  root = await tempFolder('automode-model-test-');
  await writeTree(root, {
    '.claude/settings.json': { permissions: { allow: ['Bash(npm test)'] } },
    'managed-settings.json': {
      autoMode: { soft_deny: ['$defaults', 'Staging data: never copy data from staging'] },
    },
    'tests/model.automode-test.yaml': `settings: ..
mode: auto
cases:
  - name: staging data stays on staging
    command: scp deploy@staging.example.com:/srv/dump.sql .
    context: [please get me the staging dump]
    expect: deny
    rule: Staging data
  - command: npm install left-pad
    expect: allow
  - command: npm test
    expect: allow
`,
  });
});
afterAll(async () => {
  await server?.close();
  await remove(root);
});

describe('automode test with a model', () => {
  it('runs the cases left to the model against the configured model, and records the exchanges', async () => {
    server = await startMessagesServer(answer);
    const recording = path.join(root, 'exchanges.jsonl');
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' };
    const r = await run(['test', '--json', '--coverage', '--record', recording], env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.summary).toEqual({ passed: 3, failed: 0, skipped: 0, errors: 0 });
    const [staging, leftPad, npmTest] = j.suites[0].cases;
    expect(staging.actual).toMatchObject({
      decision: 'deny',
      by: 'model',
      model: true,
      modelRule: 'Staging data',
    });
    expect(leftPad.actual).toMatchObject({ decision: 'allow', model: true });
    expect(npmTest.actual.model).toBeUndefined();
    const prose = j.coverage.rules.find((rule: { kind: string }) => rule.kind === 'prose');
    expect(prose).toMatchObject({ label: 'Staging data', decided: 1, reached: 1 });
    const sent = server.messageRequests().map((q) => q.raw);
    expect(sent.some((raw) => raw.includes('please get me the staging dump'))).toBe(true);
    expect((await readFile(recording, 'utf8')).trim().split('\n')).toHaveLength(sent.length);
    await server.close();
    server = undefined;

    const replayed = await run(['test', '--json', '--replay', recording]);
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.out).summary).toEqual({ passed: 3, failed: 0, skipped: 0, errors: 0 });
  });

  it('skips them without a model, and refuses a recording that cannot be read', async () => {
    const r = await run(['test', '--no-llm']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n').at(-1)).toBe('1 passed, 0 failed, 2 skipped');
    const missing = await run(['test', '--replay', path.join(root, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^automode: /);
  });
});
