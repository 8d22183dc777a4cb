import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AUTO_KEY_VARIABLE,
  autoKeyDigest,
  autoServicesRoot,
  liveAutoServices,
  MAX_AUTO_SERVICES,
  serviceEntries,
  startAutoService,
  stopService,
} from '../../src/service/auto.js';
import { readServiceRecord } from '../../src/service/index.js';
import { makeDirectories } from '../../src/shared/index.js';

const bin = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
const autoModule = fileURLToPath(new URL('../../dist/service/auto.js', import.meta.url));
const homes: string[] = [];

function world() {
  const home = mkdtempSync(join(tmpdir(), 'automode-life-'));
  homes.push(home);
  const project = join(home, 'project');
  mkdirSync(join(project, '.claude'), { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: project });
  writeFileSync(join(project, 'README.md'), '# p\n');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
  };
  return { home, project, env };
}

afterAll(async () => {
  for (const home of homes) {
    for (const entry of serviceEntries(join(home, '.automode'), { HOME: home }))
      if (entry.pid !== undefined) await stopService(entry, 2_000);
    rmSync(home, { recursive: true, force: true });
  }
}, 60_000);

const preToolUse = (cwd: string, command: string) => ({
  hook_event_name: 'PreToolUse',
  cwd,
  session_id: 's',
  tool_name: 'Bash',
  tool_input: { command },
});

/** The hook's raw stdout (bytes as printed), exit code, stderr and how long it took. */
function hook(args: string[], input: object, env: Record<string, string>, cwd: string) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [bin, 'hook', ...args], {
    cwd,
    env,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, ms: Date.now() - started };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The records of the automatic services that listen, once there are `count` (within 90 s, for a loaded machine). */
async function services(home: string, count: number) {
  const root = autoServicesRoot({ HOME: home });
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; ) {
    const found = existsSync(root)
      ? readdirSync(root)
          .map((name) => ({ dir: join(root, name), record: readServiceRecord(join(root, name)) }))
          .filter((s) => s.record && existsSync(join(s.dir, 'service.sock')) && alive(s.record.pid))
      : [];
    if (found.length >= count) return found.map((s) => ({ dir: s.dir, pid: s.record!.pid }));
    await sleep(100);
  }
  throw new Error(`fewer than ${count} automatic services started`);
}

function serve(args: string[], env: Record<string, string>, cwd: string) {
  const r = spawnSync(process.execPath, [bin, 'serve', ...args], { cwd, env, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('hook --serve when its service cannot be', () => {
  it('cannot make its folder (HOME a file, ~/.automode/auto a file): the in-process answer, exit 0, one line why', () => {
    const { home, project, env } = world();
    const call = preToolUse(project, 'rm -rf /');
    const inProcess = hook(['--no-llm'], call, env, project);
    expect(JSON.parse(inProcess.out).hookSpecificOutput.permissionDecision).toBe('deny');
    mkdirSync(join(home, '.automode'));
    writeFileSync(join(home, '.automode', 'auto'), 'a file\n');
    const homeFile = join(home, 'home-file');
    writeFileSync(homeFile, '');
    for (const e of [env, { ...env, HOME: homeFile }]) {
      for (let i = 0; i < 2; i++) {
        const r = hook(['--no-llm', '--serve'], call, e, project);
        expect(r.code).toBe(0);
        expect(r.out).toBe(inProcess.out);
        const lines = r.err.trim().split('\n');
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/^automode: no service for --serve \(.*\); this call was decided here$/);
      }
    }
    rmSync(join(home, '.automode'), { recursive: true });
  }, 180_000);

  // Node's own recursive mkdir never returns for a folder below /proc: every call would hang, `rm -rf /` undecided.
  it('has HOME below /proc: the in-process answer, at once', () => {
    const { project, env } = world();
    const call = preToolUse(project, 'rm -rf /');
    const inProcess = hook(['--no-llm'], call, env, project);
    const e = { ...env, HOME: '/proc/automode-no-such-home' };
    const r = hook(['--no-llm', '--serve'], call, e, project);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(inProcess.out);
    expect(r.err).toMatch(
      /^automode: no service for --serve \(.*\/proc\/automode-no-such-home.*\); this call/,
    );
  }, 180_000);
});

describe('makeDirectories', () => {
  it('makes every missing folder, and fails at once below /proc, past a file, or on a file', () => {
    const { home } = world();
    const deep = join(home, 'a', 'b', 'c');
    makeDirectories(deep, 0o700);
    makeDirectories(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    expect(statSync(join(home, 'a')).mode & 0o777).toBe(0o700);
    writeFileSync(join(home, 'file'), '');
    expect(() => makeDirectories(join(home, 'file', 'x'))).toThrow(/EEXIST/);
    expect(() => makeDirectories(join(home, 'file'))).toThrow(/EEXIST/);
    expect(() => makeDirectories('/proc/automode-no-such/x')).toThrow(/ENOENT/);
  });
});

describe('a running hook --serve service', () => {
  it('answers with the bytes the in-process hook prints, and follows a settings file that becomes a symlink loop or a FIFO', async () => {
    const { home, project, env } = world();
    writeFileSync(
      join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(git status)'] } }),
    );
    const calls = [preToolUse(project, 'git status'), preToolUse(project, 'rm -rf /')];
    hook(['--no-llm', '--serve'], calls[0]!, env, project);
    const [service] = await services(home, 1);
    const same = () => {
      for (const c of calls) {
        const here = hook(['--no-llm'], c, env, project);
        const served = hook(['--no-llm', '--serve'], c, env, project);
        expect(served.code).toBe(0);
        expect(served.out, served.err).toBe(here.out);
        expect(served.out.endsWith('}\n')).toBe(true);
      }
      return JSON.parse(hook(['--no-llm', '--serve'], calls[0]!, env, project).out).hookSpecificOutput
        ?.permissionDecision;
    };
    expect(same()).toBe('allow');
    const local = join(project, '.claude', 'settings.local.json');
    symlinkSync('settings.local.json', local);
    expect(same()).toBe('ask');
    rmSync(local);
    expect(same()).toBe('allow');
    execFileSync('mkfifo', [local]);
    expect(same()).toBe('ask');
    rmSync(local);
    symlinkSync('/dev/zero', local);
    expect(same()).toBe('ask');
    rmSync(local);
    expect(same()).toBe('allow');
    // The same service answered all along.
    expect((await services(home, 1))[0]?.pid).toBe(service?.pid);
  }, 180_000);

  it('stopped (SIGSTOP): the call is decided here within seconds, and the service is replaced', async () => {
    const { home, project, env } = world();
    const call = preToolUse(project, 'rm -rf /');
    const inProcess = hook(['--no-llm'], call, env, project);
    hook(['--no-llm', '--serve'], call, env, project);
    const [old] = await services(home, 1);
    process.kill(old!.pid, 'SIGSTOP');
    try {
      const r = hook(['--no-llm', '--serve'], call, env, project);
      expect(r.code).toBe(0);
      expect(r.out).toBe(inProcess.out);
      expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
      expect(r.err).toMatch(/sent nothing within \d+ ms; deciding here and replacing it/);
      // The bound, the in-process decision and node's start: far below the 45 s of a call to a live service.
      expect(r.ms).toBeLessThan(20_000);
      for (let i = 0; i < 100 && alive(old!.pid); i++) await sleep(50);
      expect(alive(old!.pid)).toBe(false);
      const root = autoServicesRoot(env);
      const [fresh] = await services(home, 1).catch((e) => {
        throw new Error(
          `${e.message}: ${JSON.stringify(readdirSync(root).map((n) => [n, existsSync(join(root, n)) && readdirSync(join(root, n))]))} ${r.err}`,
        );
      });
      expect(fresh!.pid).not.toBe(old!.pid);
      expect(hook(['--no-llm', '--serve'], call, env, project).out).toBe(inProcess.out);
    } finally {
      try {
        process.kill(old!.pid, 'SIGKILL');
      } catch {}
    }
  }, 180_000);
});

describe('seeing and stopping services', () => {
  it('serve --status lists every service (project, pid, uptime, memory, decisions); --stop ends one or all and removes their files', async () => {
    const { home, project, env } = world();
    const other = join(home, 'other');
    mkdirSync(other);
    hook(['--no-llm', '--serve'], preToolUse(project, 'ls'), env, project);
    hook(['--no-llm', '--serve'], preToolUse(other, 'ls'), env, other);
    const running = await services(home, 2);
    hook(['--no-llm', '--serve'], preToolUse(project, 'ls'), env, project);
    const json = serve(['--status', '--json'], env, home);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.out).services as Record<string, unknown>[];
    expect(listed.map((s) => s.pid).sort()).toEqual(running.map((s) => s.pid).sort());
    expect(listed.map((s) => s.project).sort()).toEqual([other, project].sort());
    for (const s of listed) {
      expect(s.uptimeSeconds).toBeGreaterThanOrEqual(0);
      expect(s.memoryBytes).toBeGreaterThan(10 * 1024 * 1024);
    }
    expect(listed.find((s) => s.project === project)?.decisions).toBe(1);
    const text = serve(['--status'], env, home);
    expect(text.out).toMatch(/^2 automode services running:/);
    expect(text.out).toMatch(/automode serve --stop PID/);
    const one = running[0]!;
    expect(serve(['--stop', String(one.pid)], env, home).code).toBe(0);
    // Gone, or a zombie its new parent has yet to reap.
    for (let i = 0; i < 100 && alive(one.pid); i++) await sleep(50);
    expect(alive(one.pid)).toBe(false);
    expect(existsSync(one.dir)).toBe(false);
    expect(serve(['--stop', 'all'], env, home).code).toBe(0);
    for (let i = 0; i < 100 && running.some((s) => alive(s.pid)); i++) await sleep(50);
    expect(running.some((s) => alive(s.pid))).toBe(false);
    expect(readdirSync(autoServicesRoot(env)).filter((n) => !n.startsWith('.'))).toEqual([]);
    expect(serve(['--status'], env, home).code).toBe(1);
  }, 180_000);

  it('an automatic service that leaves (idle) removes its folder', async () => {
    const { home, project, env } = world();
    const dir = join(autoServicesRoot(env), 'idle');
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--no-llm', '--no-http', '--idle-exit-minutes', '0.03'],
      {
        cwd: project,
        env: { ...env, AUTOMODE_SERVICE_DIR: dir, [AUTO_KEY_VARIABLE]: autoKeyDigest('k') },
        stdio: 'ignore',
      },
    );
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(home).toBeTruthy();
  }, 180_000);
});

describe(`at most ${MAX_AUTO_SERVICES} automatic services`, () => {
  /** A stand-in for `automode serve`: writes its record, removes it on SIGTERM, else waits a minute. */
  function fakeService(home: string): string {
    const file = join(home, 'fake-service.mjs');
    writeFileSync(
      file,
      `import { writeFileSync, rmSync } from 'node:fs';
const dir = process.env.AUTOMODE_SERVICE_DIR;
writeFileSync(dir + '/service.json', JSON.stringify({ pid: process.pid, socket: dir + '/service.sock' }));
process.on('SIGTERM', () => { rmSync(dir + '/service.json', { force: true }); process.exit(0); });
setTimeout(() => {}, 60_000);
`,
    );
    return file;
  }

  it('the one idle longest leaves for a new one', async () => {
    const { home, project } = world();
    const fake = fakeService(home);
    const pids: number[] = [];
    for (let i = 0; i < MAX_AUTO_SERVICES; i++) {
      const key = { argv: [], env: { HOME: home }, cwd: join(project, `p${i}`), build: 'b' };
      mkdirSync(key.cwd);
      expect(startAutoService(key, fake)).toBe(true);
    }
    const root = autoServicesRoot({ HOME: home });
    for (let i = 0; i < 100 && liveAutoServices(root) < MAX_AUTO_SERVICES; i++) await sleep(100);
    const records = readdirSync(root)
      .filter((n) => !n.startsWith('.'))
      .map((n) => ({ dir: join(root, n), pid: readServiceRecord(join(root, n))!.pid }));
    // Idle for longer and longer: the first listed is the one idle longest.
    records.forEach((r, i) => {
      const t = Date.now() / 1000 - 1000 + i * 10;
      utimesSync(join(r.dir, 'service.json'), t, t);
      pids.push(r.pid);
    });
    const key = { argv: [], env: { HOME: home }, cwd: join(project, 'new'), build: 'b' };
    mkdirSync(key.cwd);
    expect(startAutoService(key, fake)).toBe(true);
    for (let i = 0; i < 100 && alive(pids[0]!); i++) await sleep(50);
    expect(alive(pids[0]!)).toBe(false);
    expect(pids.slice(1).every(alive)).toBe(true);
    for (let i = 0; i < 100 && liveAutoServices(root) < MAX_AUTO_SERVICES; i++) await sleep(100);
    expect(liveAutoServices(root)).toBe(MAX_AUTO_SERVICES);
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGTERM');
  }, 180_000);

  it(`16 projects opened together leave ${MAX_AUTO_SERVICES} running`, async () => {
    const { home, project } = world();
    const fake = fakeService(home);
    const starter = join(home, 'start.mjs');
    writeFileSync(
      starter,
      `const { startAutoService } = await import(${JSON.stringify(autoModule)});
startAutoService({ argv: [], env: { HOME: process.argv[2] }, cwd: process.argv[3], build: 'b' }, process.argv[4]);
`,
    );
    const starts = Array.from({ length: 16 }, (_, i) => {
      const cwd = join(project, `q${i}`);
      mkdirSync(cwd);
      const c = spawn(process.execPath, [starter, home, cwd, fake], {
        stdio: 'ignore',
      });
      return new Promise((resolve) => c.on('exit', resolve));
    });
    await Promise.all(starts);
    const root = autoServicesRoot({ HOME: home });
    await sleep(2_000);
    const running = () =>
      readdirSync(root)
        .map((n) => readServiceRecord(join(root, n)))
        .filter((r) => r && alive(r.pid));
    expect(running().length).toBeLessThanOrEqual(MAX_AUTO_SERVICES);
    expect(running().length).toBeGreaterThan(0);
    for (const r of running()) process.kill(r!.pid, 'SIGTERM');
  }, 180_000);
});
