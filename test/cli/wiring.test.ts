import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAutoServices } from '../service/auto-helpers.js';
import { allDocs } from '../support/docs.js';

/**
 * The wiring automode shows (README, fixtures, --help) and prints (`serve --print-hook-config`) must not switch
 * itself off: no install or run of the registry's `automode` (not this project), hook commands found from any
 * subfolder, and hooks that block the call when they cannot answer.
 */
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO, 'bin/automode.js');

const RUNNERS = [
  String.raw`npm\s+(?:install|isntall|i|in|add|exec|x)`,
  'npx',
  String.raw`pnpm\s+(?:add|install|i|dlx|exec)`,
  'pnpx',
  String.raw`yarn\s+(?:global\s+)?(?:add|dlx)`,
  String.raw`bun\s+(?:add|install|i|x)`,
  'bunx',
];
const FLAGS = String.raw`(?:\s+--?[\w-]+(?:=\S*)?)*`;
const BARE_NAME = new RegExp(
  String.raw`(?<![\w-])(?:${RUNNERS.join('|')})${FLAGS}(?:\s+--)?\s+automode(?:@[\w.^~<>=*-]*)?(?=$|[\s"'\x60;|&)\]\\])`,
  'm',
);

const SCANNED = [
  'README.md',
  'ARCHITECTURE.md',
  'package.json',
  'docs',
  'fixtures',
  'schemas',
  'defaults',
  'src',
  'bin',
  'scripts',
  'bench',
  '.ci',
];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

let root: string;
let project: string;
let subfolder: string;
let env: Record<string, string>;
let service: ChildProcess | undefined;
/** What the CLI prints that a user may paste: every --help, and the hook config of a running service. */
const printed = new Map<string, string>();

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: project, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function startService(): Promise<void> {
  const c = spawn(process.execPath, [BIN, 'serve', '--no-llm'], { cwd: project, env });
  service = c;
  let err = '';
  return new Promise((resolve, reject) => {
    c.stderr.on('data', (d) => {
      err += d;
      if (err.includes('listening on')) resolve();
    });
    c.on('exit', () => reject(new Error(`automode serve exited: ${err}`)));
  });
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'automode-wiring-'));
  project = join(root, 'project');
  subfolder = join(project, 'packages', 'app');
  mkdirSync(subfolder, { recursive: true });
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(BIN, join(project, 'node_modules', '.bin', 'automode'));
  mkdirSync(join(root, 'home'));
  env = {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    AUTOMODE_SERVICE_DIR: join(root, 'service'),
    AUTOMODE_MANAGED_SETTINGS: join(root, 'home', 'none.json'),
  };
  await startService();
  const top = cli(['--help']).out;
  printed.set('automode --help', top);
  for (const m of top.matchAll(/^ {2}automode (\w+)/gm)) {
    printed.set(`automode ${m[1]} --help`, cli([m[1] ?? '', '--help']).out);
  }
  const config = cli(['serve', '--print-hook-config']);
  expect(config.code).toBe(0);
  printed.set('automode serve --print-hook-config', config.out);
}, 60_000);

afterAll(async () => {
  await stopAutoServices(join(root, 'home'));
  if (service?.exitCode === null) {
    const exited = new Promise((resolve) => service?.on('exit', resolve));
    service.kill('SIGTERM');
    await exited;
  }
  rmSync(root, { recursive: true, force: true });
});

/** Every JSON object shown whole in a text: an indented block from a line `{` to its line `}`, or inline code. */
function jsonIn(text: string): unknown[] {
  const blocks = [...text.matchAll(/^( *)\{\n[\s\S]*?\n\1\}$/gm)].map((m) => m[0]);
  const inline = [...text.matchAll(/`(\{"[^`]*\})`/g)].map((m) => m[1] ?? '');
  return [...blocks, ...inline].flatMap((t) => {
    try {
      return [JSON.parse(t)];
    } catch {
      return [];
    }
  });
}

type Hook = Record<string, unknown>;

/** The hooks of automode's own wiring in a JSON value: PreToolUse and PermissionRequest blocks, or bare hooks. */
function automodeHooks(value: unknown): Hook[] {
  if (Array.isArray(value)) return value.flatMap(automodeHooks);
  if (typeof value !== 'object' || value === null) return [];
  const o = value as Record<string, unknown>;
  const ours = (o.type === 'command' && /automode(\.js)? hook/.test(String(o.command))) || o.type === 'http';
  if (ours) return [o];
  return Object.entries(o).flatMap(([key, v]) =>
    key === 'PostToolUse' || key === 'mcpServers' ? [] : automodeHooks(v),
  );
}

function shownAndPrinted(): Map<string, Hook[]> {
  const sources = new Map<string, string>([['the documentation', allDocs()]]);
  for (const [name, text] of printed) sources.set(name, text);
  return new Map([...sources].map(([name, text]) => [name, jsonIn(text).flatMap(automodeHooks)]));
}

describe('the wiring automode shows and prints', () => {
  it('never installs or runs automode by its bare registry name', () => {
    // The pattern itself first: a scan that can find nothing proves nothing.
    for (const bad of [
      'npm install --no-save automode',
      'npm i automode',
      'npm i -g automode@latest',
      'npm install -D automode@^0.1.0',
      'npx automode hook',
      '"command":"npx automode hook"',
      'npx --yes automode test',
      'npm exec -- automode',
      'pnpm add automode',
      'pnpm dlx automode',
      'yarn add automode',
      'yarn global add automode',
      'bunx automode',
      'bun add automode',
    ]) {
      expect(bad, bad).toMatch(BARE_NAME);
    }
    for (const fine of [
      'npm install ./automode-0.1.0.tgz',
      'npm install /path/to/automode',
      'npm install --no-save "git+https://github.com/OWNER/automode.git#COMMIT"',
      '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/automode hook',
      'npx automode-other',
      'npm install',
    ]) {
      expect(fine, fine).not.toMatch(BARE_NAME);
    }

    const found: string[] = [];
    const check = (where: string, text: string) => {
      text.split('\n').forEach((line, i) => {
        if (BARE_NAME.test(line)) found.push(`${where}:${i + 1}: ${line.trim()}`);
      });
    };
    const files = SCANNED.flatMap((p) => filesUnder(join(REPO, p)));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) check(relative(REPO, file), readFileSync(file, 'utf8'));
    for (const [name, text] of printed) check(name, text);
    expect(found).toEqual([]);
  });

  it('sets "onFailure": "block" on every hook it shows or prints', () => {
    const hooks = shownAndPrinted();
    expect(hooks.get('the documentation')?.length).toBeGreaterThanOrEqual(4);
    expect(hooks.get('automode hook --help')?.length).toBe(1);
    expect(hooks.get('automode serve --print-hook-config')?.length).toBe(2);
    for (const [where, list] of hooks) {
      for (const hook of list) expect(hook, where).toMatchObject({ onFailure: 'block' });
    }
  });

  it('prints hook commands that answer from a subfolder of the project', () => {
    const commands = new Set(
      [...shownAndPrinted().values()]
        .flat()
        .filter((h) => h.type === 'command' && !String(h.command).includes('/path/to/'))
        .map((h) => String(h.command)),
    );
    expect([...commands].map((c) => c.split(' hook')[1])).toEqual(
      expect.arrayContaining(['', ' --serve', ' --serve --ask-when-undecided', ' --forward']),
    );
    const input = JSON.stringify({
      hook_event_name: 'PreToolUse',
      session_id: 'wiring',
      cwd: subfolder,
      tool_name: 'Bash',
      tool_input: { command: 'git status' },
    });
    for (const command of commands) {
      const r = spawnSync('bash', ['-c', command], {
        cwd: subfolder,
        env: { ...env, CLAUDE_PROJECT_DIR: project },
        input,
        encoding: 'utf8',
      });
      expect({ command, code: r.status, err: r.stderr }).toEqual({ command, code: 0, err: '' });
      expect(JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision, command).toBe('allow');
    }
  });
});
