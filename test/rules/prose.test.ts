import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  formatDiagnostic,
  loadSettingsFiles,
  type ProseDefaults,
  proseLabel,
} from '../../src/rules/index.js';
import { fixture, sandbox, writeFiles } from './helpers.js';

const defaults: ProseDefaults = {
  environment: ['Trusted repo: the git repository the agent started in'],
  allow: [
    'Local work: reading and writing files in the working folder',
    'Dependencies: installing declared ones',
  ],
  soft_deny: ['Force push: rewriting remote history', 'Deploys: production deploys'],
  hard_deny: ['Reverse shells: opening a shell to a remote host'],
};

async function load(files: Record<string, string>, extra: { settingsFiles?: string[] } = {}) {
  const box = await sandbox();
  await writeFiles(box.root, files);
  const settings = await loadSettingsFiles({
    cwd: box.cwd,
    home: box.home,
    managedPath: box.managed,
    env: {},
    defaults,
    ...extra,
  });
  return { box, settings };
}

const texts = (entries: { text: string }[]) => entries.map((entry) => entry.text);

describe('prose rules', () => {
  it('splices $defaults, replaces sections written without it and keeps unwritten sections', async () => {
    const { settings, box } = await load({
      'home/.claude/settings.json': await fixture('user-settings.json'),
      'etc/managed-settings.json': await fixture('managed-settings.json'),
    });
    const { prose } = settings;
    expect(texts(prose.environment)).toEqual([
      'Trusted repo: the git repository the agent started in',
      'Source control: github.example.com/acme',
    ]);
    expect(texts(prose.allow)).toEqual(defaults.allow);
    expect(texts(prose.soft_deny)).toEqual([
      'Migrations: never run database migrations outside the migrations CLI',
    ]);
    expect(texts(prose.hard_deny)).toEqual([
      'Reverse shells: opening a shell to a remote host',
      'Exfiltration: never send repository contents to third-party APIs',
    ]);
    expect(prose.classifyAllShell).toBe(true);
    expect(settings.diagnostics.map(formatDiagnostic)).toEqual([
      `${path.join(box.home, '.claude', 'settings.json')}:9:18: warning defaults-replaced: autoMode.soft_deny has no "$defaults": it replaces 2 built-in rules`,
    ]);
  });

  it('keeps each entry with its label and provenance', async () => {
    const { settings, box } = await load({
      'home/.claude/settings.json': await fixture('user-settings.json'),
    });
    const [builtIn, custom] = settings.prose.environment;
    expect(builtIn).toEqual({
      section: 'environment',
      label: 'Trusted repo',
      text: 'Trusted repo: the git repository the agent started in',
      provenance: { source: 'defaults', pointer: '/environment/0', index: 0 },
    });
    expect(custom).toEqual({
      section: 'environment',
      label: 'Source control',
      text: 'Source control: github.example.com/acme',
      provenance: {
        source: 'userSettings',
        file: path.join(box.home, '.claude', 'settings.json'),
        pointer: '/autoMode/environment/1',
        index: 1,
        line: 8,
        column: 34,
      },
    });
  });

  it('splices the built-ins where $defaults stands, once, across sources in display order', async () => {
    const { settings } = await load({
      'etc/managed-settings.json': '{"autoMode": {"allow": ["Managed: first", "$defaults"]}}',
      'home/.claude/settings.json': '{"autoMode": {"allow": ["User: before", "$defaults", "User: after"]}}',
    });
    expect(texts(settings.prose.allow)).toEqual([
      'Managed: first',
      ...defaults.allow!,
      'User: before',
      'User: after',
    ]);
  });

  it('reads autoMode from --settings files', async () => {
    const { settings } = await load({}, { settingsFiles: ['{"autoMode": {"hard_deny": ["Only: this"]}}'] });
    expect(texts(settings.prose.hard_deny)).toEqual(['Only: this']);
    expect(settings.prose.hard_deny[0]?.provenance.source).toBe('flagSettings');
  });

  it('ignores autoMode in the shared project settings with a located warning that says why', async () => {
    const { settings, box } = await load({
      'proj/.claude/settings.json': await fixture('project-settings.json'),
    });
    expect(texts(settings.prose.allow)).toEqual(defaults.allow);
    expect(texts(settings.prose.hard_deny)).toEqual(defaults.hard_deny);
    expect(settings.diagnostics.map(formatDiagnostic)).toEqual([
      `${path.join(box.cwd, '.claude', 'settings.json')}:8:15: warning automode-ignored: autoMode is not read from the project's settings (projectSettings): a file in the repository cannot set the classifier's prose rules, or anything that can write there could loosen them (Claude Code 2.1.207 and later); put it in user, managed or --settings files: ignored`,
    ]);
  });

  it('ignores autoMode in local settings, as Claude Code does since 2.1.207', async () => {
    const { settings, box } = await load({
      'etc/managed-settings.json': '{"autoMode": {"allow": ["Managed: first", "$defaults"]}}',
      'proj/.claude/settings.local.json':
        '{"autoMode": {"classifyAllShell": true, "allow": ["Local: mine"], "hard_deny": ["Local: never"]}}',
      'home/.claude/settings.json': '{"autoMode": {"allow": ["User: last"]}}',
    });
    expect(texts(settings.prose.allow)).toEqual(['Managed: first', ...defaults.allow!, 'User: last']);
    expect(texts(settings.prose.hard_deny)).toEqual(defaults.hard_deny);
    expect(settings.prose.classifyAllShell).toBeUndefined();
    expect(settings.diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['automode-ignored', path.join(box.cwd, '.claude', 'settings.local.json')],
    ]);
  });

  it('reports prose entries that are not strings', async () => {
    const { settings } = await load({
      'home/.claude/settings.json': '{"autoMode": {"allow": ["$defaults", 7]}}',
    });
    expect(settings.failed.map((d) => [d.code, d.pointer])).toEqual([['schema', '/autoMode/allow/1']]);
    expect(texts(settings.prose.allow)).toEqual(defaults.allow);
  });

  it('has no rules when there are no built-ins and nothing is written', async () => {
    const box = await sandbox();
    const settings = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
    });
    expect(settings.prose).toEqual({ environment: [], allow: [], soft_deny: [], hard_deny: [] });
  });
});

describe('proseLabel', () => {
  it('takes the text before the first ":" or "["', () => {
    expect(proseLabel('Force push: never')).toBe('Force push');
    expect(proseLabel('Deploys [prod]: never: really')).toBe('Deploys');
    expect(proseLabel('Deploying to the staging namespace is allowed')).toBe(
      'Deploying to the staging namespace is allowed',
    );
    expect(proseLabel(': odd')).toBe(': odd');
  });
});
