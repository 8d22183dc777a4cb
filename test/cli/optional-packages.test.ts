import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PACKAGES } from '../../src/pipeline/optional.js';

// automode as a hook user installs it: the built package with its dependencies and none of its optional peers
// (@modelcontextprotocol/sdk, @anthropic-ai/sandbox-runtime, turndown), which cannot be found from its folder. The
// dependencies are links to the project's own node_modules; nothing there is removed. Uses the built dist/.
// scripts/install-size.sh packs and installs for real and prints what each dependency weighs.

const root = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
let base: string;
let app: string;
let home: string;

function automode(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [join(app, 'bin/automode.js'), ...args], {
    cwd: base,
    input,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: home },
    timeout: 30_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'automode-noopt-')));
  app = join(base, 'node_modules/automode');
  home = join(base, 'home');
  mkdirSync(home);
  for (const part of ['bin', 'dist', 'defaults', 'schemas', 'package.json'])
    cpSync(join(root, part), join(app, part), { recursive: true, filter: (src) => !src.endsWith('.map') });
  for (const name of Object.keys(pkg.dependencies)) {
    const link = join(base, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules', name)), link, 'dir');
  }
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the built package', () => {
  it('loads no optional package but with import(), and its declarations name none', () => {
    const dist = join(root, 'dist');
    const names = Object.keys(OPTIONAL_PACKAGES).map((n) => n.replace('/', '\\/'));
    const specifier = `['"](?:${names.join('|')})(?:\\/[^'"]*)?['"]`;
    const staticImport = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*)${specifier}`);
    const typeImport = new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*)${specifier}`);
    expect(staticImport.test('import{Client as c}from"@modelcontextprotocol/sdk/client/index.js"')).toBe(
      true,
    );
    expect(staticImport.test("import '@anthropic-ai/sandbox-runtime';")).toBe(true);
    expect(staticImport.test("() => import('@anthropic-ai/sandbox-runtime')")).toBe(false);
    expect(typeImport.test("x: import('@modelcontextprotocol/sdk/types.js').Tool")).toBe(true);
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' });
    const offending = files.filter((f) => {
      if (f.endsWith('.d.ts')) return typeImport.test(readFileSync(join(dist, f), 'utf8'));
      if (f.endsWith('.js')) return staticImport.test(readFileSync(join(dist, f), 'utf8'));
      return false;
    });
    expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(100);
    expect(offending).toEqual([]);
  });
});

describe('automode installed without its optional packages', () => {
  it('cannot find them', () => {
    const probe = join(base, 'resolve.mjs');
    writeFileSync(
      probe,
      `for (const name of ${JSON.stringify(Object.keys(OPTIONAL_PACKAGES))}) {
         try { import.meta.resolve(name); console.log('found', name); } catch { console.log('missing', name); }
       }`,
    );
    const r = spawnSync(process.execPath, [probe], { cwd: base, encoding: 'utf8' });
    expect(r.stdout.trim().split('\n')).toEqual(Object.keys(OPTIONAL_PACKAGES).map((n) => `missing ${n}`));
  });

  it('explains a command', () => {
    const r = automode(['explain', 'git status']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('allow git status only reads');
  });

  it('answers a hook call', () => {
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
      cwd: '/tmp',
      session_id: 's',
    });
    const r = automode(['hook'], input);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('critiques the defaults', () => {
    const r = automode(['critique']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/0 errors/);
  });

  it('loads the pipeline; MCP servers, the sandbox and WebFetch of an HTML page say what to install', () => {
    const script = join(base, 'pipeline.mjs');
    writeFileSync(
      script,
      `const pipeline = await import('automode/pipeline');
       const servers = await pipeline.connectMcpServers({ one: { command: 'true' } });
       const { startSandbox } = await import('./node_modules/automode/dist/pipeline/sandbox/runtime.js');
       const status = await startSandbox({ network: {}, filesystem: {} });
       const { htmlToMarkdown } = await import('./node_modules/automode/dist/pipeline/tools/web-markdown.js');
       const html = await htmlToMarkdown('<p>x</p>').catch((e) => e.message);
       console.log(JSON.stringify({ exports: Object.keys(pipeline).length, mcp: servers.errors, sandbox: status, html }));`,
    );
    const r = spawnSync(process.execPath, [script], { cwd: base, encoding: 'utf8', env: { HOME: home } });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    expect(out.exports).toBeGreaterThan(0);
    expect(out.mcp).toEqual([
      {
        server: 'one',
        message:
          'automode: connecting to MCP servers needs @modelcontextprotocol/sdk@1.32.2; install it: npm install @modelcontextprotocol/sdk@1.32.2',
      },
    ]);
    expect(out.html).toBe(
      'automode: WebFetch (reading an HTML page) needs turndown@7.2.5; install it: npm install turndown@7.2.5',
    );
    if (process.platform === 'linux' || process.platform === 'darwin')
      expect(out.sandbox).toEqual({
        available: false,
        reason:
          'automode: the sandbox needs @anthropic-ai/sandbox-runtime@0.0.83; install it: npm install @anthropic-ai/sandbox-runtime@0.0.83',
      });
  });
});
