import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBash } from '../../src/bash/analyze.js';
import { classifyToolError, TelemetrySafeError } from '../../src/pipeline/errors.js';
import { REJECT_MESSAGE } from '../../src/pipeline/execute.js';
import { type AnyTool, buildTool } from '../../src/pipeline/tool.js';
import { hookCommand, preDecision, recordingHandler, run, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

const preHooks = (matcher: string, command: string) => ({
  hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command }] }] },
});

const greet = buildTool({
  name: 'Greet',
  aliases: ['Hello'],
  deprecatedAliases: ['Hi'],
  description: 'Greets someone',
  inputSchema: z.strictObject({ name: z.string(), times: z.number().int().optional() }),
  isConcurrencySafe: () => true,
  async *call(input) {
    yield { type: 'progress', data: 'thinking' };
    yield { type: 'result', data: `hello ${input.name}`.repeat(input.times ?? 1) };
  },
}) as AnyTool;

describe('stage 1: lookup', () => {
  it('an unknown tool is an error result, not an exception', async () => {
    const { ctx } = await setup();
    const { result, text } = await run(ctx, 'Nope', {});
    expect(result.block.is_error).toBe(true);
    expect(text).toBe('<tool_use_error>Error: No such tool available: Nope</tool_use_error>');
    expect(result.error).toEqual({ stage: 'lookup', kind: 'UnknownTool' });
  });

  it('finds tools by alias; a deprecated alias works and adds a notice', async () => {
    const { ctx } = await setup({ tools: [greet], project: { permissions: { allow: ['Greet'] } } });
    const viaAlias = await run(ctx, 'Hello', { name: 'a' });
    expect(viaAlias.text).toBe('hello a');
    expect(viaAlias.result.tool).toBe('Greet');
    const viaOld = await run(ctx, 'Hi', { name: 'b' });
    expect(viaOld.result.block.is_error).toBe(false);
    expect(viaOld.text).toBe('hello b\nNote: Hi is a deprecated name for Greet. Call Greet from now on.');
    expect(viaOld.messages.find((m) => m.type === 'progress')).toMatchObject({
      data: 'thinking',
      tool: 'Greet',
    });
  });
});

describe('stage 2: validation', () => {
  it('formats schema errors for the model inside <tool_use_error>', async () => {
    const { ctx } = await setup({ tools: [greet] });
    const { result, text } = await run(ctx, 'Greet', { times: 'x', extra: 1 });
    expect(result.error).toEqual({ stage: 'validation', kind: 'InputValidationError' });
    expect(text).toBe(
      [
        '<tool_use_error>InputValidationError: Greet failed due to the following issues:',
        'The required parameter `name` is missing',
        'The parameter `times` type is expected as `number` but provided as `string`',
        'An unexpected parameter `extra` was provided</tool_use_error>',
      ].join('\n'),
    );
  });

  it('coerces what models send as strings: "2" is a number, "true" a boolean', async () => {
    const { ctx, cwd } = await setup();
    const file = path.join(cwd, 'f.txt');
    await writeFile(file, 'one\ntwo\nthree\nfour\n');
    const { text, result } = await run(ctx, 'Read', { file_path: file, offset: '2', limit: '2' });
    expect(result.block.is_error).toBe(false);
    expect(text).toBe('     2\ttwo\n     3\tthree');
  });

  it("validateInput rejects with the tool's message and error code", async () => {
    const { ctx, cwd } = await setup({ project: { permissions: { allow: ['Edit'] } } });
    const file = path.join(cwd, 'a.txt');
    await writeFile(file, 'x = 1\nx = 1\n');
    const unread = await run(ctx, 'Edit', { file_path: file, old_string: 'x = 1', new_string: 'x = 2' });
    expect(unread.text).toMatch(/<tool_use_error>File has not been read yet/);
    expect(unread.result.error).toEqual({ stage: 'validation', kind: 'ValidationRejected:2' });
    await run(ctx, 'Read', { file_path: file });
    const twice = await run(ctx, 'Edit', { file_path: file, old_string: 'x = 1', new_string: 'x = 2' });
    expect(twice.text).toMatch(/Found 2 matches of the string to replace, but replace_all is false/);
    expect(await readFile(file, 'utf8')).toBe('x = 1\nx = 1\n');
  });

  it('validateInput can hand the decision to the user, even where a rule allows the tool', async () => {
    const { handler, requests } = recordingHandler('allow');
    const careful = buildTool({
      name: 'Careful',
      description: 'asks when unsure',
      inputSchema: z.strictObject({ sure: z.boolean() }),
      validateInput: (i) =>
        i.sure ? { result: true } : { result: false, behavior: 'ask', message: 'not sure about this' },
      async *call() {
        yield { type: 'result', data: 'done' };
      },
    }) as AnyTool;
    const { ctx } = await setup({
      tools: [careful],
      handler,
      project: { permissions: { allow: ['Careful'] } },
    });
    expect((await run(ctx, 'Careful', { sure: true })).text).toBe('done');
    expect(requests).toHaveLength(0);
    expect((await run(ctx, 'Careful', { sure: false })).text).toBe('done');
    expect(requests.map((r) => r.reason)).toEqual(['not sure about this']);
  });
});

describe('stages 3 and 4: hooks, rules, classifier and the handler', () => {
  it("a hook's deny and its exit 2 block the call, with the reason", async () => {
    const deny = await setup({
      project: preHooks('Bash', hookCommand({ stdout: preDecision('deny', 'not on fridays') })),
    });
    const denied = await run(deny.ctx, 'Bash', { command: 'printf hi' });
    expect(denied.result.error).toEqual({ stage: 'permission', kind: 'PermissionDenied' });
    expect(denied.text).toBe(
      'Permission to use Bash has been denied: denied by a PreToolUse hook: not on fridays',
    );
    expect(denied.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'deny',
      by: 'hook',
    });
    const block = await setup({
      project: preHooks(
        '*',
        hookCommand({ stdout: preDecision('allow'), stderr: 'blocked: no printing', exit: 2 }),
      ),
    });
    const blocked = await run(block.ctx, 'Bash', { command: 'printf hi' });
    expect(blocked.text).toBe(
      'Permission to use Bash has been denied: blocked by a PreToolUse hook: blocked: no printing',
    );
  });

  it('a PreToolUse hook that fails blocks the call when its onFailure is "block", and lets it run otherwise', async () => {
    const guard = (onFailure?: string) => ({
      permissions: { allow: ['Bash(touch *)'] },
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              {
                type: 'command',
                command: hookCommand({ stderr: 'guard broke', exit: 1 }),
                ...(onFailure ? { onFailure } : {}),
              },
            ],
          },
        ],
      },
    });
    const strict = await setup({ project: guard('block') });
    const blocked = await run(strict.ctx, 'Bash', { command: 'touch made.txt' });
    expect(blocked.result.error).toEqual({ stage: 'permission', kind: 'PermissionDenied' });
    expect(blocked.text).toMatch(
      /^Permission to use Bash has been denied: blocked by a PreToolUse hook: hook `.*hook\.mjs.*` exited with code 1: guard broke; the hook has "onFailure": "block", so the call is blocked$/,
    );
    await expect(readFile(path.join(strict.cwd, 'made.txt'))).rejects.toThrow();

    const lenient = await setup({ project: guard() });
    const ran = await run(lenient.ctx, 'Bash', { command: 'touch made.txt' });
    expect(ran.result.block.is_error).toBe(false);
    await expect(readFile(path.join(lenient.cwd, 'made.txt'))).resolves.toBeDefined();
  });

  it('a PreToolUse hook with an if runs only for the calls its rule matches', async () => {
    const { ctx } = await setup({
      project: {
        permissions: { allow: ['Bash(printf *)', 'Bash(rm *)'] },
        hooks: {
          PreToolUse: [
            {
              matcher: 'Bash',
              hooks: [
                {
                  type: 'command',
                  if: 'Bash(rm *)',
                  command: hookCommand({ stdout: preDecision('deny', 'no deleting') }),
                },
              ],
            },
          ],
        },
      },
    });
    const printed = await run(ctx, 'Bash', { command: 'printf hi' });
    expect(printed.text).toBe('hi');
    expect(printed.messages.some((m) => m.type === 'hook')).toBe(false);
    const removed = await run(ctx, 'Bash', { command: 'printf x && rm -f nothing.txt' });
    expect(removed.text).toBe(
      'Permission to use Bash has been denied: denied by a PreToolUse hook: no deleting',
    );
  });

  it("a hook's allow skips the prompt when nothing decided, but never beats a deny or ask rule, an opaque command or a protected path", async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx, cwd } = await setup({
      handler,
      project: {
        permissions: { ask: ['Bash(touch secret*)'], deny: ['Bash(touch forbidden*)'] },
        ...preHooks('*', hookCommand({ stdout: preDecision('allow', 'the hook trusts it') })),
      },
    });
    const open = await run(ctx, 'Bash', { command: 'touch made-by-hook' });
    expect(open.result.block.is_error).toBe(false);
    expect(open.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'hook',
    });
    expect(requests).toHaveLength(0);

    const forbidden = await run(ctx, 'Bash', { command: 'touch forbidden.txt' });
    expect(forbidden.text).toMatch(/denied by Bash\(touch forbidden\*\)/);
    expect(requests).toHaveLength(0);

    await run(ctx, 'Bash', { command: 'touch secret.txt' });
    await run(ctx, 'Bash', { command: 'printf $((' });
    await run(ctx, 'Write', { file_path: path.join(cwd, '.git', 'config'), content: 'x' });
    expect(requests.map((r) => [r.toolName, r.verdict?.by])).toEqual([
      ['Bash', 'rule'],
      ['Bash', 'opaque'],
      ['Write', 'protected-path'],
    ]);
  });

  it("a hook's ask goes to the handler even where a rule allows", async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx } = await setup({
      handler,
      project: {
        permissions: { allow: ['Greet'] },
        ...preHooks('Greet', hookCommand({ stdout: preDecision('ask', 'double check') })),
      },
      tools: [greet],
    });
    const r = await run(ctx, 'Greet', { name: 'x' });
    expect(requests.map((q) => q.reason)).toEqual(['a PreToolUse hook asks: double check']);
    expect(r.text).toBe('Permission to use Greet has been denied: the test says deny');
  });

  it('a hook that crashes, times out or prints garbage never allows', async () => {
    for (const command of [
      hookCommand({ stdout: preDecision('allow'), crash: true }),
      hookCommand({ stdout: '{"hookSpecificOutput": garbage' }),
      hookCommand({ stdout: preDecision('allow'), exit: 1 }),
    ]) {
      const { handler, requests } = recordingHandler('deny');
      const { ctx } = await setup({ handler, project: preHooks('Bash', command) });
      const r = await run(ctx, 'Bash', { command: 'touch x' });
      expect(r.result.block.is_error).toBe(true);
      expect(requests).toHaveLength(1);
      expect(r.messages.find((m) => m.type === 'hook')).toMatchObject({ event: 'PreToolUse' });
    }
    const { handler, requests } = recordingHandler('deny');
    const slow = {
      hooks: {
        PreToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: hookCommand({ sleep: 5000, stdout: preDecision('allow') }),
                timeout: 0.3,
              },
            ],
          },
        ],
      },
    };
    const { ctx } = await setup({ handler, project: slow });
    const started = Date.now();
    await run(ctx, 'Bash', { command: 'touch x' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(requests).toHaveLength(1);
  });

  it("a hook's updatedInput is validated and checked against the rules again", async () => {
    const rewrite = (input: unknown) =>
      hookCommand({ stdout: preDecision('allow', 'rewritten', { updatedInput: input }) });
    const good = await setup({ project: preHooks('Bash', rewrite({ command: 'printf rewritten' })) });
    expect((await run(good.ctx, 'Bash', { command: 'printf original' })).text).toBe('rewritten');
    const denied = await setup({ project: preHooks('Bash', rewrite({ command: 'rm -rf /' })) });
    const d = await run(denied.ctx, 'Bash', { command: 'printf harmless' });
    expect(d.result.error?.stage).toBe('permission');
    expect(d.text).toMatch(/denied by Bash\(rm -rf \/\)/);
    const invalid = await setup({ project: preHooks('Bash', rewrite({ command: 5 })) });
    const i = await run(invalid.ctx, 'Bash', { command: 'printf x' });
    expect(i.result.error).toEqual({ stage: 'validation', kind: 'InputValidationError' });
    expect(i.text).toMatch(
      /rewrote the input into one that is not valid:\n<tool_use_error>InputValidationError: Bash/,
    );
  });

  it("the tool's own check denies, and a check that throws denies too", async () => {
    const make = (check: () => never | { behavior: 'deny'; reason: string }) =>
      buildTool({
        name: 'Guarded',
        description: 'x',
        inputSchema: z.strictObject({}),
        checkPermissions: check,
        async *call() {
          yield { type: 'result', data: 'ran' };
        },
      }) as AnyTool;
    const denies = await setup({
      tools: [make(() => ({ behavior: 'deny', reason: 'not today' }))],
      project: { permissions: { allow: ['Guarded'] } },
    });
    expect((await run(denies.ctx, 'Guarded', {})).text).toBe(
      'Permission to use Guarded has been denied: not today',
    );
    const throws = await setup({
      tools: [
        make(() => {
          throw new Error('broken check');
        }),
      ],
      project: { permissions: { allow: ['Guarded'] } },
    });
    expect((await run(throws.ctx, 'Guarded', {})).text).toMatch(/permission check failed: broken check/);
  });

  it('a tool that says nothing about permissions needs permission', async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx } = await setup({ tools: [greet], handler });
    await run(ctx, 'Greet', { name: 'x' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.suggestions).toEqual(['Greet']);
  });

  it("the user's no is the reject message; repeated denials add guidance", async () => {
    const handler = async () => ({ behavior: 'deny' as const, by: 'user', reason: 'no' });
    const { ctx } = await setup({ handler });
    const first = await run(ctx, 'Bash', { command: 'touch a' });
    expect(first.text).toBe(REJECT_MESSAGE);
    const second = await run(ctx, 'Bash', { command: 'touch a' });
    expect(second.text).toContain(
      'Bash(touch a) has been denied 2 times in this session. Do not request it again',
    );
    const other = await run(ctx, 'Bash', { command: 'mkdir c' });
    expect(other.text).toContain('Bash has been denied 3 times in a row');
  });
});

describe('stage 5: execution', () => {
  it('classifies errors for telemetry without leaking paths', async () => {
    const { ctx, cwd } = await setup();
    const missing = await run(ctx, 'Read', { file_path: path.join(cwd, 'nope.txt') });
    expect(missing.result.error).toEqual({ stage: 'execution', kind: 'Error:ENOENT' });
    expect(missing.text).toMatch(/^Error: ENOENT/);
    const thrower = (value: unknown) =>
      buildTool({
        name: 'Thrower',
        description: 'x',
        inputSchema: z.strictObject({}),
        async *call() {
          yield { type: 'progress', data: 1 };
          throw value;
        },
      }) as AnyTool;
    class QuotaExceeded extends Error {
      override name = 'QuotaExceeded';
    }
    const kinds: Array<[unknown, string]> = [
      ['a string', 'UnknownError'],
      [new Error('plain /secret/path'), 'Error'],
      [new QuotaExceeded('over /secret/path'), 'QuotaExceeded'],
      [Object.assign(new Error('x'), { name: 'nJT' }), 'Error'],
      [new TelemetrySafeError('at /secret/path', 'QuotaCheckFailed'), 'QuotaCheckFailed'],
    ];
    for (const [value, kind] of kinds) {
      const s = await setup({ tools: [thrower(value)], project: { permissions: { allow: ['Thrower'] } } });
      const r = await run(s.ctx, 'Thrower', {});
      expect(r.result.error).toEqual({ stage: 'execution', kind });
      expect(classifyToolError(value)).toBe(kind);
    }
  });

  it('a tool timeout ends the call, even for a tool that ignores its abort signal', async () => {
    const stubborn = buildTool({
      name: 'Stubborn',
      description: 'x',
      inputSchema: z.strictObject({}),
      async *call() {
        await new Promise((r) => setTimeout(r, 8000));
        yield { type: 'result', data: 'late' };
      },
    }) as AnyTool;
    const { ctx } = await setup({
      tools: [stubborn],
      project: { permissions: { allow: ['Stubborn'] } },
      pipeline: { toolTimeoutMs: 300 },
    });
    const started = Date.now();
    const r = await run(ctx, 'Stubborn', {});
    expect(Date.now() - started).toBeLessThan(3500);
    expect(r.result.error).toEqual({ stage: 'execution', kind: 'Timeout' });
    expect(r.text).toBe('Stubborn timed out after 300 ms');
  });

  it('cancellation kills a running command at once', async () => {
    const { ctx } = await setup();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const r = await run(ctx, 'Bash', { command: 'sleep 20' }, { signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(r.result.error).toEqual({ stage: 'cancelled', kind: 'Interrupted' });
  });
});

describe('stages 6 to 8: result, PostToolUse hooks, tool_result', () => {
  it('writes a result over maxResultSizeChars whole to disk; the model gets the path and a preview', async () => {
    const { ctx, root } = await setup();
    const r = await run(ctx, 'Bash', { command: 'seq 1 40000' });
    const expected = `${Array.from({ length: 40000 }, (_, i) => i + 1).join('\n')}\n`;
    const file = /Full output saved to: (.*)$/m.exec(r.text)?.[1];
    expect(file).toBeDefined();
    expect(file!.startsWith(path.join(root, 'results'))).toBe(true);
    expect(await readFile(file!, 'utf8')).toBe(expected);
    expect(r.text.length).toBeLessThan(3000);
    expect(r.text).toContain(`Output too large (${expected.length} characters)`);
    expect(r.text).toContain('1\n2\n3\n');
    const progress = r.messages
      .filter((m) => m.type === 'progress')
      .map((m) => (m.data as { text: string }).text);
    expect(progress.join('')).toBe(expected);
  });

  it('PostToolUse hooks see the response and add context and feedback; PostToolUseFailure sees the error', async () => {
    const { ctx, root } = await setup();
    const record = path.join(root, 'post.jsonl');
    const project = {
      permissions: { allow: ['Bash(exit *)'] },
      hooks: {
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: hookCommand({ record }) },
              {
                type: 'command',
                command: hookCommand({
                  stdout: {
                    decision: 'block',
                    reason: 'tests must pass first',
                    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ran in CI mode' },
                  },
                }),
              },
            ],
          },
        ],
        PostToolUseFailure: [
          { matcher: 'Bash', hooks: [{ type: 'command', command: hookCommand({ record }) }] },
        ],
      },
    };
    const s = await setup({ project });
    void ctx;
    const ok = await run(s.ctx, 'Bash', { command: 'printf done' });
    expect(ok.result.block.is_error).toBe(false);
    expect(ok.text).toBe(
      'done\nPostToolUse hook context: ran in CI mode\nPostToolUse hook feedback: tests must pass first',
    );
    const bad = await run(s.ctx, 'Bash', { command: 'printf oops >&2; exit 3' });
    expect(bad.result.block.is_error).toBe(true);
    expect(bad.text).toBe('Error: oops\nExit code 3');
    expect(bad.result.error).toEqual({ stage: 'execution', kind: 'ShellError' });
    const lines = (await readFile(record, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).input);
    expect(lines[0]).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'printf done' },
      tool_response: { stdout: 'done', stderr: '', exitCode: 0 },
    });
    expect(lines[1]).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      error: 'Error: oops\nExit code 3',
      is_interrupt: false,
    });
  });

  it('emits the tool_result in the Messages API shape', async () => {
    const { ctx } = await setup();
    const r = await run(ctx, 'Bash', { command: 'printf hi' });
    expect(r.result.block).toEqual({
      type: 'tool_result',
      tool_use_id: r.result.toolUseId,
      content: 'hi',
      is_error: false,
    });
  });
});
