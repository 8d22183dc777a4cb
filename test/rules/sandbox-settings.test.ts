import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type LoadOptions, loadSettingsFiles } from '../../src/rules/index.js';
import { sandbox, writeFiles } from './helpers.js';

async function load(files: Record<string, object>) {
  const box = await sandbox();
  await writeFiles(
    box.root,
    Object.fromEntries(Object.entries(files).map(([name, value]) => [name, JSON.stringify(value, null, 2)])),
  );
  const options: LoadOptions = { cwd: box.cwd, home: box.home, managedPath: box.managed, env: {} };
  return { ...box, settings: await loadSettingsFiles(options) };
}

const values = (entries: { value: string; source: string }[]) => entries.map((e) => `${e.source} ${e.value}`);

describe('the sandbox settings block', () => {
  it('merges sources: a value from the highest-precedence source, lists from all, paths made absolute', async () => {
    const { settings, home, cwd } = await load({
      'home/.claude/settings.json': {
        sandbox: {
          enabled: true,
          autoAllowBashIfSandboxed: false,
          excludedCommands: ['docker'],
          filesystem: { allowWrite: ['~/.cache', 'rel'] },
          network: { allowedDomains: ['GitHub.com'], httpProxyPort: 8080 },
        },
      },
      'proj/.claude/settings.json': {
        sandbox: {
          enabled: false,
          excludedCommands: ['git push'],
          filesystem: { allowWrite: ['./build', '//opt/out'], denyRead: ['secrets'] },
          network: { allowedDomains: ['registry.npmjs.org'], allowManagedDomainsOnly: true },
        },
      },
      'proj/.claude/settings.local.json': { sandbox: { enabled: true } },
    });
    expect(settings.failed).toEqual([]);
    const s = settings.sandbox!;
    expect(s.enabled).toBe(true);
    expect(s.autoAllowBashIfSandboxed).toBe(false);
    expect(values(s.excludedCommands)).toEqual(['userSettings docker', 'projectSettings git push']);
    expect(values(s.filesystem.allowWrite)).toEqual([
      `userSettings ${path.join(home, '.cache')}`,
      `userSettings ${path.join(home, '.claude', 'rel')}`,
      `projectSettings ${path.join(cwd, 'build')}`,
      'projectSettings /opt/out',
    ]);
    expect(values(s.filesystem.denyRead)).toEqual([`projectSettings ${path.join(cwd, 'secrets')}`]);
    expect(values(s.network.allowedDomains)).toEqual([
      'userSettings github.com',
      'projectSettings registry.npmjs.org',
    ]);
    expect(s.network.httpProxyPort).toBe(8080);
    // Only managed settings may restrict the domains to their own.
    expect(s.network.allowManagedDomainsOnly).toBeUndefined();
  });

  it('reports ill-typed values as located errors and leaves them out', async () => {
    const { settings } = await load({
      'proj/.claude/settings.json': {
        sandbox: { enabled: 'yes', excludedCommands: 'docker', network: { socksProxyPort: 70000 } },
      },
    });
    const errors = settings.failed.map((d) => `${d.code} ${d.line} ${d.message}`);
    expect(errors).toEqual([
      expect.stringMatching(/^schema 3 sandbox\.enabled: /),
      expect.stringMatching(/^schema 4 sandbox\.excludedCommands: /),
      expect.stringMatching(/^schema 6 sandbox\.network\.socksProxyPort: /),
    ]);
    expect(settings.sandbox?.enabled).toBeUndefined();
    expect(settings.sandbox?.excludedCommands).toEqual([]);
    expect(settings.sandbox?.network.socksProxyPort).toBeUndefined();
  });

  it('warns of a misspelt key, at any depth of the block', async () => {
    const { settings } = await load({
      'proj/.claude/settings.json': {
        sandbox: { autoAllowBashIfSandbox: true, network: { allowedDomain: ['x.com'] } },
      },
    });
    expect(settings.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      expect.stringContaining(
        '"sandbox.autoAllowBashIfSandbox" is not a Claude Code setting; did you mean "sandbox.autoAllowBashIfSandboxed"?',
      ),
      expect.stringContaining(
        '"sandbox.network.allowedDomain" is not a Claude Code setting; did you mean "sandbox.network.allowedDomains"?',
      ),
    ]);
  });

  it('knows every key of the current reference (v2.1.240 and later dated changes), and their misspellings', async () => {
    const current = {
      sandbox: {
        enabled: true,
        enabledPlatforms: ['linux'],
        ignoreViolations: { file: ['/tmp'] },
        credentials: { envVars: [{ name: 'GH_TOKEN', mode: 'deny' }] },
        ripgrep: { command: 'rg' },
        enableWeakerNetworkIsolation: false,
        allowAppleEvents: false,
        allowNestedUserNamespaces: false,
        filesystem: { disabled: false, allowManagedReadPathsOnly: false },
        network: { allowMachLookup: ['com.apple.x'], tlsTerminate: {}, strictAllowlist: true },
      },
    };
    const known = await load({ 'proj/.claude/settings.json': current });
    expect(known.settings.diagnostics).toEqual([]);
    expect(known.settings.sandbox?.enabledPlatforms).toEqual(['linux']);
    const typo = await load({
      'proj/.claude/settings.json': { sandbox: { network: { strictAllowList: true, allowMachLookups: [] } } },
    });
    expect(typo.settings.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('did you mean "sandbox.network.strictAllowlist"?'),
      expect.stringContaining('did you mean "sandbox.network.allowMachLookup"?'),
    ]);
  });

  it('is absent when no source has a sandbox block', async () => {
    const { settings } = await load({ 'proj/.claude/settings.json': { permissions: { allow: ['Read'] } } });
    expect(settings.sandbox).toBeUndefined();
  });
});
