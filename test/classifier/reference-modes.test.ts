import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { STAGE1_TOOL } from '../../src/classifier/model-parts.js';
import { createModelClient } from '../../src/llm/client.js';
import { isBroadAllow } from '../../src/policy/index.js';
import type { CliRules } from '../../src/rules/settings/load.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';

// The permission modes as Claude Code's reference describes them (documentation as of v2.1.240).

beforeAll(async () => {
  await loadBash();
});

async function classifierFor(cli: CliRules, settings: Record<string, unknown> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'automode-modes-'));
  const loaded = await loadSettings({
    cwd: dir,
    home: dir,
    managedPath: join(dir, 'none.json'),
    env: {},
    cli,
    settingsFiles: [JSON.stringify(settings)],
  });
  return createClassifier(loaded);
}

describe('auto mode sets aside allow rules for Agent and Monitor', () => {
  it('as it does broad code-running Bash rules', async () => {
    const classifier = await classifierFor({ allow: ['Monitor', 'Agent(Explore)', 'Agent'] });
    const rules = classifier.settings.rules.filter((r) => r.provenance.source === 'cliArg');
    expect(rules.map((r) => [r.text, isBroadAllow(r)])).toEqual([
      ['Monitor', true],
      ['Agent(Explore)', true],
      ['Agent', true],
    ]);
    const monitor = { tool: 'Monitor', input: { command: 'tail -f log' } };
    expect((await classifier.classify({ ...monitor, mode: 'default' })).decision).toBe('allow');
    expect((await classifier.classify({ ...monitor, mode: 'auto' })).decision).not.toBe('allow');
  });
});

describe('plan mode asks about what is not a read', () => {
  it('instead of denying it; a deny rule still denies', async () => {
    const classifier = await classifierFor({ deny: ['Bash(rm *)'] });
    const plan = (command: string) => ({ tool: 'Bash', input: { command }, mode: 'plan' as const });
    expect(await classifier.classify(plan('touch x'))).toMatchObject({ decision: 'ask', by: 'mode' });
    expect((await classifier.classify(plan('ls'))).decision).toBe('allow');
    expect((await classifier.classify(plan('rm -f x'))).decision).toBe('deny');
  });
});

describe('plan mode with useAutoModeDuringPlan', () => {
  let server: MessagesServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function withModel(settings: Record<string, unknown>) {
    server = await startMessagesServer([
      reply.toolUse({ name: STAGE1_TOOL, input: { flag: false, rule: '' } }),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'automode-plan-'));
    const loaded = await loadSettings({
      cwd: dir,
      home: dir,
      managedPath: join(dir, 'none.json'),
      env: {},
      settingsFiles: [JSON.stringify(settings)],
    });
    const model = createModelClient({
      apiKey: 'test-key',
      baseURL: server.url,
      env: {},
      retry: { maxRetries: 0, baseDelayMs: 10, maxDelayMs: 10 },
    });
    return createClassifier(loaded, { model });
  }

  const touch = { tool: 'Bash', input: { command: 'touch x' }, mode: 'plan' as const };

  it('on, with a model: a call is judged as in auto mode; an edit still waits', async () => {
    const classifier = await withModel({ useAutoModeDuringPlan: true });
    expect(await classifier.classify(touch)).toMatchObject({ decision: 'allow', by: 'model', mode: 'auto' });
    const edit = {
      tool: 'Edit',
      input: { file_path: join(classifier.settings.cwd, 'a'), old_string: 'a', new_string: 'b' },
      mode: 'plan' as const,
    };
    expect((await classifier.classify(edit)).decision).toBe('ask');
  });

  it('off: plan mode asks and the model is not asked', async () => {
    const classifier = await withModel({ useAutoModeDuringPlan: false });
    expect(await classifier.classify(touch)).toMatchObject({ decision: 'ask', by: 'mode' });
    expect(server?.messageRequests()).toHaveLength(0);
  });
});

describe('the hook in auto mode with no model', () => {
  const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
  const hook = (command: string, args: string[] = []) => {
    const home = mkdtempSync(join(tmpdir(), 'automode-soft-hook-'));
    const r = spawnSync(process.execPath, [bin, 'hook', ...args], {
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home, AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json') },
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        cwd: home,
        tool_name: 'Bash',
        tool_input: { command },
        permission_mode: 'auto',
      }),
      encoding: 'utf8',
    });
    return r.stdout.trim();
  };

  it('gives no opinion on a soft ask, so that Claude Code classifies it; hard asks and denies stay', () => {
    expect(hook('git push --force origin x')).toBe('{}');
    const asked = JSON.parse(hook('git push --force origin x', ['--ask', 'Bash(git push *)']));
    expect(asked.hookSpecificOutput.permissionDecision).toBe('ask');
    expect(JSON.parse(hook('rm -rf /')).hookSpecificOutput.permissionDecision).toBe('deny');
  });
});
