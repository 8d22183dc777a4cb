import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hookConfig } from '../../src/hooks/config.js';
import { compileMatcher } from '../../src/hooks/matcher.js';
import { type EventInput, runPreToolUseHooks } from '../../src/hooks/run.js';
import { decide } from '../../src/pipeline/permission/decide.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import type { HookBlock } from '../../src/rules/settings/types.js';
import { hookCommand, preDecision } from './helpers.js';

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
