import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookConfig, matchingHooks } from '../../src/hooks/config.js';
import { compileMatcher } from '../../src/hooks/matcher.js';
import {
  type EventInput,
  runPermissionDeniedHooks,
  runPermissionRequestHooks,
  runPostToolUseHooks,
  runPreToolUseHooks,
} from '../../src/hooks/run.js';
import type { HookBlock } from '../../src/rules/settings/types.js';
import { hookCommand, preDecision, tempDir } from './helpers.js';

type Entry = { command: string; timeout?: number; onFailure?: string; if?: string };

function config(pre: Array<{ matcher?: string; hooks: Entry[] }>, event = 'PreToolUse') {
  const block: HookBlock = {
    source: 'projectSettings',
    file: '/p/.claude/settings.json',
    pointer: '/hooks',
    hooks: { [event]: pre.map((m) => ({ ...m, hooks: m.hooks.map((h) => ({ type: 'command', ...h })) })) },
  };
  return hookConfig([block]);
}

const input = (tool = 'Bash', toolInput: unknown = { command: 'ls' }): EventInput => ({
  session_id: 's1',
  transcript_path: '/t.jsonl',
  cwd: process.cwd(),
  permission_mode: 'default',
  tool_name: tool,
  tool_input: toolInput,
  tool_use_id: 'toolu_1',
});

const opts = { cwd: process.cwd() };

describe('matchers', () => {
  it('empty and * match all, names and lists match exactly, anything else is an unanchored regex', () => {
    expect(compileMatcher('').test('Bash')).toBe(true);
    expect(compileMatcher(undefined).test('X')).toBe(true);
    expect(compileMatcher('*').test('mcp__a__b')).toBe(true);
    expect(compileMatcher('Bash').test('Bash')).toBe(true);
    expect(compileMatcher('Bash').test('BashOutput')).toBe(false);
    const list = compileMatcher('Edit|Write,Read');
    expect(['Edit', 'Write', 'Read', 'Glob'].map((t) => list.test(t))).toEqual([true, true, true, false]);
    const regex = compileMatcher('mcp__memory__.*');
    expect(regex.test('mcp__memory__store')).toBe(true);
    expect(regex.test('mcp__other__x')).toBe(false);
    expect(compileMatcher('Notebook.*').test('NotebookEdit')).toBe(true);
    // unanchored, as Claude Code documents: anchor it to mean the whole name
    expect(compileMatcher('Edit.*').test('MultiEdit')).toBe(true);
    expect(compileMatcher('^Edit$').test('MultiEdit')).toBe(false);
  });

  it('an invalid regex matches every tool and is reported: a guard that never runs would fail open', () => {
    const m = compileMatcher('Bash(');
    expect(m.test('Read')).toBe(true);
    expect(m.error).toMatch(/invalid matcher regex/);
    const c = config([{ matcher: 'Bash(', hooks: [{ command: 'true' }] }]);
    expect(c.diagnostics[0]).toMatch(/\/hooks\/PreToolUse\/0\/matcher: invalid matcher regex/);
  });

  it('reads command hooks with their timeout (default 600 s), skips other types, runs identical ones once', () => {
    const block: HookBlock = {
      source: 'userSettings',
      pointer: '/hooks',
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'a', timeout: 5 },
              { type: 'prompt', prompt: 'x' },
            ],
          },
          {
            matcher: '*',
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'c' }] }],
      },
    };
    const c = hookConfig([block]);
    expect(c.entries.map((e) => [e.command, e.timeoutMs])).toEqual([
      ['a', 5000],
      ['a', 600_000],
      ['b', 600_000],
    ]);
    expect(c.diagnostics).toHaveLength(1);
    expect(matchingHooks(c, 'PreToolUse', 'Bash').map((h) => h.command)).toEqual(['a', 'b']);
    expect(matchingHooks(c, 'PreToolUse', 'Read').map((h) => h.command)).toEqual(['a', 'b']);
    expect(hookConfig([block], { defaultTimeoutMs: 1000 }).entries[1]!.timeoutMs).toBe(1000);
  });
});

describe('command hooks as real processes', () => {
  it('get the JSON input on stdin and CLAUDE_PROJECT_DIR in their environment', async () => {
    const dir = await tempDir();
    const record = path.join(dir, 'in.jsonl');
    const c = config([
      {
        matcher: 'Bash',
        hooks: [{ command: `${hookCommand({ record })} && echo "$CLAUDE_PROJECT_DIR" >> ${record}` }],
      },
    ]);
    const out = await runPreToolUseHooks(c, input(), { cwd: dir, projectDir: '/the/project' });
    expect(out.runs[0]!.status).toBe('success');
    const [line, env] = (await readFile(record, 'utf8')).trim().split('\n');
    expect(JSON.parse(line!).input).toEqual({ ...input(), hook_event_name: 'PreToolUse' });
    expect(env).toBe('/the/project');
  });

  it('aggregate deny > ask > allow, joining the reasons of the winning decision', async () => {
    const allow = hookCommand({ stdout: preDecision('allow', 'fine') });
    const ask = hookCommand({ stdout: preDecision('ask', 'check this') });
    const deny = hookCommand({ stdout: preDecision('deny', 'never') });
    const deny2 = hookCommand({ stdout: preDecision('deny', 'really never') });
    const all = await runPreToolUseHooks(
      config([{ hooks: [{ command: allow }, { command: ask }, { command: deny }, { command: deny2 }] }]),
      input(),
      opts,
    );
    expect(all).toMatchObject({ decision: 'deny', reason: 'never; really never', blocked: false });
    const two = await runPreToolUseHooks(
      config([{ hooks: [{ command: allow }, { command: ask }] }]),
      input(),
      opts,
    );
    expect(two).toMatchObject({ decision: 'ask', reason: 'check this' });
    const one = await runPreToolUseHooks(config([{ hooks: [{ command: allow }] }]), input(), opts);
    expect(one).toMatchObject({ decision: 'allow', reason: 'fine' });
    const legacy = await runPreToolUseHooks(
      config([{ hooks: [{ command: hookCommand({ stdout: { decision: 'block', reason: 'old style' } }) }] }]),
      input(),
      opts,
    );
    expect(legacy).toMatchObject({ decision: 'deny', reason: 'old style' });
  });

  it('exit 2 blocks with stderr as the reason, and a JSON allow cannot override it', async () => {
    const c = config([
      { hooks: [{ command: hookCommand({ stdout: preDecision('allow'), stderr: 'no rm here', exit: 2 }) }] },
      { hooks: [{ command: hookCommand({ stdout: preDecision('allow', 'go') }) }] },
    ]);
    const out = await runPreToolUseHooks(c, input(), opts);
    expect(out).toMatchObject({ decision: 'deny', blocked: true, reason: 'no rm here' });
  });

  it('other exit codes, crashes, timeouts and garbage output decide nothing and are reported', async () => {
    const allowJson = preDecision('allow');
    const cases: Array<[Entry, RegExp]> = [
      [{ command: hookCommand({ stdout: allowJson, stderr: 'oops', exit: 1 }) }, /exited with code 1: oops/],
      [{ command: hookCommand({ stdout: allowJson, crash: true }) }, /killed by SIGKILL/],
      [{ command: hookCommand({ sleep: 5000, stdout: allowJson }), timeout: 0.3 }, /timed out after 300 ms/],
      [
        { command: hookCommand({ stdout: '{"hookSpecificOutput": {"permissionDecision": "allow"' }) },
        /invalid JSON/,
      ],
      [{ command: hookCommand({ stdout: preDecision('yes please') }) }, /unknown permissionDecision/],
      [
        { command: hookCommand({ stdout: preDecision('allow', 'x', { updatedInput: 'rm -rf /' }) }) },
        /updatedInput is not an object/,
      ],
      [{ command: 'exec /definitely/not/a/program' }, /exited with code 127/],
    ];
    const started = Date.now();
    const outs = await Promise.all(
      cases.map(([hook]) => runPreToolUseHooks(config([{ hooks: [hook] }]), input(), opts)),
    );
    expect(Date.now() - started).toBeLessThan(4000);
    outs.forEach((out, i) => {
      expect(out.decision, `case ${i}`).toBeUndefined();
      expect(out.errors[0], `case ${i}`).toMatch(cases[i]![1]);
    });
    expect(outs[2]!.runs[0]!.status).toBe('timeout');
  });

  it('garbage that states a deny keeps the deny: failing closed never loses a refusal', async () => {
    const c = config([
      { hooks: [{ command: hookCommand({ stdout: preDecision('deny', 'no', { updatedInput: 3 }) }) }] },
    ]);
    const out = await runPreToolUseHooks(c, input(), opts);
    expect(out.decision).toBe('deny');
    expect(out.errors[0]).toMatch(/updatedInput is not an object/);
  });

  it('runs all matching hooks in parallel, identical ones once', async () => {
    const dir = await tempDir();
    const record = path.join(dir, 'runs.jsonl');
    const slow = (n: number) => ({ command: `${hookCommand({ record, sleep: 600 })} # ${n}` });
    const same = { command: hookCommand({ record, sleep: 600 }) };
    const c = config([
      { matcher: 'Bash', hooks: [slow(1), slow(2), same] },
      { matcher: '*', hooks: [slow(3), same] },
      { matcher: 'Read', hooks: [slow(4)] },
    ]);
    const out = await runPreToolUseHooks(c, input(), opts);
    expect(out.runs).toHaveLength(4);
    const starts = (await readFile(record, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).at as number);
    expect(starts).toHaveLength(4);
    // Each sleeps 600 ms: every one started before the first could have ended, whatever the machine's load.
    expect(Math.max(...starts)).toBeLessThan(Math.min(...starts) + 600);
  });

  it('caps the output it keeps', async () => {
    const c = config([{ hooks: [{ command: `yes x | head -c 500000` }] }]);
    const out = await runPreToolUseHooks(c, input(), { ...opts, maxOutputChars: 1000 });
    expect(out.runs[0]!.stdout).toHaveLength(1000);
    expect(out.runs[0]!.truncated).toBe(true);
  });

  it('passes updatedInput on, and asks when two hooks rewrite the input differently', async () => {
    const update = (command: string) =>
      hookCommand({ stdout: preDecision('allow', 'rewritten', { updatedInput: { command } }) });
    const one = await runPreToolUseHooks(config([{ hooks: [{ command: update('ls -a') }] }]), input(), opts);
    expect(one).toMatchObject({ decision: 'allow', updatedInput: { command: 'ls -a' } });
    const two = await runPreToolUseHooks(
      config([{ hooks: [{ command: update('ls -a') }, { command: update('ls -b') }] }]),
      input(),
      opts,
    );
    expect(two.decision).toBe('ask');
    expect(two.updatedInput).toBeUndefined();
  });

  it('reads continue: false, systemMessage and additionalContext', async () => {
    const stdout = {
      continue: false,
      stopReason: 'enough',
      systemMessage: 'hello user',
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx' },
    };
    const out = await runPreToolUseHooks(
      config([{ hooks: [{ command: hookCommand({ stdout }) }] }]),
      input(),
      opts,
    );
    expect(out).toMatchObject({ stop: 'enough', systemMessages: ['hello user'], additionalContext: ['ctx'] });
  });

  it('PostToolUse hooks give context and block feedback; exit 2 is feedback too', async () => {
    const c = config(
      [
        {
          hooks: [
            {
              command: hookCommand({
                stdout: {
                  decision: 'block',
                  reason: 'lint failed',
                  hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'see lint.log' },
                },
              }),
            },
          ],
        },
        { hooks: [{ command: hookCommand({ stderr: 'format it', exit: 2 }) }] },
      ],
      'PostToolUse',
    );
    const out = await runPostToolUseHooks(c, 'PostToolUse', { ...input(), tool_response: { ok: 1 } }, opts);
    expect(out.blocks).toEqual(['lint failed', 'format it']);
    expect(out.additionalContext).toEqual(['see lint.log']);
  });

  it('PostToolUse replacements and classifier notes are collected in settings order; updatedToolOutput wins over updatedMCPToolOutput', async () => {
    const say = (fields: Record<string, unknown>) => ({
      command: hookCommand({ stdout: { hookSpecificOutput: { hookEventName: 'PostToolUse', ...fields } } }),
    });
    const c = config(
      [
        {
          hooks: [
            say({ updatedMCPToolOutput: ['mcp'], updatedToolOutput: ['any'], classifierContext: 'one' }),
            say({ updatedMCPToolOutput: ['only mcp'] }),
            say({ classifierContext: 42 }),
            say({ classifierContext: 'two' }),
          ],
        },
      ],
      'PostToolUse',
    );
    const out = await runPostToolUseHooks(c, 'PostToolUse', { ...input(), tool_response: { ok: 1 } }, opts);
    expect(out.replacements.map((r) => [r.field, r.value])).toEqual([
      ['updatedToolOutput', ['any']],
      ['updatedMCPToolOutput', ['only mcp']],
    ]);
    expect(out.replacements[0]!.hook).toMatch(/^hook `/);
    expect(out.classifierContext).toEqual(['one', 'two']);
    expect(out.errors).toEqual([expect.stringMatching(/classifierContext is not a string/)]);
  });

  it('PermissionDenied hooks get the reason and may say retry; exit 2 and a bad retry are reported', async () => {
    const dir = await tempDir();
    const record = path.join(dir, 'input.json');
    const retry = { hookSpecificOutput: { hookEventName: 'PermissionDenied', retry: true } };
    const yes = config(
      [{ hooks: [{ command: hookCommand({ stdout: retry, record }) }] }],
      'PermissionDenied',
    );
    const said = await runPermissionDeniedHooks(yes, { ...input(), reason: 'the model said no' }, opts);
    expect(said.retry).toBe(true);
    expect(said.errors).toEqual([]);
    const received = JSON.parse(await readFile(record, 'utf8')).input;
    expect(received).toMatchObject({ hook_event_name: 'PermissionDenied', reason: 'the model said no' });

    const bad = config(
      [
        {
          hooks: [
            { command: hookCommand({ stdout: { hookSpecificOutput: { retry: 'yes' } } }) },
            { command: hookCommand({ stderr: 'no', exit: 2 }) },
          ],
        },
      ],
      'PermissionDenied',
    );
    const unusable = await runPermissionDeniedHooks(bad, { ...input(), reason: 'r' }, opts);
    expect(unusable.retry).toBe(false);
    expect(unusable.errors).toHaveLength(2);
    expect(unusable.errors.join('\n')).toMatch(/retry is not a boolean/);
    expect(unusable.errors.join('\n')).toMatch(/cannot block/);
  });

  it('PermissionRequest: an allow may rewrite the input; differing rewrites decide nothing; a bad one drops the allow', async () => {
    const allow = (updatedInput: unknown) => ({
      command: hookCommand({
        stdout: {
          hookSpecificOutput: {
            hookEventName: 'PermissionRequest',
            decision: { behavior: 'allow', updatedInput },
          },
        },
      }),
    });
    const one = config([{ hooks: [allow({ command: 'ls -a' })] }], 'PermissionRequest');
    expect(await runPermissionRequestHooks(one, input(), opts)).toMatchObject({
      decision: 'allow',
      updatedInput: { command: 'ls -a' },
    });
    const two = config(
      [{ hooks: [allow({ command: 'ls -a' }), allow({ command: 'ls -l' })] }],
      'PermissionRequest',
    );
    const split = await runPermissionRequestHooks(two, input(), opts);
    expect(split.decision).toBeUndefined();
    expect(split.errors.join('\n')).toMatch(/rewrote the input in different ways/);
    const bad = config([{ hooks: [allow('ls -a')] }], 'PermissionRequest');
    const dropped = await runPermissionRequestHooks(bad, input(), opts);
    expect(dropped.decision).toBeUndefined();
    expect(dropped.errors.join('\n')).toMatch(/updatedInput is not an object/);
  });

  it('http hooks: the input is POSTed, a 2xx body is the output, allowed variables fill the headers', async () => {
    const seen: { body: unknown; auth: string | undefined; other: string | undefined }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString();
      });
      req.on('end', () => {
        seen.push({
          body: JSON.parse(body),
          auth: req.headers.authorization,
          other: req.headers['x-other'] as string,
        });
        if (req.url === '/deny') {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(preDecision('deny', 'the service says no')));
        } else if (req.url === '/slow') {
          setTimeout(() => res.end('{}'), 3000);
        } else {
          res.statusCode = 500;
          res.end('boom');
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const block: HookBlock = {
        source: 'projectSettings',
        pointer: '/hooks',
        hooks: {
          PreToolUse: [
            {
              hooks: [
                {
                  type: 'http',
                  url: `${base}/deny`,
                  // biome-ignore lint/suspicious/noTemplateCurlyInString: a header template, not a JS one
                  headers: { Authorization: 'Bearer $HOOK_TOKEN', 'X-Other': '${SECRET_NOT_ALLOWED}x' },
                  allowedEnvVars: ['HOOK_TOKEN'],
                },
              ],
            },
          ],
        },
      };
      const env = { HOOK_TOKEN: 't0ken', SECRET_NOT_ALLOWED: 'leak' };
      const denied = await runPreToolUseHooks(hookConfig([block]), input(), { ...opts, env });
      expect(denied).toMatchObject({ decision: 'deny', reason: 'the service says no' });
      expect(seen[0]).toEqual({
        body: expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }),
        auth: 'Bearer t0ken',
        other: 'x',
      });

      const failing = hookConfig([
        {
          source: 'projectSettings',
          pointer: '/hooks',
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  { type: 'http', url: `${base}/error` },
                  { type: 'http', url: `${base}/slow`, timeout: 0.3 },
                  { type: 'http', url: 'http://127.0.0.1:9/nothing-listens' },
                ],
              },
            ],
          },
        },
      ]);
      const out = await runPreToolUseHooks(failing, input(), opts);
      expect(out.decision).toBeUndefined();
      expect(out.errors).toEqual([
        expect.stringMatching(/http hook .*\/error answered HTTP 500: boom/),
        expect.stringMatching(/http hook .*\/slow timed out after 300 ms/),
        expect.stringMatching(/http hook .*nothing-listens could not be reached/),
      ]);
    } finally {
      server.close();
    }
  });

  it('an abort kills the hooks at once', async () => {
    const controller = new AbortController();
    const c = config([
      { hooks: [{ command: hookCommand({ sleep: 10_000, stdout: preDecision('allow') }) }] },
    ]);
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const out = await runPreToolUseHooks(c, input(), { ...opts, signal: controller.signal });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(out.runs[0]!.status).toBe('aborted');
    expect(out.decision).toBeUndefined();
  });
});

describe('onFailure: "block"', () => {
  const allowJson = preDecision('allow');
  const failures: Array<[string, Entry, RegExp]> = [
    [
      'exit 1',
      { command: hookCommand({ stdout: allowJson, stderr: 'oops', exit: 1 }) },
      /exited with code 1: oops/,
    ],
    [
      'a timeout',
      { command: hookCommand({ sleep: 5000, stdout: allowJson }), timeout: 0.3 },
      /timed out after 300 ms/,
    ],
    [
      'a program that is not there',
      { command: '/definitely/not/a/program --check' },
      /exited with code 127 \(its program could not be started\)/,
    ],
  ];

  it.each(failures)(
    '%s blocks the call, with a reason naming the hook and the failure',
    async (_, hook, why) => {
      const out = await runPreToolUseHooks(
        config([{ hooks: [{ ...hook, onFailure: 'block' }] }]),
        input(),
        opts,
      );
      expect(out).toMatchObject({ decision: 'deny', blocked: true });
      expect(out.reason).toMatch(why);
      expect(out.reason).toContain(hook.command.slice(0, 40));
      expect(out.reason).toMatch(/"onFailure": "block", so the call is blocked$/);
    },
  );

  it.each(failures)('%s without it lets the call go on, as before', async (_, hook, why) => {
    for (const onFailure of [undefined, 'continue']) {
      const entry = onFailure ? { ...hook, onFailure } : hook;
      const out = await runPreToolUseHooks(config([{ hooks: [entry] }]), input(), opts);
      expect(out.decision).toBeUndefined();
      expect(out.blocked).toBe(false);
      expect(out.errors[0]).toMatch(why);
    }
  });

  it('a hook that ran decides as usual: exit 0 allows, exit 2 blocks with its own reason', async () => {
    const ok = await runPreToolUseHooks(
      config([{ hooks: [{ command: hookCommand({ stdout: allowJson }), onFailure: 'block' }] }]),
      input(),
      opts,
    );
    expect(ok).toMatchObject({ decision: 'allow', blocked: false, errors: [] });
    const two = await runPreToolUseHooks(
      config([{ hooks: [{ command: hookCommand({ stderr: 'no', exit: 2 }), onFailure: 'block' }] }]),
      input(),
      opts,
    );
    expect(two).toMatchObject({ decision: 'deny', reason: 'no' });
  });

  it('an identical command listed twice blocks when either entry says so', async () => {
    const command = hookCommand({ exit: 1 });
    const out = await runPreToolUseHooks(
      config([{ hooks: [{ command }] }, { hooks: [{ command, onFailure: 'block' }] }]),
      input(),
      opts,
    );
    expect(out.runs).toHaveLength(1);
    expect(out.decision).toBe('deny');
  });

  it('a cancelled hook does not block: the call is being cancelled anyway', async () => {
    const controller = new AbortController();
    const c = config([{ hooks: [{ command: hookCommand({ sleep: 10_000 }), onFailure: 'block' }] }]);
    setTimeout(() => controller.abort(), 200);
    const out = await runPreToolUseHooks(c, input(), { ...opts, signal: controller.signal });
    expect(out.runs[0]!.status).toBe('aborted');
    expect(out.decision).toBeUndefined();
  });

  it('a failing PermissionRequest hook with it denies; without it decides nothing', async () => {
    const failing = { command: hookCommand({ exit: 3 }) };
    const blocked = await runPermissionRequestHooks(
      config([{ hooks: [{ ...failing, onFailure: 'block' }] }], 'PermissionRequest'),
      input(),
      opts,
    );
    expect(blocked.decision).toBe('deny');
    expect(blocked.reason).toMatch(/exited with code 3; the hook has "onFailure": "block"/);
    const open = await runPermissionRequestHooks(
      config([{ hooks: [failing] }], 'PermissionRequest'),
      input(),
      opts,
    );
    expect(open.decision).toBeUndefined();
  });

  it('http hooks: a refused connection and a 500 block with it, and go on without it', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const refused = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hook`;
    await new Promise<void>((r) => closed.close(() => r()));
    const httpConfig = (url: string, onFailure?: string) =>
      hookConfig([
        {
          source: 'projectSettings',
          pointer: '/hooks',
          hooks: { PreToolUse: [{ hooks: [{ type: 'http', url, ...(onFailure ? { onFailure } : {}) }] }] },
        },
      ]);
    try {
      const cases: Array<[string, RegExp]> = [
        [`${base}/hook`, /answered HTTP 500: boom/],
        [refused, /could not be reached/],
      ];
      for (const [url, why] of cases) {
        const blocked = await runPreToolUseHooks(httpConfig(url, 'block'), input(), opts);
        expect(blocked, url).toMatchObject({ decision: 'deny', blocked: true });
        expect(blocked.reason).toMatch(why);
        expect(blocked.reason).toContain(`http hook ${url}`);
        const open = await runPreToolUseHooks(httpConfig(url), input(), opts);
        expect(open.decision, url).toBeUndefined();
        expect(open.errors[0]).toMatch(why);
      }
    } finally {
      server.close();
    }
  });
});

describe('the handler field if', () => {
  /** Which of the commands ran the hook, by the calls it recorded. */
  async function ranFor(condition: string, calls: Array<[string, unknown]>): Promise<boolean[]> {
    const dir = await tempDir();
    const record = path.join(dir, 'runs.jsonl');
    const c = config([{ hooks: [{ command: hookCommand({ record }), if: condition }] }]);
    expect(c.diagnostics).toEqual([]);
    const ran: boolean[] = [];
    for (const [tool, toolInput] of calls) {
      const before = await readFile(record, 'utf8').catch(() => '');
      await runPreToolUseHooks(c, input(tool, toolInput), opts);
      ran.push((await readFile(record, 'utf8').catch(() => '')).length > before.length);
    }
    return ran;
  }

  it('Bash(git *) runs the hook for every git command, in a compound line, after a variable or hidden, and for nothing else', async () => {
    const commands = [
      'git status',
      'ls && git push origin main',
      'FOO=1 git push',
      'ls -la',
      'echo git',
      'gitk',
      'eval "$CMD"',
    ];
    const ran = await ranFor(
      'Bash(git *)',
      commands.map((command) => ['Bash', { command }]),
    );
    expect(Object.fromEntries(commands.map((c, i) => [c, ran[i]]))).toEqual({
      'git status': true,
      'ls && git push origin main': true,
      'FOO=1 git push': true,
      'ls -la': false,
      'echo git': false,
      gitk: false,
      // A command that cannot be analysed may be a git command: a guard is not skipped on a guess.
      'eval "$CMD"': true,
    });
  });

  it('other tools: a bare tool name, and a path rule', async () => {
    const inSrc = path.join(process.cwd(), 'src', 'a.ts');
    const inDocs = path.join(process.cwd(), 'docs', 'a.md');
    expect(
      await ranFor('Edit(src/**)', [
        ['Edit', { file_path: inSrc, old_string: 'a', new_string: 'b' }],
        ['Edit', { file_path: inDocs, old_string: 'a', new_string: 'b' }],
        ['Bash', { command: 'ls' }],
      ]),
    ).toEqual([true, false, false]);
    expect(
      await ranFor('WebFetch', [
        ['WebFetch', { url: 'https://example.com', prompt: 'x' }],
        ['Read', { file_path: inSrc }],
      ]),
    ).toEqual([true, false]);
    // A path automode always asks about is no reason to run a Bash rule's hook for another tool.
    const gitConfig = path.join(process.cwd(), '.git', 'config');
    expect(
      await ranFor('Bash(git *)', [['Edit', { file_path: gitConfig, old_string: 'a', new_string: 'b' }]]),
    ).toEqual([false]);
  });

  it('an if that is not a permission rule is reported and runs the hook for every call', async () => {
    const dir = await tempDir();
    const record = path.join(dir, 'runs.jsonl');
    const c = config([{ hooks: [{ command: hookCommand({ record }), if: 'Bash(git *' }] }]);
    expect(c.diagnostics).toEqual([
      expect.stringMatching(
        /#\/hooks\/PreToolUse\/0\/hooks\/0\/if: "if": "Bash\(git \*" is not a permission rule .*; the hook runs for every call$/,
      ),
    ]);
    await runPreToolUseHooks(c, input('Bash', { command: 'ls' }), opts);
    expect(await readFile(record, 'utf8')).not.toBe('');
  });

  it('a hook whose if does not match decides nothing, and the same command under another if still runs once', async () => {
    const dir = await tempDir();
    const record = path.join(dir, 'runs.jsonl');
    const command = hookCommand({ record, stdout: preDecision('deny', 'no pushing') });
    const c = config([
      { hooks: [{ command, if: 'Bash(git push *)' }] },
      { hooks: [{ command, if: 'Bash(rm *)' }] },
    ]);
    const ls = await runPreToolUseHooks(c, input('Bash', { command: 'ls' }), opts);
    expect(ls.runs).toEqual([]);
    expect(ls.decision).toBeUndefined();
    const rm = await runPreToolUseHooks(c, input('Bash', { command: 'rm -rf build' }), opts);
    expect(rm.runs).toHaveLength(1);
    expect(rm.decision).toBe('deny');
    expect((await readFile(record, 'utf8')).trim().split('\n')).toHaveLength(1);
  });
});
