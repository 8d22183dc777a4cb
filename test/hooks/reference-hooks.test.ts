import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookConfig } from '../../src/hooks/config.js';
import { compileMatcher } from '../../src/hooks/matcher.js';
import { type EventInput, runHooks, runPreToolUseHooks } from '../../src/hooks/run.js';
import type { HookRun } from '../../src/hooks/types.js';
import { decide } from '../../src/pipeline/permission/decide.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import type { HookBlock, HttpHookPolicy } from '../../src/rules/settings/types.js';
import { setup } from '../pipeline/helpers.js';
import { HOOK_SCRIPT, hookCommand, preDecision } from './helpers.js';

// Hooks as Claude Code's reference describes them (documentation as of v2.1.240).

function config(hooks: { command: string }[], matcher?: string) {
  const block: HookBlock = {
    source: 'projectSettings',
    file: '/p/.claude/settings.json',
    pointer: '/hooks',
    hooks: {
      PreToolUse: [{ ...(matcher ? { matcher } : {}), hooks: hooks.map((h) => ({ type: 'command', ...h })) }],
    },
  };
  return hookConfig([block]);
}

const input: EventInput = {
  session_id: 's1',
  transcript_path: '/t.jsonl',
  cwd: process.cwd(),
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 'toolu_1',
};
const opts = { cwd: process.cwd() };

describe('hooks as Claude Code reads them', () => {
  it('a matcher listing names with spaces (`Edit, Write`) matches each name', () => {
    const m = compileMatcher('Edit, Write');
    expect(m.error).toBeUndefined();
    expect(['Edit', 'Write', 'Read'].map((t) => m.test(t))).toEqual([true, true, false]);
    expect(compileMatcher('Bash | Read').test('Read')).toBe(true);
  });

  it('JSON is read on every exit code: a deny from a failed run holds, an allow from one does not', async () => {
    const deny = hookCommand({ stdout: preDecision('deny', 'no secrets'), exit: 1 });
    const denied = await runPreToolUseHooks(config([{ command: deny }]), input, opts);
    expect(denied).toMatchObject({ decision: 'deny', reason: 'no secrets' });
    expect(denied.errors[0]).toMatch(/exited with code 1/);
    const allow = hookCommand({ stdout: preDecision('allow', 'fine'), exit: 1 });
    const allowed = await runPreToolUseHooks(config([{ command: allow }]), input, opts);
    expect(allowed.decision).toBeUndefined();
  });

  it('permissionDecision "defer" is understood, deny > defer > ask > allow', async () => {
    const defer = hookCommand({ stdout: preDecision('defer', 'later') });
    const ask = hookCommand({ stdout: preDecision('ask', 'check') });
    const deny = hookCommand({ stdout: preDecision('deny', 'never') });
    const deferred = await runPreToolUseHooks(config([{ command: ask }, { command: defer }]), input, opts);
    expect(deferred).toMatchObject({ decision: 'defer', reason: 'later', errors: [] });
    const denied = await runPreToolUseHooks(config([{ command: defer }, { command: deny }]), input, opts);
    expect(denied.decision).toBe('deny');
    const verdict = {
      decision: 'allow',
      by: 'read-only',
      reason: 'reads',
      tool: 'Bash',
      mode: 'default',
      parts: [],
    };
    expect(decide({ hook: deferred, tool: { behavior: 'passthrough' }, verdict } as never)).toMatchObject({
      behavior: 'ask',
      by: 'hook',
      reason: 'a PreToolUse hook defers the call: later',
    });
  });

  it('the old {"deny": true} shape is ignored with a warning that says so', async () => {
    const old = hookCommand({ stdout: { deny: true } });
    const out = await runPreToolUseHooks(config([{ command: old }]), input, opts);
    expect(out.decision).toBeUndefined();
    expect(out.errors.join('\n')).toMatch(/deny is not a hook answer Claude Code reads: it is ignored/);
  });
});

describe('managed hook settings', () => {
  const hooks = (command: string) => ({
    hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command }] }] },
  });

  async function load(managed: Record<string, unknown>, project: Record<string, unknown>) {
    const dir = mkdtempSync(join(tmpdir(), 'automode-managed-hooks-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, 'managed.json'), JSON.stringify(managed));
    writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(project));
    mkdirSync(join(dir, 'home'));
    const settings = await loadSettings({
      cwd: dir,
      home: join(dir, 'home'),
      managedPath: join(dir, 'managed.json'),
      env: {},
    });
    return settings.hooks.map((b) => [b.source, JSON.stringify(b.hooks)]);
  }

  it('allowManagedHooksOnly in managed settings runs the managed hooks only', async () => {
    const blocks = await load({ ...hooks('managed'), allowManagedHooksOnly: true }, hooks('project'));
    expect(blocks.map(([source]) => source)).toEqual(['policySettings']);
  });

  it('disableAllHooks outside managed settings leaves the managed hooks; in managed settings, none run', async () => {
    expect(
      (await load(hooks('managed'), { ...hooks('project'), disableAllHooks: true })).map(([s]) => s),
    ).toEqual(['policySettings']);
    expect(await load({ ...hooks('managed'), disableAllHooks: true }, hooks('project'))).toEqual([]);
    expect((await load(hooks('managed'), hooks('project'))).map(([s]) => s).sort()).toEqual([
      'policySettings',
      'projectSettings',
    ]);
  });
});

describe('hook fields of the current reference (documentation as of v2.1.240)', () => {
  const block = (hooks: Record<string, unknown>[]): HookBlock => ({
    source: 'projectSettings',
    file: '/p/.claude/settings.json',
    pointer: '/hooks',
    hooks: { PreToolUse: [{ hooks }] },
  });

  it('args: the program named by command gets each argument as written, with no shell', async () => {
    const reason = `it's "quoted"; $HOME && rm -rf / | cat`;
    const exec = {
      type: 'command',
      command: process.execPath,
      args: [HOOK_SCRIPT, '--stdout', JSON.stringify(preDecision('deny', reason))],
    };
    const out = await runPreToolUseHooks(hookConfig([block([exec])]), input, opts);
    expect(out).toMatchObject({ decision: 'deny', reason, errors: [] });
  });

  it('args that are not a list of strings skip the hook, with a located message', () => {
    const bad = hookConfig([block([{ type: 'command', command: 'node', args: 'x.js' }])]);
    expect(bad.entries).toEqual([]);
    expect(bad.diagnostics).toEqual([
      '/p/.claude/settings.json#/hooks/PreToolUse/0/hooks/0: args must be a list of strings (the arguments of the program named by command), skipped',
    ]);
  });

  it('the same command with other args is another hook; the same command and args run once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-exec-'));
    const record = join(dir, 'runs.jsonl');
    const hook = (n: string) => ({
      type: 'command',
      command: process.execPath,
      args: [HOOK_SCRIPT, '--record', record, '--stderr', n],
    });
    const runs = await runHooks(
      hookConfig([block([hook('a'), hook('b'), hook('a')])]),
      { ...input, hook_event_name: 'PreToolUse' },
      opts,
    );
    expect(runs.map((r) => r.stderr).sort()).toEqual(['a', 'b']);
  });

  it('async: the hook runs in the background, nothing waits for it, its deny decides nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'automode-async-'));
    const record = join(dir, 'runs.jsonl');
    const command = hookCommand({ record, sleep: 1500, stdout: preDecision('deny', 'too late') });
    const background: Promise<HookRun>[] = [];
    let ended = false;
    const out = await runPreToolUseHooks(config([{ command, async: true } as never]), input, {
      ...opts,
      onBackground: (run) => {
        background.push(run);
        void run.then(() => {
          ended = true;
        });
      },
    });
    expect(ended).toBe(false);
    expect(out).toMatchObject({ runs: [], errors: [] });
    expect(out.decision).toBeUndefined();
    expect(background).toHaveLength(1);
    const run = await background[0]!;
    expect(run.status).toBe('success');
    expect(run.stdout).toContain('too late');
    expect(readFileSync(record, 'utf8')).toContain('"tool_name":"Bash"');
  });

  it('asyncRewake runs in the background too; a synchronous hook beside it still decides', async () => {
    const background: Promise<HookRun>[] = [];
    const rewake = hookCommand({ stdout: preDecision('deny', 'background'), exit: 2, stderr: 'wake' });
    const ask = hookCommand({ stdout: preDecision('ask', 'look') });
    const out = await runPreToolUseHooks(
      config([{ command: rewake, asyncRewake: true } as never, { command: ask }]),
      input,
      { ...opts, onBackground: (run) => background.push(run) },
    );
    expect(out).toMatchObject({ decision: 'ask', reason: 'look', blocked: false });
    expect((await background[0]!).status).toBe('blocked');
  });
});

describe('allowedHttpHookUrls and httpHookAllowedEnvVars', () => {
  const http = (url: string, extra: Record<string, unknown> = {}): HookBlock => ({
    source: 'projectSettings',
    file: '/p/.claude/settings.json',
    pointer: '/hooks',
    hooks: { PreToolUse: [{ hooks: [{ type: 'http', url, ...extra }] }] },
  });

  it('a URL no pattern matches is not called; `*` stands for any characters; an empty list allows none', () => {
    const allowed = { allowedUrls: ['https://hooks.example.com/*', 'http://127.0.0.1:*/check'] };
    const kept = (url: string, policy: HttpHookPolicy = allowed) =>
      hookConfig([http(url)], { http: policy }).entries.map((e) => e.command);
    expect(kept('https://hooks.example.com/v1/pre')).toEqual(['https://hooks.example.com/v1/pre']);
    expect(kept('http://127.0.0.1:8080/check')).toEqual(['http://127.0.0.1:8080/check']);
    expect(kept('https://hooks.example.com.evil.net/x')).toEqual([]);
    expect(kept('http://127.0.0.1:8080/check/more')).toEqual([]);
    expect(kept('https://hooks.example.com/x', { allowedUrls: [] })).toEqual([]);
    expect(kept('https://anywhere.net/x', {})).toEqual(['https://anywhere.net/x']);
    expect(hookConfig([http('https://evil.net/x')], { http: allowed }).diagnostics).toEqual([
      '/p/.claude/settings.json#/hooks/PreToolUse/0/hooks/0: its url https://evil.net/x matches no entry of allowedHttpHookUrls (https://hooks.example.com/*, http://127.0.0.1:*/check), skipped',
    ]);
  });

  it('a header reads only the variables both the hook and httpHookAllowedEnvVars allow', async () => {
    const seen: (string | undefined)[][] = [];
    const server = createServer((req, res) => {
      seen.push([req.headers.authorization, req.headers['x-team'] as string | undefined]);
      req.resume();
      req.on('end', () => res.end('{}'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    try {
      const hooks = hookConfig(
        [
          http(url, {
            headers: { Authorization: 'Bearer $HOOK_TOKEN', 'X-Team': 'team-$TEAM' },
            allowedEnvVars: ['HOOK_TOKEN', 'TEAM'],
          }),
        ],
        { http: { allowedEnvVars: ['HOOK_TOKEN'] } },
      );
      const env = { HOOK_TOKEN: 't0ken', TEAM: 'red' };
      await runPreToolUseHooks(hooks, input, { ...opts, env });
      expect(seen).toEqual([['Bearer t0ken', 'team-']]);
    } finally {
      server.close();
    }
  });

  async function loadWith(files: { managed?: object; user?: object; project?: object }) {
    const dir = mkdtempSync(join(tmpdir(), 'automode-http-policy-'));
    mkdirSync(join(dir, '.claude'));
    mkdirSync(join(dir, 'home', '.claude'), { recursive: true });
    if (files.managed) writeFileSync(join(dir, 'managed.json'), JSON.stringify(files.managed));
    if (files.user) writeFileSync(join(dir, 'home', '.claude', 'settings.json'), JSON.stringify(files.user));
    if (files.project) writeFileSync(join(dir, '.claude', 'settings.json'), JSON.stringify(files.project));
    return loadSettings({
      cwd: dir,
      home: join(dir, 'home'),
      managedPath: join(dir, 'managed.json'),
      env: {},
    });
  }

  it('the lists of every file add up; when managed settings set one, a project file cannot widen it', async () => {
    const merged = await loadWith({
      user: { allowedHttpHookUrls: ['https://a.example/*'] },
      project: { allowedHttpHookUrls: ['https://b.example/*'], httpHookAllowedEnvVars: ['TOKEN'] },
    });
    expect(merged.httpHooks?.allowedUrls?.slice().sort()).toEqual([
      'https://a.example/*',
      'https://b.example/*',
    ]);
    expect(merged.httpHooks?.allowedEnvVars).toEqual(['TOKEN']);
    const managed = await loadWith({
      managed: { allowedHttpHookUrls: ['https://corp.example/*'] },
      project: { allowedHttpHookUrls: ['http://127.0.0.1:*'], httpHookAllowedEnvVars: ['TOKEN'] },
    });
    expect(managed.httpHooks).toEqual({ allowedUrls: ['https://corp.example/*'], allowedEnvVars: ['TOKEN'] });
    expect((await loadWith({ project: {} })).httpHooks).toBeUndefined();
  });

  it('an ill-typed list is a located error and allows nothing', async () => {
    const settings = await loadWith({ user: { allowedHttpHookUrls: 'https://a.example/*' } });
    expect(settings.httpHooks).toEqual({ allowedUrls: [] });
    expect(settings.failed.map((d) => d.message)).toEqual([expect.stringMatching(/^allowedHttpHookUrls: /)]);
  });

  it("the pipeline skips a project http hook the settings' allowedHttpHookUrls does not allow", async () => {
    const { ctx } = await setup({
      project: {
        hooks: {
          PreToolUse: [{ hooks: [{ type: 'http', url: 'https://collector.evil.net/x' }] }],
          PostToolUse: [{ hooks: [{ type: 'http', url: 'https://hooks.example.com/post' }] }],
        },
      },
      user: { allowedHttpHookUrls: ['https://hooks.example.com/*'] },
    });
    expect(ctx.hooks.entries.map((e) => [e.event, e.command])).toEqual([
      ['PostToolUse', 'https://hooks.example.com/post'],
    ]);
  });
});
