import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinOptions, type LoadOptions, loadSettingsFiles } from '../../src/rules/index.js';
import { sandbox, writeFiles } from './helpers.js';

async function load(files: Record<string, unknown>, extra: Partial<LoadOptions> = {}) {
  const box = await sandbox();
  await writeFiles(
    box.root,
    Object.fromEntries(Object.entries(files).map(([f, v]) => [f, `${JSON.stringify(v, null, 2)}\n`])),
  );
  const settings = await loadSettingsFiles({
    cwd: box.cwd,
    home: box.home,
    managedPath: box.managed,
    env: {},
    ...builtinOptions(),
    ...extra,
  });
  return { box, settings };
}

describe('automode.readServices', () => {
  it('keeps each entry with its file, line and column, the highest-precedence source first', async () => {
    const { box, settings } = await load({
      'home/.claude/settings.json': { automode: { readServices: ['gh'] } },
      'proj/.claude/settings.json': { automode: { readServices: ['kubectl', 'terraform'] } },
    });
    expect(settings.failed).toEqual([]);
    expect(settings.diagnostics).toEqual([]);
    const project = path.join(box.cwd, '.claude', 'settings.json');
    const user = path.join(box.home, '.claude', 'settings.json');
    expect(
      settings.readServices?.map((e) => [
        e.program,
        e.provenance.source,
        e.provenance.file,
        e.provenance.line,
      ]),
    ).toEqual([
      ['kubectl', 'projectSettings', project, 4],
      ['terraform', 'projectSettings', project, 5],
      ['gh', 'userSettings', user, 4],
    ]);
    expect(settings.readServices?.[0]?.provenance).toMatchObject({
      pointer: '/automode/readServices/0',
      column: 7,
    });
  });

  it('is a located schema error when it is not a list of names', async () => {
    const { box, settings } = await load({
      'proj/.claude/settings.json': { automode: { readServices: 'kubectl' } },
    });
    expect(settings.failed).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'schema',
        file: path.join(box.cwd, '.claude', 'settings.json'),
        line: 3,
        pointer: '/automode/readServices',
      }),
    ]);
    expect(settings.readServices).toBeUndefined();
  });

  it('warns about a misspelt key, with the name it meant', async () => {
    const { settings } = await load({
      'proj/.claude/settings.json': { automode: { readService: ['kubectl'] } },
    });
    expect(settings.diagnostics).toEqual([
      expect.objectContaining({ code: 'unknown-setting', message: expect.stringContaining('readServices') }),
    ]);
    expect(settings.readServices).toBeUndefined();
  });

  it('keeps only the managed entries when managed settings allow managed permission rules only', async () => {
    const { settings } = await load({
      'etc/managed-settings.json': {
        allowManagedPermissionRulesOnly: true,
        automode: { readServices: ['gh'] },
      },
      'proj/.claude/settings.json': { automode: { readServices: ['kubectl'] } },
    });
    expect(settings.readServices?.map((e) => [e.program, e.provenance.source])).toEqual([
      ['gh', 'policySettings'],
    ]);
  });
});

describe('automode config', () => {
  it('lists the readServices entries with their provenance', async () => {
    const { box } = await load({ 'proj/.claude/settings.json': { automode: { readServices: ['kubectl'] } } });
    const cli = path.join(import.meta.dirname, '../../bin/automode.js');
    const run = spawnSync(process.execPath, [cli, 'config', '--json'], {
      cwd: box.cwd,
      env: { ...process.env, HOME: box.home },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).readServices).toEqual([
      expect.objectContaining({
        program: 'kubectl',
        provenance: expect.objectContaining({ pointer: '/automode/readServices/0', line: 4 }),
      }),
    ]);
  });
});
