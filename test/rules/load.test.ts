import { utimesSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addRules, formatDiagnostic, type LoadOptions, loadSettingsFiles } from '../../src/rules/index.js';
import { fixture, sandbox, writeFiles } from './helpers.js';

async function standardSandbox() {
  const box = await sandbox();
  await writeFiles(box.root, {
    'home/.claude/settings.json': await fixture('user-settings.json'),
    'proj/.claude/settings.json': await fixture('project-settings.json'),
    'proj/.claude/settings.local.json': await fixture('local-settings.json'),
    'etc/managed-settings.json': await fixture('managed-settings.json'),
  });
  const options: LoadOptions = { cwd: box.cwd, home: box.home, managedPath: box.managed, env: {} };
  return { ...box, options };
}

const texts = (settings: Awaited<ReturnType<typeof loadSettingsFiles>>) =>
  settings.rules.map((rule) => `${rule.provenance.source} ${rule.behavior} ${rule.text}`);

describe('loadSettingsFiles sources', () => {
  it('finds user, project, local and managed files and concatenates their rules in display order', async () => {
    const { options, home, cwd, managed } = await standardSandbox();
    const settings = await loadSettingsFiles(options);
    expect(settings.failed).toEqual([]);
    expect(texts(settings)).toEqual([
      'policySettings deny Bash(curl *)',
      'policySettings deny mcp__untrusted',
      'localSettings allow WebFetch(domain:*.example.com)',
      'localSettings deny Bash(rm -rf *)',
      'projectSettings allow Bash(npm run test:*)',
      'projectSettings allow Edit(/src/**)',
      'projectSettings ask Bash(git push *)',
      'userSettings allow Bash(git status)',
      'userSettings allow Read(/notes/**)',
      'userSettings deny Read(~/.ssh/**)',
    ]);
    expect(settings.files).toEqual([
      { source: 'userSettings', path: path.join(home, '.claude', 'settings.json'), exists: true },
      { source: 'projectSettings', path: path.join(cwd, '.claude', 'settings.json'), exists: true },
      { source: 'localSettings', path: path.join(cwd, '.claude', 'settings.local.json'), exists: true },
      { source: 'policySettings', path: managed, exists: true },
    ]);
  });

  it('records where each rule came from, with its line and column', async () => {
    const { options, cwd } = await standardSandbox();
    const settings = await loadSettingsFiles(options);
    const push = settings.rules.find((rule) => rule.text === 'Bash(git push *)')!;
    expect(push.provenance).toEqual({
      source: 'projectSettings',
      file: path.join(cwd, '.claude', 'settings.json'),
      pointer: '/permissions/ask/0',
      index: 0,
      line: 4,
      column: 13,
    });
    const edit = settings.rules.find((rule) => rule.text === 'Edit(/src/**)')!;
    expect(edit.provenance).toMatchObject({ pointer: '/permissions/allow/1', index: 1, line: 3, column: 39 });
  });

  it('anchors /x path rules at each file root: the project for project settings, ~/.claude for user settings', async () => {
    const { options, cwd, home } = await standardSandbox();
    const settings = await loadSettingsFiles(options);
    const root = (text: string) => {
      const rule = settings.rules.find((r) => r.text === text);
      return rule?.type === 'permission' && rule.parsed.kind === 'path'
        ? rule.parsed.pattern.root
        : undefined;
    };
    expect(root('Edit(/src/**)')).toBe(cwd);
    expect(root('Read(/notes/**)')).toBe(path.join(home, '.claude'));
  });

  it('is fine with no files at all', async () => {
    const box = await sandbox();
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.rules).toEqual([]);
    expect(settings.diagnostics).toEqual([]);
    expect(settings.files.every((file) => !file.exists)).toBe(true);
    expect(settings.defaultMode).toBeUndefined();
  });

  it('reads the managed path from AUTOMODE_MANAGED_SETTINGS and its drop-in folder in name order', async () => {
    const box = await sandbox();
    await writeFiles(box.root, {
      'etc/managed-settings.json': '{"permissions": {"deny": ["Bash(base)"], "defaultMode": "plan"}}',
      'etc/managed-settings.d/20-b.json': '{"permissions": {"deny": ["Bash(b)"], "defaultMode": "dontAsk"}}',
      'etc/managed-settings.d/10-a.json': '{"permissions": {"deny": ["Bash(a)"], "defaultMode": "auto"}}',
      'etc/managed-settings.d/.hidden.json': '{"permissions": {"deny": ["Bash(hidden)"]}}',
      'etc/managed-settings.d/notes.txt': 'not json',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      env: { AUTOMODE_MANAGED_SETTINGS: box.managed },
    });
    expect(texts(settings)).toEqual([
      'policySettings deny Bash(base)',
      'policySettings deny Bash(a)',
      'policySettings deny Bash(b)',
    ]);
    expect(settings.defaultMode).toBe('dontAsk');
    expect(settings.scalars.defaultMode?.provenance.file).toBe(
      path.join(box.root, 'etc', 'managed-settings.d', '20-b.json'),
    );
  });

  it('reads --settings files and inline JSON, relative to the working folder, and flags CLI rules', async () => {
    const box = await sandbox();
    await writeFiles(box.root, { 'proj/ci.json': '{"permissions": {"allow": ["Edit(/out/**)"]}}' });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
      settingsFiles: ['ci.json', '{"permissions": {"deny": ["WebSearch"]}}'],
      cli: { allow: ['Bash(make *)'], deny: ['Bash(make deploy)'] },
    });
    expect(settings.failed).toEqual([]);
    expect(texts(settings)).toEqual([
      'flagSettings allow Edit(/out/**)',
      'flagSettings deny WebSearch',
      'cliArg allow Bash(make *)',
      'cliArg deny Bash(make deploy)',
    ]);
    const cli = settings.rules.find((rule) => rule.text === 'Bash(make deploy)')!;
    expect(cli.provenance).toEqual({ source: 'cliArg', pointer: '/deny/0', index: 0 });
    const inline = settings.rules.find((rule) => rule.text === 'WebSearch')!;
    expect(inline.provenance.file).toBeUndefined();
    expect(inline.provenance.line).toBe(1);
  });

  it('fails on a missing --settings file but not on a missing user file', async () => {
    const box = await sandbox();
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
      settingsFiles: ['nope.json'],
    });
    expect(settings.failed).toEqual([
      {
        severity: 'error',
        code: 'read-failed',
        message: 'file not found',
        source: 'flagSettings',
        file: path.join(box.cwd, 'nope.json'),
      },
    ]);
  });
});

describe('loadSettingsFiles precedence', () => {
  it('takes scalars from managed > flag > local > project > user', async () => {
    const { options } = await standardSandbox();
    const all = await loadSettingsFiles(options);
    expect(all.defaultMode).toBe('default');
    expect(all.scalars.defaultMode?.provenance.source).toBe('localSettings');
    expect(all.scalars.disableBypassPermissionsMode?.value).toBe('disable');

    const box = await standardSandbox();
    await writeFiles(box.root, { 'flag.json': '{"permissions": {"defaultMode": "bypassPermissions"}}' });
    const flagged = await loadSettingsFiles({
      ...box.options,
      settingsFiles: [path.join(box.root, 'flag.json')],
    });
    expect(flagged.defaultMode).toBe('bypassPermissions');

    await writeFiles(box.root, { 'etc/managed-settings.json': '{"permissions": {"defaultMode": "manual"}}' });
    const managed = await loadSettingsFiles({
      ...box.options,
      settingsFiles: [path.join(box.root, 'flag.json')],
    });
    expect(managed.defaultMode).toBe('default');
    expect(managed.scalars.defaultMode?.provenance.source).toBe('policySettings');
  });

  it('falls through to lower sources when higher ones leave a scalar unset', async () => {
    const box = await sandbox();
    await writeFiles(box.root, {
      'home/.claude/settings.json': '{"permissions": {"defaultMode": "acceptEdits"}}',
      'proj/.claude/settings.json': '{"permissions": {"allow": []}}',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.defaultMode).toBe('acceptEdits');
  });

  it('merges env key by key and keeps hooks and additional directories with their source', async () => {
    const { options, cwd, home } = await standardSandbox();
    const settings = await loadSettingsFiles(options);
    expect(settings.env).toEqual({ SHARED: 'project', USER_ONLY: '1' });
    expect(settings.hooks).toEqual([
      {
        source: 'userSettings',
        file: path.join(home, '.claude', 'settings.json'),
        pointer: '/hooks',
        hooks: {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh', timeout: 600 }] },
          ],
        },
      },
    ]);
    expect(settings.additionalDirectories.map((d) => d.path)).toEqual([
      path.resolve(cwd, '../shared'),
      path.join(home, 'lib'),
    ]);
  });

  it('keeps only managed rules under allowManagedPermissionRulesOnly, saying what it dropped', async () => {
    const box = await standardSandbox();
    await writeFiles(box.root, {
      'etc/managed-settings.json':
        '{"allowManagedPermissionRulesOnly": true, "permissions": {"deny": ["Bash(curl *)"]}}',
    });
    const settings = await loadSettingsFiles({ ...box.options, cli: { allow: ['Bash'] } });
    expect(texts(settings)).toEqual(['policySettings deny Bash(curl *)']);
    const dropped = settings.diagnostics.filter((d) => d.code === 'managed-only').map((d) => d.message);
    expect(dropped).toEqual([
      'allowManagedPermissionRulesOnly is set in managed settings: 1 rule(s) from cliArg ignored',
      'allowManagedPermissionRulesOnly is set in managed settings: 2 rule(s) from localSettings ignored',
      'allowManagedPermissionRulesOnly is set in managed settings: 3 rule(s) from projectSettings ignored',
      'allowManagedPermissionRulesOnly is set in managed settings: 3 rule(s) from userSettings ignored',
    ]);
    const granted = addRules(settings, 'session', [{ behavior: 'allow', text: 'Bash(ls)' }]);
    expect(granted.rules).toHaveLength(1);
    expect(granted.diagnostics.at(-1)?.message).toBe(
      'allowManagedPermissionRulesOnly is set in managed settings: 1 rule(s) from session ignored',
    );
  });

  it('ignores allowManagedPermissionRulesOnly outside managed settings', async () => {
    const box = await sandbox();
    await writeFiles(box.root, {
      'proj/.claude/settings.json':
        '{"allowManagedPermissionRulesOnly": true, "permissions": {"allow": ["Bash(ls)"]}}',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(texts(settings)).toEqual(['projectSettings allow Bash(ls)']);
    expect(settings.diagnostics.map(formatDiagnostic)).toEqual([
      `${path.join(box.cwd, '.claude', 'settings.json')}:1:37: warning managed-only: allowManagedPermissionRulesOnly is only honoured in managed settings`,
    ]);
  });
});

describe('loadSettingsFiles failures', () => {
  it('locates invalid JSON with line and column, keeps the file out and reports it as failed', async () => {
    const box = await sandbox();
    const file = path.join(box.cwd, '.claude', 'settings.json');
    await writeFiles(box.root, {
      'proj/.claude/settings.json': '{\n  "permissions": {\n    "allow": ["Bash(ls)",]\n  }\n}\n',
      'home/.claude/settings.json': '{"permissions": {"deny": ["Bash(rm *)"]}}',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.failed).toEqual([
      {
        severity: 'error',
        code: 'invalid-json',
        message: "Unexpected token ']'",
        source: 'projectSettings',
        file,
        line: 3,
        column: 26,
      },
    ]);
    expect(texts(settings)).toEqual(['userSettings deny Bash(rm *)']);
  });

  it('gives the JSON position V8 reports', async () => {
    const box = await sandbox();
    await writeFiles(box.root, { 'proj/.claude/settings.local.json': '{\n  "a": 1\n  "b": 2\n}' });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.failed.map(formatDiagnostic)).toEqual([
      `${path.join(box.cwd, '.claude', 'settings.local.json')}:3:3: error invalid-json: Expected ',' or '}' after property value`,
    ]);
  });

  it('locates schema errors and still loads the valid parts of the file', async () => {
    const box = await sandbox();
    const file = path.join(box.home, '.claude', 'settings.json');
    await writeFiles(box.root, {
      'home/.claude/settings.json': [
        '{',
        '  "permissions": {',
        '    "allow": "Bash(ls)",',
        '    "deny": ["Bash(rm *)", 42],',
        '    "defaultMode": "yolo"',
        '  }',
        '}',
      ].join('\n'),
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(texts(settings)).toEqual(['userSettings deny Bash(rm *)']);
    expect(settings.failed.map((d) => [d.pointer, d.line, d.column, d.file === file])).toEqual([
      ['/permissions/allow', 3, 14, true],
      ['/permissions/deny/1', 4, 28, true],
      ['/permissions/defaultMode', 5, 20, true],
    ]);
    expect(settings.failed[0]?.message).toBe(
      'permissions.allow: Invalid input: expected array, received string',
    );
    expect(settings.defaultMode).toBeUndefined();
  });

  it('reports a settings file that is not an object', async () => {
    const box = await sandbox();
    await writeFiles(box.root, { 'home/.claude/settings.json': '["Bash"]' });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.failed).toHaveLength(1);
    expect(settings.failed[0]).toMatchObject({ code: 'schema', pointer: '', line: 1, column: 1 });
  });

  it('treats an unreadable file as failed, never as missing', async () => {
    const box = await sandbox();
    await mkdir(path.join(box.cwd, '.claude', 'settings.json'), { recursive: true });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.failed).toHaveLength(1);
    expect(settings.failed[0]).toMatchObject({
      severity: 'error',
      code: 'read-failed',
      source: 'projectSettings',
      file: path.join(box.cwd, '.claude', 'settings.json'),
    });
    expect(settings.failed[0]?.message).toMatch(/^cannot read file: EISDIR/);
    expect(settings.files.find((f) => f.source === 'projectSettings')?.exists).toBe(true);
  });

  it('checks the shape of hooks loosely and keeps well-formed blocks as written', async () => {
    const box = await sandbox();
    await writeFiles(box.root, {
      'home/.claude/settings.json': '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": "./check.sh"}]}}',
      'proj/.claude/settings.json': '{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "x": 1}]}]}}',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.failed.map((d) => [d.source, d.pointer, d.line, d.column])).toEqual([
      ['userSettings', '/hooks/PreToolUse/0/hooks', 1, 56],
    ]);
    expect(settings.hooks).toEqual([
      {
        source: 'projectSettings',
        file: path.join(box.cwd, '.claude', 'settings.json'),
        pointer: '/hooks',
        hooks: { PostToolUse: [{ hooks: [{ type: 'command', x: 1 }] }] },
      },
    ]);
  });

  it('treats an empty file as empty settings, as Claude Code does, once it has stayed empty for a second', async () => {
    const box = await sandbox();
    await writeFiles(box.root, { 'home/.claude/settings.json': '\n' });
    const past = new Date(Date.now() - 10_000);
    utimesSync(path.join(box.home, '.claude', 'settings.json'), past, past);
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.diagnostics).toEqual([]);
  });

  it('locates malformed and suspicious rules and leaves out the malformed ones', async () => {
    const box = await sandbox();
    const file = path.join(box.cwd, '.claude', 'settings.json');
    await writeFiles(box.root, {
      'proj/.claude/settings.json': '{"permissions": {\n  "deny": ["Bash(rm", "Bassh(ls)", "Bash(ls)"]\n}}',
    });
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(texts(settings)).toEqual(['projectSettings deny Bassh(ls)', 'projectSettings deny Bash(ls)']);
    expect(settings.diagnostics.map(formatDiagnostic)).toEqual([
      `${file}:2:12: error rule-syntax: missing ")" at the end of "Bash(rm" (Bash(rm)`,
      `${file}:2:23: warning unknown-tool: unknown tool "Bassh"; did you mean "Bash"? (Bassh(ls))`,
    ]);
    expect(settings.failed).toHaveLength(1);
  });
});

describe('addRules', () => {
  it('adds session and command rules without changing the settings it was given', async () => {
    const { options } = await standardSandbox();
    const settings = await loadSettingsFiles(options);
    const before = structuredClone(settings);
    const next = addRules(settings, 'session', [
      { behavior: 'allow', text: 'Bash(make *)' },
      { behavior: 'deny', text: 'Bash(' },
    ]);
    expect(settings).toEqual(before);
    const session = next.rules.filter((rule) => rule.provenance.source === 'session');
    expect(session.map((rule) => [rule.text, rule.provenance.pointer])).toEqual([
      ['Bash(make *)', '/allow/0'],
    ]);
    expect(next.rules.at(-1)?.text).toBe('Bash(make *)');
    expect(next.failed.map(formatDiagnostic)).toEqual([
      'session: error rule-syntax: missing ")" at the end of "Bash(" (Bash()',
    ]);

    const command = addRules(next, 'command', [{ behavior: 'ask', text: 'Bash(git push *)' }]);
    expect(command.rules.map((rule) => rule.provenance.source).slice(-2)).toEqual(['session', 'command']);
  });
});
