import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { createClassifier } from '../../src/classifier/index.js';
import { hookCommand } from '../../src/cli/hook.js';
import { HOOK_COMMAND_OPTIONS, parseHookArgs } from '../../src/cli/hook-main.js';
import { loadSettings } from '../../src/rules/index.js';
import { answerHookInput, isHookAnswer } from '../../src/service/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/automode.js');
let home: string;
let project: string;
let serviceDir: string;

function hook(args: string[], input: string, env: Record<string, string> = {}, nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, bin, 'hook', ...args], {
    cwd: project,
    input,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      AUTOMODE_MANAGED_SETTINGS: join(home, 'managed.json'),
      AUTOMODE_SERVICE_DIR: serviceDir,
      ...env,
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The hook run without blocking this process, whose servers must answer it. */
function hookAsync(args: string[], input: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, 'hook', ...args], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: home,
        AUTOMODE_MANAGED_SETTINGS: join(home, 'managed.json'),
        AUTOMODE_SERVICE_DIR: serviceDir,
        ...env,
      },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(input);
  });
}

const call = (tool: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: input,
    cwd: project,
    ...extra,
  });

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'automode-hook-home-'));
  project = mkdtempSync(join(tmpdir(), 'automode-hook-proj-'));
  serviceDir = mkdtempSync(join(tmpdir(), 'automode-hook-svc-'));
  mkdirSync(join(project, '.claude'));
  writeFileSync(
    join(project, '.claude', 'settings.json'),
    JSON.stringify({
      permissions: { allow: ['Bash(npm test)'], deny: ['Read(./secrets/**)'], ask: ['Bash(git push:*)'] },
    }),
  );
});

afterAll(() => {
  for (const d of [home, project, serviceDir]) rmSync(d, { recursive: true, force: true });
});

/** A module hook that logs every URL the hook process resolves: `--import register`, then read `log`. */
/**
 * What a hook process loads, in `log`: every `require` (the bundle is CommonJS: file URLs of its chunks, and
 * built-in modules by name) and every ES module import (the full CLI, web-tree-sitter). `args` go before the
 * script. process.getBuiltinModule goes through neither, which is the point.
 */
function resolveLog(name: string) {
  const log = join(home, `resolved-${name}.log`);
  const hooks = join(home, `log-resolve-${name}.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}`,
  );
  const register = join(home, `register-${name}.mjs`);
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`,
  );
  const preload = join(home, `log-require-${name}.cjs`);
  writeFileSync(
    preload,
    `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  let id = request;
  try { id = Module._resolveFilename(request, parent, isMain); } catch {}
  appendFileSync(${JSON.stringify(log)}, (id.startsWith('/') ? pathToFileURL(id).href : id) + '\\n');
  return load.apply(this, arguments);
};
`,
  );
  return { log, args: ['--require', preload, '--import', register] };
}

describe('the bundled hook', () => {
  const inputs = [
    call('Bash', { command: 'git status' }),
    call('Bash', { command: 'echo $(ls) && rm -rf build' }),
    call('Bash', { command: 'npm test' }),
    call('Bash', { command: 'git push origin main' }),
    call('Read', { file_path: 'secrets/key.pem' }),
    call('Read', { file_path: 'README.md' }),
    call('Write', { file_path: '/etc/passwd', content: 'x' }),
    call('Bash', { command: 'ls' }, { hook_event_name: 'PermissionRequest' }),
    call('Bash', { command: 'ls' }, { hook_event_name: 'PostToolUse' }),
    '{"tool_name":',
  ];

  it('prints what the library answers, for every input', async () => {
    const decide = async () => {
      const settings = await loadSettings({
        cwd: project,
        home,
        cli: { allow: [], ask: [], deny: [] },
        shippedDefaults: true,
      });
      return settings;
    };
    for (const raw of inputs) {
      const expected = await answerHookInput(raw, async ({ call: c }) =>
        createClassifier(await decide()).classify(c),
      );
      const r = hook(['--no-llm'], raw);
      expect(r.code, raw).toBe(0);
      expect(r.out.trim(), raw).toBe(expected);
    }
  });

  it('takes the options the full CLI takes, with the same meaning', () => {
    const raw = call('Bash', { command: 'git status' });
    const denied = JSON.parse(hook(['--no-llm', '--deny', 'Bash(git status)'], raw).out);
    expect(denied.hookSpecificOutput.permissionDecision).toBe('deny');
    const bare = hook(
      ['--no-llm', '--no-defaults', '--ask-when-undecided'],
      call('Bash', { command: 'make' }),
    ).out;
    expect(JSON.parse(bare).hookSpecificOutput.permissionDecision).toBe('ask');
    for (const argv of [
      [
        '--deny',
        'a',
        '--deny=b',
        '--no-defaults',
        '--cwd',
        '/x',
        '--settings',
        's.json',
        '--rules',
        'r.yaml',
      ],
      ['--no-llm', '--model', 'm', '--replay', 'r.jsonl', '--record', 'o.jsonl', '--ask-when-undecided'],
      ['--forward'],
      ['--forward', '/run/s.sock', '--allow', 'Bash(ls)', '--ask', 'Bash(rm:*)'],
      ['--forward=http://127.0.0.1:9', '--llm'],
      [],
    ]) {
      const full = hookCommand.builder(yargs(argv).strict()).parseSync() as Record<string, unknown>;
      const parsed = parseHookArgs(argv);
      const fast = ('args' in parsed ? parsed.args : undefined) as Record<string, unknown>;
      expect(fast, argv.join(' ')).toBeDefined();
      for (const [key, value] of Object.entries(fast))
        expect(full[key], `${argv.join(' ')}: ${key}`).toEqual(value);
      for (const name of Object.keys(HOOK_COMMAND_OPTIONS)) {
        const key = name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
        expect(fast[key], `${argv.join(' ')}: ${key}`).toEqual(full[key]);
      }
    }
  });

  it('hands help to the full CLI', () => {
    const help = hook(['--help'], '');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--ask-when-undecided');
    expect(help.out).toContain('--forward');
  });

  it('never loads yargs', () => {
    const { log, args } = resolveLog('yargs');
    const r = hook(['--no-llm'], call('Bash', { command: 'echo $(ls) && rm -rf build' }), {}, args);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBeDefined();
    const resolved = readFileSync(log, 'utf8');
    expect(resolved).toContain('dist/bundle/hook/hook.cjs');
    expect(resolved).not.toMatch(/yargs/);
    expect(resolved).not.toMatch(/dist\/cli\/main\.js/);
    for (const f of readdirSync(join(root, 'dist/bundle/hook')))
      expect(readFileSync(join(root, 'dist/bundle/hook', f), 'utf8'), f).not.toMatch(/yargs/);
  });

  it("loads none of Node's built-in modules by import or require: they load when first called", () => {
    for (const input of [call('Bash', { command: 'git status' }), call('Read', { file_path: 'README.md' })]) {
      const { log, args } = resolveLog(`builtins-${input.length}`);
      const r = hook(['--no-llm'], input, {}, args);
      expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('allow');
      const resolved = readFileSync(log, 'utf8').split('\n');
      expect(resolved.filter((url) => url.endsWith('/dist/bundle/hook/hook.cjs'))).toHaveLength(1);
      // `url` is how a CommonJS bundle knows its own URL (require('url').pathToFileURL(__filename)).
      const builtins = resolved.filter(
        (url) => url !== '' && (url.startsWith('node:') || !url.includes(':')),
      );
      expect(new Set(builtins)).toEqual(new Set(['url']));
    }
  });
});

describe('hook called with a bad command line', () => {
  /** The answer printed, which must be one Claude Code reads, and never an allow. */
  const answerOf = (out: string, label: string) => {
    expect(isHookAnswer(out.trim()), label).toBe(true);
    const output = JSON.parse(out).hookSpecificOutput;
    expect(output?.permissionDecision, label).not.toBe('allow');
    expect(output?.decision?.behavior, label).not.toBe('allow');
    return output;
  };
  const allowed = call('Bash', { command: 'git status' });

  it('exits 0 and asks, naming the problem on stderr, for every kind of usage error', () => {
    const kinds: { label: string; argv: string[]; bin?: 'before'; problem: RegExp; reason?: RegExp }[] = [
      { label: 'unknown option', argv: ['--bogus-option'], problem: /Unknown option '--bogus-option'/ },
      { label: 'missing value', argv: ['--cwd'], problem: /--cwd <value>' argument missing/ },
      { label: 'option as a value', argv: ['--deny', '--no-llm'], problem: /--deny/ },
      { label: 'value for a flag', argv: ['--llm=false'], problem: /'--llm' does not take an argument/ },
      { label: 'negated value option', argv: ['--no-cwd'], problem: /Unknown option '--no-cwd'/ },
      { label: 'extra positional', argv: ['extra'], problem: /Unexpected argument 'extra'/ },
      {
        label: 'forward to no loopback URL',
        argv: ['--forward=http://example.com'],
        problem: /--forward: .*loopback/,
      },
      { label: 'forward to no URL', argv: ['--forward=http://'], problem: /--forward: not a URL/ },
      {
        label: 'an option before the command (the full CLI parses it)',
        argv: ['--bogus-option'],
        bin: 'before',
        problem: /Unknown argument/,
      },
      {
        label: 'settings file that does not exist',
        argv: ['--settings', join(home, 'missing.json')],
        problem: /missing\.json: error read-failed/,
        reason: /settings could not be loaded/,
      },
      {
        label: 'inline settings that are no JSON',
        argv: ['--settings', '{bad'],
        problem: /invalid-json/,
        reason: /settings could not be loaded/,
      },
    ];
    for (const kind of kinds) {
      const r =
        kind.bin === 'before'
          ? (() => {
              const p = spawnSync(process.execPath, [bin, '--no-llm', 'hook', ...kind.argv], {
                cwd: project,
                input: allowed,
                encoding: 'utf8',
                env: { PATH: process.env.PATH ?? '', HOME: home, AUTOMODE_SERVICE_DIR: serviceDir },
              });
              return { code: p.status, out: p.stdout, err: p.stderr };
            })()
          : hook(['--no-llm', ...kind.argv], allowed);
      expect(r.code, kind.label).toBe(0);
      expect(r.err, kind.label).toMatch(kind.problem);
      const output = answerOf(r.out, kind.label);
      expect(output.permissionDecision, kind.label).toBe('ask');
      expect(output.permissionDecisionReason, kind.label).toMatch(
        kind.reason ?? /^automode hook was called with a bad option: /,
      );
    }
  });

  it('answers no decision when the input names another event, or cannot be read', () => {
    for (const input of [
      call('Bash', { command: 'git status' }, { hook_event_name: 'PermissionRequest' }),
      call('Bash', { command: 'git status' }, { hook_event_name: 'PostToolUse' }),
      '{"tool_name":',
      '',
    ]) {
      const r = hook(['--bogus-option'], input);
      expect(r.code, input).toBe(0);
      expect(r.out, input).toBe('{}\n');
      expect(r.err, input).toMatch(/Unknown option '--bogus-option'/);
    }
  });
});

describe('hook --forward', () => {
  const ANSWER =
    '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"from the service"}}';
  const raw = call('Bash', { command: 'git status' });
  let inProcess: string;
  const seen: { auth?: string | undefined; body: string; url?: string | undefined }[] = [];
  let reply: (res: ServerResponse) => void = (res) => res.end(ANSWER);
  /** The token the listener holds, to prove it is the service; undefined: a squatter. */
  let holds: string | undefined = 'sekrit';
  const tokens: (string | undefined)[] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const challenge = req.headers['x-automode-challenge'];
    const binding = req.socket.localPort ? `tcp:${req.socket.localPort}` : 'unix';
    if (holds && typeof challenge === 'string')
      res.setHeader(
        'x-automode-proof',
        createHmac('sha256', holds).update(`${challenge}\n${binding}`).digest('hex'),
      );
    tokens.push(req.headers.authorization);
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/health') return res.end('{"ok":true}');
      seen.push({
        auth: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
        url: req.url,
      });
      reply(res);
    });
  };
  let tcp: Server;
  let unix: Server;
  let url: string;
  let socket: string;
  /** A socket in a folder others may enter: unlike one in the private service folder, it must prove itself. */
  let openSocket: string;
  let shared: Server;

  beforeAll(async () => {
    writeFileSync(join(serviceDir, 'token'), 'sekrit\n');
    tcp = createServer(handler);
    unix = createServer(handler);
    shared = createServer(handler);
    socket = join(serviceDir, 'hook.sock');
    const open = join(mkdtempSync(join(tmpdir(), 'automode-hook-open-')), 'shared');
    mkdirSync(open);
    chmodSync(open, 0o755);
    openSocket = join(open, 'hook.sock');
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => unix.listen(socket, r));
    await new Promise<void>((r) => shared.listen(openSocket, r));
    const address = tcp.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    inProcess = (await hookAsync(['--no-llm'], raw)).out;
    expect(JSON.parse(inProcess).hookSpecificOutput.permissionDecision).toBe('allow');
  });
  afterAll(async () => {
    await new Promise((r) => tcp.close(r));
    await new Promise((r) => unix.close(r));
    await new Promise((r) => shared.close(r));
  });
  const record = (value: Record<string, unknown>) =>
    writeFileSync(join(serviceDir, 'service.json'), JSON.stringify({ pid: 1, ...value }));

  it('prints the answer of the service named in service.json, preferring its socket, with the token', async () => {
    reply = (res) => res.end(ANSWER);
    record({ url: 'http://127.0.0.1:9', socket });
    seen.length = 0;
    const r = await hookAsync(['--no-llm', '--forward'], raw);
    expect(r.out).toBe(`${ANSWER}\n`);
    expect(seen).toEqual([{ auth: 'Bearer sekrit', body: raw, url: '/hook' }]);
    record({ url });
    expect((await hookAsync(['--forward'], raw)).out).toBe(`${ANSWER}\n`);
    expect((await hookAsync([`--forward=${url}`], raw)).out).toBe(`${ANSWER}\n`);
    expect((await hookAsync(['--forward', socket], raw)).out).toBe(`${ANSWER}\n`);
    expect(seen.every((s) => s.auth === 'Bearer sekrit' && s.body === raw)).toBe(true);
    expect(seen).toHaveLength(4);
  });

  it('gives no decision when the service answers badly, never an allow', async () => {
    record({ url });
    const bad: ((res: ServerResponse) => void)[] = [
      (res) => res.writeHead(500).end(ANSWER),
      (res) => res.writeHead(401).end(),
      (res) => res.end('{"hookSpecificOutput":'),
      (res) => res.end('{"permissionDecision":"allow"}'),
      (res) => {
        res.removeHeader('x-automode-proof');
        res.end(ANSWER);
      },
      () => {},
    ];
    for (const b of bad) {
      reply = b;
      const r = await hookAsync(['--no-llm', '--forward'], raw, { AUTOMODE_FORWARD_TIMEOUT_MS: '300' });
      expect(r.out).toBe('{}\n');
      expect(r.err).toMatch(/automode: the service/);
    }
  });

  it('decides in-process when no service is there, or the input is too large for it', async () => {
    reply = (res) => res.writeHead(413).end();
    record({ url });
    expect((await hookAsync(['--no-llm', '--forward'], raw)).out).toBe(inProcess);
    rmSync(join(serviceDir, 'service.json'));
    expect((await hookAsync(['--no-llm', '--forward'], raw)).out).toBe(inProcess);
    expect((await hookAsync(['--no-llm', '--forward', join(serviceDir, 'missing.sock')], raw)).out).toBe(
      inProcess,
    );
    expect((await hookAsync(['--no-llm', '--forward=http://127.0.0.1:1'], raw)).out).toBe(inProcess);
  });

  it('never sends the token to, nor obeys, a listener that cannot prove it holds the token', async () => {
    const denied = call('Read', { file_path: 'secrets/key.pem' });
    const here = (await hookAsync(['--no-llm'], denied)).out;
    expect(JSON.parse(here).hookSpecificOutput.permissionDecision).toBe('deny');
    holds = undefined;
    reply = (res) =>
      res.end('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}');
    tokens.length = 0;
    try {
      record({ url });
      for (const args of [['--forward'], [`--forward=${url}`], ['--forward', openSocket]]) {
        const r = await hookAsync(['--no-llm', ...args], denied);
        expect(r.out, args.join(' ')).toBe(here);
        expect(r.err, args.join(' ')).toMatch(/does not prove that it holds the token.*deciding here/);
      }
      expect(tokens.length).toBeGreaterThan(0);
      expect(tokens.every((t) => t === undefined)).toBe(true);
    } finally {
      holds = 'sekrit';
    }
  });

  it('sends the token nowhere but loopback', async () => {
    seen.length = 0;
    const r = await hookAsync(['--no-llm', '--forward=http://example.com:80'], raw);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('ask');
    expect(r.err).toMatch(/loopback/);
    expect(seen).toHaveLength(0);
  });
});
