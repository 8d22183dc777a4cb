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

const shipped = (settings: Awaited<ReturnType<typeof loadSettingsFiles>>, text: string) =>
  settings.rules.some(
    (r) =>
      r.provenance.source === 'defaults' && (r.text === text || (r.type === 'pattern' && r.label === text)),
  );

describe('automode.disableShippedRules', () => {
  it('turns off a shipped ask by its text and a shipped pattern rule by its label, and says which file did', async () => {
    const { box, settings } = await load({
      'home/.claude/settings.json': {
        automode: { disableShippedRules: ['Bash(git push --force *)', 'Remote access: public tunnel'] },
      },
    });
    expect(settings.failed).toEqual([]);
    expect(settings.diagnostics).toEqual([]);
    expect(shipped(settings, 'Bash(git push --force *)')).toBe(false);
    expect(shipped(settings, 'Remote access: public tunnel')).toBe(false);
    expect(shipped(settings, 'Bash(git rebase *)')).toBe(true);
    const user = path.join(box.home, '.claude', 'settings.json');
    expect(settings.disabledShipped?.map((d) => [d.rule.text.slice(0, 24), d.by.file, d.by.line])).toEqual([
      ['Bash(git push --force *)', user, 4],
      [expect.any(String), user, 5],
    ]);
  });

  it('warns, with file, line and column, about an entry that names no shipped rule', async () => {
    const { box, settings } = await load({
      'proj/.claude/settings.json': { automode: { disableShippedRules: ['Bash(git push --forse *)'] } },
    });
    expect(settings.failed).toEqual([]);
    expect(settings.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'shipped-rule-unknown',
        file: path.join(box.cwd, '.claude', 'settings.json'),
        line: 4,
        column: 7,
        pointer: '/automode/disableShippedRules/0',
        rule: 'Bash(git push --forse *)',
      }),
    ]);
    expect(settings.disabledShipped).toBeUndefined();
  });

  it('lets project settings turn off shipped asks but not shipped denies', async () => {
    const { settings } = await load({
      'proj/.claude/settings.json': {
        automode: { disableShippedRules: ['Bash(mkfs *)', 'Bash(dd *)'] },
      },
    });
    expect(shipped(settings, 'Bash(mkfs *)')).toBe(true);
    expect(shipped(settings, 'Bash(dd *)')).toBe(false);
    expect(settings.diagnostics.map((d) => [d.code, d.rule])).toEqual([
      ['shipped-deny-kept', 'Bash(mkfs *)'],
    ]);
  });

  it('lets local, user and managed settings turn off shipped denies', async () => {
    for (const file of [
      'proj/.claude/settings.local.json',
      'home/.claude/settings.json',
      'etc/managed-settings.json',
    ]) {
      const { settings } = await load({ [file]: { automode: { disableShippedRules: ['Bash(mkfs *)'] } } });
      expect(settings.diagnostics).toEqual([]);
      expect(shipped(settings, 'Bash(mkfs *)')).toBe(false);
    }
  });

  it('with allowManagedPermissionRulesOnly, only managed settings turn shipped rules off', async () => {
    const { settings } = await load({
      'etc/managed-settings.json': {
        allowManagedPermissionRulesOnly: true,
        automode: { disableShippedRules: ['Bash(dd *)'] },
      },
      'home/.claude/settings.json': { automode: { disableShippedRules: ['Bash(git rebase *)'] } },
    });
    expect(shipped(settings, 'Bash(dd *)')).toBe(false);
    expect(shipped(settings, 'Bash(git rebase *)')).toBe(true);
  });

  it('is accepted by the settings schema; a wrong type is a schema error', async () => {
    const { settings } = await load({
      'home/.claude/settings.json': { automode: { disableShippedRules: 'Bash(dd *)' } },
    });
    expect(settings.failed.map((d) => [d.code, d.pointer])).toEqual([
      ['schema', '/automode/disableShippedRules'],
    ]);
    expect(shipped(settings, 'Bash(dd *)')).toBe(true);
  });
});
