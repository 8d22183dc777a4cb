import { access, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { STAGE1_TOOL, STAGE2_TOOL } from '../../src/classifier/model-parts.js';
import { createModelClient } from '../../src/llm/client.js';
import { REJECT_MESSAGE, RETRY_MESSAGE } from '../../src/pipeline/execute.js';
import { coordinatorHandler } from '../../src/pipeline/handlers/coordinator.js';
import { interactiveHandler } from '../../src/pipeline/handlers/interactive.js';
import { FileMailbox } from '../../src/pipeline/handlers/mailbox.js';
import { servePermissionRequests, swarmWorkerHandler } from '../../src/pipeline/handlers/swarm.js';
import { terminalPrompt } from '../../src/pipeline/handlers/terminal.js';
import type { PermissionSource } from '../../src/pipeline/permission/types.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';
import { hookCommand, run, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

let server: MessagesServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d: Buffer) => {
    written += d.toString();
  });
  const prompt = terminalPrompt({ input, output });
  return { input, prompt, output: () => written };
}

/** Resolves once the terminal shows text matching `re`. */
async function shown(t: ReturnType<typeof terminal>, re: RegExp, timeoutMs = 3000) {
  const end = Date.now() + timeoutMs;
  while (!re.test(t.output())) {
    if (Date.now() > end) throw new Error(`never shown: ${re}\n${t.output()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function modelServer(...replies: Parameters<typeof startMessagesServer>[0][]) {
  server = await startMessagesServer(replies.flat() as never);
  return createModelClient({
    apiKey: 'test-key',
    baseURL: server.url,
    env: {},
    timeoutMs: 10_000,
    attemptTimeoutMs: 10_000,
    retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
  });
}

const modelAllows = (delayMs = 0) =>
  reply.toolUse({ name: STAGE1_TOOL, input: { flag: false, rule: '' } }, { delayMs });

describe('the terminal prompt', () => {
  it('allows once, shows the command, the reason and the destructive warning', async () => {
    const t = terminal();
    const { ctx } = await setup({ handler: interactiveHandler({ prompt: t.prompt }) });
    const pending = run(ctx, 'Bash', { command: 'touch a && rm -rf build' });
    await shown(t, /Your choice \[1-3\]/);
    t.input.write('1\n');
    const r = await pending;
    expect(r.result.block.is_error).toBe(false);
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'allow', by: 'user' });
    expect(t.output()).toContain('Bash wants to run:\n  touch a && rm -rf build');
    expect(t.output()).toContain('Warning: This command deletes files recursively or without confirmation.');
    // Bash(rm *) would not let it through (the shipped Bash(rm -r *) still asks): the command's own words do.
    expect(t.output()).toMatch(/2\. Yes, and always allow Bash\(touch \*\), Bash\(rm -rf build\)\n/);
  });

  it('always allow saves the rule to the chosen settings file without losing the rest, and grants it for the session', async () => {
    const t = terminal();
    const { ctx, cwd } = await setup({ handler: interactiveHandler({ prompt: t.prompt }) });
    const local = path.join(cwd, '.claude', 'settings.local.json');
    await writeFile(
      local,
      JSON.stringify({ env: { A: '1' }, permissions: { deny: ['Bash(curl *)'], allow: ['Read'] } }),
    );
    const pending = run(ctx, 'Bash', { command: 'touch made' });
    await shown(t, /Your choice/);
    t.input.write('2\n');
    await shown(t, /Where \[1-3\]/);
    expect(t.output()).toContain(`1. ${local} (this project, only for me)`);
    t.input.write('1\n');
    const r = await pending;
    expect(r.result.block.is_error).toBe(false);
    expect(JSON.parse(await readFile(local, 'utf8'))).toEqual({
      env: { A: '1' },
      permissions: { deny: ['Bash(curl *)'], allow: ['Read', 'Bash(touch *)'] },
    });
    expect((await readdir(path.dirname(local))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const again = await run(ctx, 'Bash', { command: 'touch other' });
    expect(again.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'classifier',
    });
  });

  it('no is the reject message; an unreadable answer is asked again; the end of the input is no', async () => {
    const t = terminal();
    const { ctx } = await setup({ handler: interactiveHandler({ prompt: t.prompt }) });
    const pending = run(ctx, 'Bash', { command: 'touch x' });
    await shown(t, /Your choice/);
    t.input.write('maybe\n');
    await shown(t, /Please answer with a number from 1 to 3/);
    t.input.write('3\n');
    expect((await pending).text).toBe(REJECT_MESSAGE);
    const ended = run(ctx, 'Bash', { command: 'touch y' });
    await shown(t, /touch y/);
    t.input.end();
    const r = await ended;
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'deny',
      reason: 'no answer: the input ended',
    });
  });

  it('offers no "always allow" when no rule would let the call through, and says why', async () => {
    const t = terminal();
    const { ctx } = await setup({ handler: interactiveHandler({ prompt: t.prompt }) });
    const pending = run(ctx, 'Bash', { command: 'xargs rm -rf < dirs.txt' });
    await shown(t, /Your choice \[1-2\]/);
    expect(t.output()).toContain(
      'No rule to always allow: with Bash(rm *) added it would still ask: asked by Bash(rm -r *)\n',
    );
    expect(t.output()).not.toContain('always allow Bash');
    t.input.write('2\n');
    expect((await pending).text).toBe(REJECT_MESSAGE);
  });

  it('is never shown for what the rules deny', async () => {
    const t = terminal();
    const { ctx } = await setup({ handler: interactiveHandler({ prompt: t.prompt }) });
    const r = await run(ctx, 'Bash', { command: 'rm -rf /' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'deny',
      by: 'classifier',
    });
    expect(t.output()).toBe('');
  });
});

describe('the interactive handler races its sources', () => {
  it('the classifier answers while the prompt waits: the prompt is withdrawn', async () => {
    const model = await modelServer([modelAllows(300)]);
    const t = terminal();
    const { ctx } = await setup({ model, handler: interactiveHandler({ prompt: t.prompt }) });
    const r = await run(ctx, 'Bash', { command: 'touch by-model' });
    expect(r.result.block.is_error).toBe(false);
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'classifier',
    });
    expect(t.output()).toContain('Your choice');
    expect(t.output()).toContain('(answered elsewhere)');
  });

  it('the user answers before the slow classifier', async () => {
    const model = await modelServer([modelAllows(5000)]);
    const t = terminal();
    const { ctx } = await setup({ model, handler: interactiveHandler({ prompt: t.prompt }) });
    const started = Date.now();
    const pending = run(ctx, 'Bash', { command: 'touch by-user' });
    await shown(t, /Your choice/);
    t.input.write('3\n');
    const r = await pending;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.text).toBe(REJECT_MESSAGE);
  });

  it('another registered source can win; the losers are aborted', async () => {
    const t = terminal();
    let aborted = false;
    const remote: PermissionSource = (_request, signal) =>
      new Promise((resolve) => {
        const timer = setTimeout(
          () => resolve({ behavior: 'allow', by: 'remote', reason: 'approved on the phone' }),
          150,
        );
        signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    const never: PermissionSource = (_request, signal) =>
      new Promise((resolve) =>
        signal.addEventListener('abort', () => {
          aborted = true;
          resolve(undefined);
        }),
      );
    const { ctx } = await setup({
      handler: interactiveHandler({ prompt: t.prompt, sources: [remote, never] }),
    });
    const r = await run(ctx, 'Bash', { command: 'touch remote' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'remote',
    });
    expect(aborted).toBe(true);
    expect(t.output()).toContain('(answered elsewhere)');
  });

  it('a PermissionRequest hook is one of the automatic sources', async () => {
    const t = terminal();
    const stdout = {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'policy says no' },
      },
    };
    const project = {
      hooks: {
        PermissionRequest: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand({ stdout, sleep: 200 }) }] },
        ],
      },
    };
    const { ctx } = await setup({ project, handler: interactiveHandler({ prompt: t.prompt }) });
    const r = await run(ctx, 'Bash', { command: 'touch hooked' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'deny',
      by: 'permission-hook',
      reason: 'policy says no',
    });
  });
});

describe('the coordinator handler', () => {
  it('hooks first, then the classifier, then the prompt', async () => {
    const model = await modelServer([
      modelAllows(),
      reply.toolUse({ name: STAGE1_TOOL, input: { flag: true, rule: 'x' } }),
      reply.toolUse({
        name: STAGE2_TOOL,
        input: {
          reason: 'risky',
          decision: 'soft_deny',
          rule: 'Irreversible',
          allow_exception: '',
          user_requested: false,
        },
      }),
    ]);
    const t = terminal();
    const { ctx } = await setup({ model, handler: coordinatorHandler({ prompt: t.prompt }) });
    const byModel = await run(ctx, 'Bash', { command: 'touch one' });
    expect(byModel.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'classifier',
    });
    expect(t.output()).toBe('');
    const pending = run(ctx, 'Bash', { command: 'touch two' });
    await shown(t, /Irreversible/);
    t.input.write('1\n');
    expect((await pending).messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'user',
    });
  });

  it('without a prompt (headless) what nobody allows is denied', async () => {
    const { ctx } = await setup({ handler: coordinatorHandler() });
    const r = await run(ctx, 'Bash', { command: 'touch z' });
    expect(r.text).toMatch(/no rule allows touch z \(no one to ask\)$/);
  });
});

describe('the swarm worker asks its leader through a file mailbox', () => {
  it('the leader answers allow and deny; garbage and silence are no', async () => {
    const { root } = await setup();
    const mailbox = new FileMailbox(path.join(root, 'mailbox'));
    const controller = new AbortController();
    const seen: string[] = [];
    const leader = servePermissionRequests(
      mailbox,
      'leader',
      async (request) => {
        seen.push(String(request.input.command));
        return String(request.input.command).includes('ok')
          ? { behavior: 'allow', reason: 'looks fine' }
          : { behavior: 'deny', reason: 'not that' };
      },
      { signal: controller.signal, pollMs: 20 },
    );
    const worker = swarmWorkerHandler({
      mailbox,
      worker: 'worker-1',
      leader: 'leader',
      timeoutMs: 3000,
      pollMs: 20,
    });
    const { ctx } = await setup({ handler: worker });
    const ok = await run(ctx, 'Bash', { command: 'touch ok' });
    expect(ok.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'leader',
      reason: 'looks fine',
    });
    const no = await run(ctx, 'Bash', { command: 'touch nope' });
    expect(no.text).toBe('Permission to use Bash has been denied: not that');
    expect(seen).toEqual(['touch ok', 'touch nope']);
    controller.abort();
    await leader;

    const silent = swarmWorkerHandler({
      mailbox,
      worker: 'worker-2',
      leader: 'nobody',
      timeoutMs: 300,
      pollMs: 20,
    });
    const s = await setup({ handler: silent });
    const started = Date.now();
    const waited = await run(s.ctx, 'Bash', { command: 'touch waiting' });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(waited.text).toBe('Permission to use Bash has been denied: no answer from nobody within 0 s');

    const garbled = swarmWorkerHandler({
      mailbox,
      worker: 'worker-3',
      leader: 'liar',
      timeoutMs: 3000,
      pollMs: 20,
    });
    const g = await setup({ handler: garbled });
    const pending = run(g.ctx, 'Bash', { command: 'touch garbled' });
    let requests: Awaited<ReturnType<FileMailbox['take']>> = [];
    while (requests.length === 0) {
      requests = await mailbox.take('liar');
      await new Promise((r) => setTimeout(r, 20));
    }
    await mailbox.send('worker-3', { type: 'permission_response', id: requests[0]!.id, behavior: 'sure' });
    expect((await pending).text).toBe(
      'Permission to use Bash has been denied: the leader sent an unreadable answer',
    );
  });
});

describe('stage 3', () => {
  it('starts the classifier beside the PreToolUse hooks, not after them', async () => {
    const model = await modelServer([modelAllows(600)]);
    const probe = await setup();
    const record = path.join(probe.root, 'pre.jsonl');
    const project = {
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: hookCommand({ record, sleep: 600 }) }] }] },
    };
    const { ctx } = await setup({ model, project });
    const r = await run(ctx, 'Bash', { command: 'touch together' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'classifier',
    });
    const hookStart = JSON.parse((await readFile(record, 'utf8')).trim()).at as number;
    const modelStart = server!.messageRequests()[0]!.receivedAt;
    // One after the other, the model's request would come after the hook's 600 ms sleep; the order, not the
    // total time, is what the machine's load cannot change.
    expect(modelStart).toBeLessThan(hookStart + 400);
  });
});

describe('PermissionDenied hooks', () => {
  const hardDeny = [
    reply.toolUse({ name: STAGE1_TOOL, input: { flag: true, rule: 'Exfiltration' } }),
    reply.toolUse({
      name: STAGE2_TOOL,
      input: {
        reason: 'sends the keys out',
        decision: 'hard_deny',
        rule: 'Exfiltration',
        allow_exception: '',
        user_requested: false,
      },
    }),
  ];

  async function withHook(stdout: object) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'automode-denied-'));
    const record = path.join(dir, 'denied.jsonl');
    const project = {
      hooks: {
        PermissionDenied: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand({ stdout, record }) }] },
        ],
      },
    };
    return { project, record };
  }

  it("fire after the model's denial, with the reason; retry and context reach the model", async () => {
    const model = await modelServer(hardDeny);
    const { project, record } = await withHook({
      hookSpecificOutput: {
        hookEventName: 'PermissionDenied',
        retry: true,
        additionalContext: 'ask on #sec',
      },
    });
    const { ctx } = await setup({ model, project, mode: 'auto' });
    const r = await run(ctx, 'Bash', { command: 'npm run upload-keys' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'deny',
      by: 'classifier',
    });
    expect(r.result.block.is_error).toBe(true);
    expect(r.text).toMatch(/sends the keys out/);
    expect(r.text).toContain('PermissionDenied hook context: ask on #sec');
    expect(r.text).toContain(RETRY_MESSAGE);
    const seen = JSON.parse((await readFile(record, 'utf8')).trim()).input;
    expect(seen).toMatchObject({ hook_event_name: 'PermissionDenied', tool_name: 'Bash' });
    expect(seen.reason).toMatch(/sends the keys out/);
  });

  it("do not fire for a rule's denial, and without retry the result says nothing of one", async () => {
    const model = await modelServer(hardDeny);
    const { project, record } = await withHook({ hookSpecificOutput: { hookEventName: 'PermissionDenied' } });
    const { ctx } = await setup({ model, project, mode: 'auto' });
    const byRule = await run(ctx, 'Bash', { command: 'rm -rf /' });
    expect(byRule.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'deny' });
    await expect(access(record)).rejects.toThrow();
    const byModel = await run(ctx, 'Bash', { command: 'npm run upload-keys' });
    expect(byModel.text).toMatch(/sends the keys out/);
    expect(byModel.text).not.toContain(RETRY_MESSAGE);
    expect((await readFile(record, 'utf8')).trim().split('\n')).toHaveLength(1);
  });
});

describe('PermissionRequest hooks that rewrite or interrupt', () => {
  const allowWith = (updatedInput: unknown) => ({
    hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedInput } },
  });
  const hooked = (stdout: object) => ({
    permissions: { deny: ['Bash(rm -rf /)'] },
    hooks: {
      PermissionRequest: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand({ stdout }) }] },
      ],
    },
  });

  it('an allow with updatedInput runs the rewritten call', async () => {
    const { ctx } = await setup({
      project: hooked(allowWith({ command: 'printf rewritten' })),
      handler: coordinatorHandler(),
    });
    const r = await run(ctx, 'Bash', { command: 'touch original' });
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'permission-hook',
    });
    expect(r.result.block.is_error).toBe(false);
    expect(r.text).toContain('rewritten');
  });

  it('a rewritten input is checked again: a deny rule holds, an invalid input is refused, and neither runs', async () => {
    const denied = await setup({
      project: hooked(allowWith({ command: 'rm -rf /' })),
      handler: coordinatorHandler(),
    });
    const r = await run(denied.ctx, 'Bash', { command: 'touch original' });
    expect(r.result.block.is_error).toBe(true);
    expect(r.text).toMatch(
      /the input a PermissionRequest hook rewrote is denied: denied by Bash\(rm -rf \/\)/,
    );

    const invalid = await setup({
      project: hooked(allowWith({ command: 42 })),
      handler: coordinatorHandler(),
    });
    const v = await run(invalid.ctx, 'Bash', { command: 'touch original' });
    expect(v.result.block.is_error).toBe(true);
    expect(v.text).toMatch(/rewrote the input into one that is not valid/);
    await expect(access(path.join(invalid.cwd, 'original'))).rejects.toThrow();
  });

  it('a deny with interrupt tells the agent to stop', async () => {
    const { ctx } = await setup({
      project: hooked({
        hookSpecificOutput: {
          hookEventName: 'PermissionRequest',
          decision: { behavior: 'deny', message: 'out of policy', interrupt: true },
        },
      }),
      handler: coordinatorHandler(),
    });
    const r = await run(ctx, 'Bash', { command: 'touch original' });
    expect(r.messages.find((m) => m.type === 'hook')).toMatchObject({
      event: 'PermissionRequest',
      stop: 'out of policy',
    });
    expect(r.result.block.is_error).toBe(true);
    expect(r.text).toMatch(/out of policy/);
  });
});
