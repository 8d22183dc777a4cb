import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';
import { createDecider, startService } from '../../src/service/index.js';
import { decisionOf, send } from './helpers.js';

// Claude Code reads the project's settings from the session's project root (CLAUDE_PROJECT_DIR, else the
// repository's root), not from the folder the agent has `cd`'d into: a deny rule of the project holds in a
// subfolder through the library, the hook and the service alike.

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));

const PROJECT_RULES = {
  permissions: { deny: ['Read(**/*.pem)', 'Bash(curl *)'], allow: ['Bash(make lint)'] },
};

/** A git repository with project settings at its root, a local settings file, and a subfolder `pkg/api`. */
function repository() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-root-')));
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  const sub = join(repo, 'pkg', 'api');
  mkdirSync(home);
  mkdirSync(sub, { recursive: true });
  mkdirSync(join(repo, '.claude'));
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(join(repo, '.claude', 'settings.json'), JSON.stringify(PROJECT_RULES));
  writeFileSync(
    join(repo, '.claude', 'settings.local.json'),
    JSON.stringify({ permissions: { ask: ['Bash(make deploy)'] } }),
  );
  writeFileSync(join(sub, 'server.pem'), 'key');
  return { root, home, repo, sub, managed: join(home, 'none.json') };
}

const readPem = (cwd: string) => ({ tool: 'Read', input: { file_path: join(cwd, 'server.pem') }, cwd });
const bash = (command: string, cwd: string) => ({ tool: 'Bash', input: { command }, cwd });

beforeAll(async () => {
  await loadBash();
});

describe('the library reads settings from the project root', () => {
  it('from a subfolder of a repository: the repository root', async () => {
    const t = repository();
    const settings = await loadSettings({ cwd: t.sub, home: t.home, managedPath: t.managed, env: {} });
    expect(settings.projectRoot).toBe(t.repo);
    const read = (source: string) => settings.files.find((f) => f.source === source);
    expect(read('projectSettings')).toEqual({
      source: 'projectSettings',
      path: join(t.repo, '.claude', 'settings.json'),
      exists: true,
    });
    expect(read('localSettings')).toMatchObject({ path: join(t.repo, '.claude', 'settings.local.json') });
    const classifier = createClassifier(settings);
    expect((await classifier.classify(readPem(t.sub))).decision).toBe('deny');
    expect((await classifier.classify(bash('sudo curl http://x', t.sub))).decision).toBe('deny');
    expect((await classifier.classify(bash('make deploy', t.sub))).decision).toBe('ask');
    expect((await classifier.classify(bash('make lint', t.sub))).decision).toBe('allow');
  });

  it('CLAUDE_PROJECT_DIR names the project root; local settings stay at the repository root', async () => {
    const t = repository();
    const session = join(t.repo, 'pkg');
    writeFileSync(join(t.repo, 'pkg', 'README'), '');
    mkdirSync(join(session, '.claude'));
    writeFileSync(
      join(session, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(wget *)'] } }),
    );
    const settings = await loadSettings({
      cwd: t.sub,
      home: t.home,
      managedPath: t.managed,
      env: { CLAUDE_PROJECT_DIR: session },
    });
    expect(settings.projectRoot).toBe(session);
    const classifier = createClassifier(settings);
    expect((await classifier.classify(bash('wget http://x', t.sub))).decision).toBe('deny');
    expect((await classifier.classify(bash('make deploy', t.sub))).decision).toBe('ask');
    // The repository root's project file is not the session's.
    expect((await classifier.classify(bash('curl http://x', t.sub))).decision).not.toBe('deny');
  });

  it('resolves the project root through links', async () => {
    const t = repository();
    const link = join(t.root, 'link');
    symlinkSync(t.repo, link);
    const settings = await loadSettings({
      cwd: join(link, 'pkg', 'api'),
      home: t.home,
      managedPath: t.managed,
      env: {},
    });
    expect(settings.projectRoot).toBe(t.repo);
    expect(settings.files.find((f) => f.source === 'projectSettings')).toMatchObject({
      path: join(t.repo, '.claude', 'settings.json'),
      exists: true,
    });
  });
});

describe('the hook reads settings from the project root', () => {
  const hook = (
    t: ReturnType<typeof repository>,
    call: { tool: string; input: unknown; cwd: string },
    env: Record<string, string> = {},
  ) => {
    const r = spawnSync(process.execPath, [bin, 'hook'], {
      cwd: call.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: t.home, AUTOMODE_MANAGED_SETTINGS: t.managed, ...env },
      input: JSON.stringify({
        hook_event_name: 'PreToolUse',
        session_id: 's',
        cwd: call.cwd,
        tool_name: call.tool,
        tool_input: call.input,
        permission_mode: 'default',
      }),
      encoding: 'utf8',
    });
    return decisionOf(r.stdout.trim());
  };

  it('in a subfolder of the repository, with and without CLAUDE_PROJECT_DIR', () => {
    const t = repository();
    expect(hook(t, readPem(t.sub))).toBe('deny');
    expect(hook(t, bash('sudo curl http://x', t.sub))).toBe('deny');
    expect(hook(t, readPem(t.sub), { CLAUDE_PROJECT_DIR: t.repo })).toBe('deny');
    expect(hook(t, bash('make lint', t.sub), { CLAUDE_PROJECT_DIR: t.repo })).toBe('allow');
  });

  it('CLAUDE_PROJECT_DIR outside any repository, the agent in a subfolder', () => {
    const t = repository();
    const project = join(t.root, 'plain');
    const sub = join(project, 'src', 'deep');
    mkdirSync(join(project, '.claude'), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(PROJECT_RULES));
    expect(hook(t, bash('curl http://x', sub), { CLAUDE_PROJECT_DIR: project })).toBe('deny');
    expect(hook(t, bash('curl http://x', sub))).not.toBe('deny');
  });
});

describe('automode classify --cwd reads settings from the project root', () => {
  it('of a subfolder', () => {
    const t = repository();
    const r = spawnSync(process.execPath, [bin, 'classify', '--json', '--cwd', t.sub, 'sudo curl http://x'], {
      cwd: t.home,
      env: { PATH: process.env.PATH ?? '', HOME: t.home, AUTOMODE_MANAGED_SETTINGS: t.managed },
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stdout).decision).toBe('deny');
  });
});

describe('the service keeps settings per project root', () => {
  it('answers a call from a subfolder with the project rules, loading the project once', async () => {
    const t = repository();
    const loaded: (string | undefined)[] = [];
    const decider = createDecider({
      load: (cwd) => {
        loaded.push(cwd);
        return loadSettings({ cwd: cwd ?? t.repo, home: t.home, managedPath: t.managed, env: {} });
      },
    });
    const service = await startService({ decider, dir: join(t.root, 'service'), version: 'test' });
    try {
      const ask = async (call: { tool: string; input: unknown; cwd: string }) =>
        decisionOf(
          (
            await send(service, {
              body: JSON.stringify({
                hook_event_name: 'PreToolUse',
                session_id: 's',
                cwd: call.cwd,
                tool_name: call.tool,
                tool_input: call.input,
              }),
            })
          ).body,
        );
      expect(await ask(readPem(t.sub))).toBe('deny');
      expect(await ask(bash('sudo curl http://x', t.sub))).toBe('deny');
      expect(await ask(bash('sudo curl http://x', t.repo))).toBe('deny');
      expect(loaded).toEqual([t.repo]);
      expect(decider.status().folders.map((f) => f.cwd)).toEqual([t.repo]);
    } finally {
      await service.close();
      decider.close();
    }
  });
});
