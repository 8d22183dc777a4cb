import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { STAGE1_TOOL } from '../../src/classifier/model-parts.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
let server: MessagesServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the CLI as a child process (asynchronously, so that the loopback server in this process can answer). */
function run(
  args: string[],
  env: Record<string, string>,
  input?: string,
  home = mkdtempSync(join(tmpdir(), 'automode-model-cli-')),
) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
        ...env,
      },
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
    child.stdin.end(input ?? '');
  });
}

const flag = (value: boolean) => reply.toolUse({ name: STAGE1_TOOL, input: { flag: value, rule: '' } });

describe('the CLI with a model', () => {
  it('classify asks the model through ANTHROPIC_BASE_URL and reports it; --no-llm does not', async () => {
    server = await startMessagesServer([flag(false)]);
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' };
    const withModel = await run(['classify', '--json', '--mode', 'auto', 'npm install left-pad'], env);
    expect(withModel.code).toBe(0);
    const v = JSON.parse(withModel.out);
    expect(v.decision).toBe('allow');
    expect(v.model).toMatchObject({ stage: 1, ok: true, cached: false });
    const without = await run(
      ['classify', '--json', '--no-llm', '--mode', 'auto', 'npm install left-pad'],
      env,
    );
    expect(JSON.parse(without.out).decision).toBe('ask');
    expect(server.messageRequests()).toHaveLength(1);
  });

  it('records model exchanges and replays them offline with the same decision', async () => {
    server = await startMessagesServer([flag(false)]);
    const dir = mkdtempSync(join(tmpdir(), 'automode-rec-'));
    const file = join(dir, 'exchanges.jsonl');
    // The prompt tells the model the working folder: a recording replays in the folder it was made in.
    const home = mkdtempSync(join(tmpdir(), 'automode-model-cli-'));
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' };
    const recorded = await run(
      ['classify', '--json', '--mode', 'auto', '--record', file, 'npm install left-pad'],
      env,
      undefined,
      home,
    );
    expect(JSON.parse(recorded.out).decision).toBe('allow');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(1);
    await server.close();
    server = undefined;
    const replayed = await run(
      ['classify', '--json', '--mode', 'auto', '--replay', file, 'npm install left-pad'],
      {},
      undefined,
      home,
    );
    expect(JSON.parse(replayed.out).decision).toBe('allow');
    const unknown = await run(
      ['classify', '--json', '--mode', 'auto', '--replay', file, 'npm install other'],
      {},
      undefined,
      home,
    );
    expect(JSON.parse(unknown.out).decision).toBe('ask');
  });

  it('the hook reads the transcript, and a model failure asks: it fails closed, it is not "undecided"', async () => {
    server = await startMessagesServer([reply.refusal(), reply.refusal()]);
    const dir = mkdtempSync(join(tmpdir(), 'automode-hook-'));
    const transcript = join(dir, 't.jsonl');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'add left-pad please' } })}\n`,
    );
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse',
      permission_mode: 'auto',
      transcript_path: transcript,
      tool_name: 'Bash',
      tool_input: { command: 'npm install left-pad' },
    });
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' };
    const r = await run(['hook'], env, input);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out).hookSpecificOutput;
    expect(out.permissionDecision).toBe('ask');
    expect(out.permissionDecisionReason).toMatch(/automode/);
    expect(JSON.stringify(server.messageRequests()[0]!.body!.messages)).toContain('add left-pad please');
  });
});
