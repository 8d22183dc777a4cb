import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { sandboxRuntimeConfig } from '../../src/pipeline/sandbox/config.js';
import { excludedBy } from '../../src/pipeline/sandbox/excluded.js';
import { Sandbox } from '../../src/pipeline/sandbox/sandbox.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';

async function settingsWith(project: object, managed?: object) {
  const root = await mkdtemp(path.join(tmpdir(), 'automode-sandbox-config-'));
  const cwd = path.join(root, 'project');
  const home = path.join(root, 'home');
  await mkdir(path.join(cwd, '.claude'), { recursive: true });
  await mkdir(home);
  await writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(project));
  const managedPath = path.join(root, 'managed.json');
  if (managed) await writeFile(managedPath, JSON.stringify(managed));
  return { settings: await loadSettings({ cwd, home, managedPath, env: {} }), cwd, home };
}

describe('the runtime configuration', () => {
  test('from the sandbox block and the Edit, Read and WebFetch rules', async () => {
    const { settings, cwd, home } = await settingsWith({
      permissions: {
        allow: ['Edit(~/notes/**)', 'WebFetch(domain:*.example.com)', 'Read(/docs/**)'],
        deny: ['Read(~/.ssh/**)', 'Edit(/.env)', 'WebFetch(domain:evil.com)'],
      },
      sandbox: { network: { allowedDomains: ['github.com'], allowLocalBinding: true } },
    });
    const temp = path.join(cwd, '..', 'session-tmp');
    const config = sandboxRuntimeConfig(settings, cwd, temp);
    expect(config.filesystem.allowWrite).toEqual([cwd, temp, path.join(home, 'notes')]);
    // The Edit deny rule, then the agent's own configuration: every settings file, the project's protected names.
    expect(config.filesystem.denyWrite[0]).toBe(path.join(cwd, '.env'));
    for (const p of [
      path.join(cwd, '.claude', 'settings.json'),
      path.join(cwd, '.claude', 'settings.local.json'),
      path.join(home, '.claude', 'settings.json'),
      path.join(cwd, '.claude'),
      path.join(cwd, '.mcp.json'),
      path.join(cwd, '.gitmodules'),
      path.join(cwd, '.git'),
      path.join(cwd, '.bashrc'),
      path.join(cwd, '.vscode'),
      path.join(home, '.claude.json'),
    ])
      expect(config.filesystem.denyWrite).toContain(p);
    // The user's Read deny first, then the shipped rules' credentials (never readable in the sandbox either).
    expect(config.filesystem.denyRead[0]).toBe(path.join(home, '.ssh'));
    expect(config.filesystem.denyRead).toContain(path.join(home, '.aws', 'credentials'));
    expect(config.filesystem.denyRead).not.toContain(path.join(cwd, 'docs'));
    expect(config.network).toEqual({
      allowedDomains: ['github.com', '*.example.com'],
      deniedDomains: ['evil.com'],
      allowLocalBinding: true,
    });
  });

  test('managed allowManagedDomainsOnly keeps only the managed hosts; denials from everywhere', async () => {
    const { settings, cwd } = await settingsWith(
      {
        permissions: { allow: ['WebFetch(domain:a.com)'], deny: ['WebFetch(domain:b.com)'] },
        sandbox: { network: { allowedDomains: ['c.com'] } },
      },
      { sandbox: { network: { allowManagedDomainsOnly: true, allowedDomains: ['managed.com'] } } },
    );
    expect(sandboxRuntimeConfig(settings, cwd, tmpdir()).network).toEqual({
      allowedDomains: ['managed.com'],
      deniedDomains: ['b.com'],
    });
  });

  test('sandbox.network.deniedDomains of every source joins the WebFetch deny rules (Claude Code as of v2.1.240)', async () => {
    const { settings, cwd } = await settingsWith(
      { sandbox: { network: { deniedDomains: ['Tracker.example'] } } },
      {
        sandbox: { network: { deniedDomains: ['paste.example'] } },
        permissions: { deny: ['WebFetch(domain:b.com)'] },
      },
    );
    expect(settings.failed).toEqual([]);
    expect(settings.diagnostics).toEqual([]);
    expect(sandboxRuntimeConfig(settings, cwd, tmpdir()).network.deniedDomains.sort()).toEqual([
      'b.com',
      'paste.example',
      'tracker.example',
    ]);
  });

  test('enabledPlatforms: the sandbox is on only on a listed platform, so elsewhere nothing is auto-allowed', async () => {
    const here = process.platform === 'darwin' ? 'macos' : 'linux';
    const elsewhere = here === 'macos' ? 'linux' : 'macos';
    const off = await settingsWith({ sandbox: { enabled: true, enabledPlatforms: [elsewhere] } });
    expect(off.settings.diagnostics).toEqual([]);
    expect(new Sandbox(off.settings).enabled).toBe(false);
    expect(new Sandbox(off.settings).plan({ command: 'ls' })).toEqual({
      sandboxed: false,
      reason: 'the sandbox is off',
    });
    const on = await settingsWith({ sandbox: { enabled: true, enabledPlatforms: [elsewhere, here] } });
    expect(new Sandbox(on.settings).enabled).toBe(true);
  });

  test('the sandbox is off unless enabled; enabled: false in the options wins', async () => {
    const { settings } = await settingsWith({ sandbox: { enabled: true } });
    expect(new Sandbox(settings).enabled).toBe(true);
    expect(new Sandbox(settings, { enabled: false }).enabled).toBe(false);
    expect(new Sandbox((await settingsWith({})).settings).plan({ command: 'ls' })).toMatchObject({
      sandboxed: false,
    });
  });
});

describe('excludedCommands', () => {
  test('an entry matches the start of any simple command, by whole words', () => {
    expect(excludedBy('docker ps', ['docker'])).toBe('docker');
    expect(excludedBy('make && FOO=1 docker build .', ['docker'])).toBe('docker');
    expect(excludedBy('git push origin main', ['git push'])).toBe('git push');
    expect(excludedBy('npm test', ['npm:*'])).toBe('npm:*');
    expect(excludedBy('git status', ['git push'])).toBeUndefined();
    expect(excludedBy('dockerd', ['docker'])).toBeUndefined();
    expect(excludedBy('echo docker', ['docker'])).toBeUndefined();
  });
});
