import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AUTO_KEY_VARIABLE,
  createDecider,
  DEFAULT_MAX_BODY_BYTES,
  FolderLockedError,
  liveService,
  PATHS,
  readServiceRecord,
  readToken,
  type ServiceEntry,
  serviceDir,
  serviceEntries,
  serviceStatus,
  startService,
  stopService,
  TOKEN_FILE,
} from '../service/index.js';
import { commandHook, hooksBlock, httpHook, shellWord, TOKEN_ENV } from './hook-config.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT, type Io, printJson } from './output.js';
import { logLine } from './serve-log.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

interface ServeArgs extends SettingsArgs, ModelArgs {
  askWhenUndecided?: boolean;
  port: number;
  http: boolean;
  socket?: string;
  unixSocket: boolean;
  sessionIdleMinutes: number;
  idleExitMinutes?: number;
  maxBodyBytes: number;
  logJson?: boolean;
  status?: boolean;
  stop?: string;
  json?: boolean;
  printHookConfig?: boolean;
  rotateToken?: boolean;
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    return typeof pkg.version === 'string' ? pkg.version : '';
  } catch {
    return '';
  }
}

export const serveCommand: CommandModule = {
  command: 'serve',
  describe:
    'Run a local service that answers Claude Code hook inputs (POST /hook) over loopback HTTP and a Unix socket, with settings loaded once and sessions remembered',
  builder: (y) =>
    withModelOptions(withSettingsOptions(y))
      .option('ask-when-undecided', {
        type: 'boolean',
        default: false,
        describe:
          'When neither the rules nor the model decide, answer ask (as automode hook --ask-when-undecided)',
      })
      .option('port', { type: 'number', default: 0, describe: 'Loopback port (0: any free port)' })
      .option('http', {
        type: 'boolean',
        default: true,
        describe: 'Listen on 127.0.0.1 (--no-http: socket only)',
      })
      .option('socket', {
        type: 'string',
        describe: 'Unix socket path (default: service.sock in the service folder)',
      })
      .option('unix-socket', {
        type: 'boolean',
        default: true,
        describe: 'Listen on a Unix socket (--no-unix-socket: HTTP only)',
      })
      .option('session-idle-minutes', {
        type: 'number',
        default: 30,
        describe: 'Forget a session unseen for this long',
      })
      .option('idle-exit-minutes', {
        type: 'number',
        describe:
          'Stop after this long without a decision (default: never; automode hook --serve starts with 15)',
      })
      .option('max-body-bytes', {
        type: 'number',
        default: DEFAULT_MAX_BODY_BYTES,
        describe: 'Refuse (413) a request body over this size',
      })
      .option('log-json', { type: 'boolean', default: false, describe: 'Log each decision as a JSON line' })
      .option('status', {
        type: 'boolean',
        describe: 'Show the running service: pid, uptime, sessions, decisions',
      })
      .option('stop', {
        type: 'string',
        describe:
          'Stop services: `all` (every one --status lists), a pid, or a service folder; removes the files they leave',
      })
      .option('json', { type: 'boolean', describe: 'With --status: print JSON' })
      .option('print-hook-config', {
        type: 'boolean',
        describe: 'Print the .claude/settings.json hooks for the running service: HTTP, and forwarding',
      })
      .option('rotate-token', {
        type: 'boolean',
        default: false,
        describe:
          'Start with a new token (the token file is otherwise kept across restarts, so a configured HTTP hook keeps working)',
      })
      .example('automode serve --port 8377', 'Serve on a fixed port (an HTTP hook names it)')
      .example('automode serve --print-hook-config', 'The hooks block to wire Claude Code to it')
      .example(
        'automode serve --status',
        'Every running service: its project, pid, uptime, memory, decisions',
      )
      .example('automode serve --stop all', 'Stop them all (or --stop PID for one)')
      .example('automode serve --rotate-token', 'Replace the token (then set AUTOMODE_TOKEN again)'),
  run: async (raw, io) => {
    const args = raw as unknown as ServeArgs;
    const dir = serviceDir();
    // With AUTOMODE_SERVICE_DIR, --status is about that one folder's service; else about every service.
    if (args.status && process.env.AUTOMODE_SERVICE_DIR) return showStatus(dir, args.json === true, io);
    if (args.status) return showAllStatus(dir, args.json === true, io);
    if (args.stop !== undefined) return stopServices(dir, args.stop, io);
    if (args.printHookConfig) return printHookConfig(dir, io);
    return serve(args, dir, io);
  },
};

async function showStatus(dir: string, json: boolean, io: Io): Promise<number> {
  const found = await serviceStatus(dir);
  if ('error' in found) {
    if (json) printJson(io, { running: false, error: found.error });
    else io.err(`automode: ${found.error}`);
    return EXIT.findings;
  }
  const s = found.status;
  if (json) {
    printJson(io, { running: true, ...found.record, ...s });
    return EXIT.ok;
  }
  const folders = Array.isArray(s.folders) ? (s.folders as { cwd: string; failed: boolean }[]) : [];
  const lines = [
    `automode serve ${String(s.version ?? '')} running, pid ${String(s.pid)}, up ${String(s.uptimeSeconds)} s`,
    ...(found.record.url ? [`  http:      ${found.record.url}${PATHS.hook}`] : []),
    ...(found.record.socket ? [`  socket:    ${found.record.socket}`] : []),
    `  sessions:  ${String(s.sessions)}`,
    `  decisions: ${String(s.decisions)} ${JSON.stringify(s.byDecision ?? {})}`,
    `  settings:  ${folders.length ? folders.map((f) => `${f.cwd}${f.failed ? ' (broken: every call asks)' : ''}`).join(', ') : 'none loaded'}`,
  ];
  io.out(lines.join('\n'));
  return EXIT.ok;
}

/** One line of `serve --status` per service: its project, pid, uptime, memory and decisions. */
async function showAllStatus(main: string, json: boolean, io: Io): Promise<number> {
  const entries = serviceEntries(main, process.env).filter((e) => e.pid !== undefined);
  const listed = await Promise.all(
    entries.map(async (entry) => {
      const stopped = entry.state === 'T' || entry.state === 't';
      const found = stopped
        ? { error: 'stopped (it does not run: --stop ends it)' }
        : await serviceStatus(entry.dir);
      const s = 'error' in found ? undefined : found.status;
      return {
        folder: entry.dir,
        automatic: entry.automatic,
        pid: entry.pid,
        project: typeof s?.cwd === 'string' ? s.cwd : undefined,
        uptimeSeconds: typeof s?.uptimeSeconds === 'number' ? s.uptimeSeconds : undefined,
        memoryBytes: entry.memoryBytes ?? (typeof s?.memoryBytes === 'number' ? s.memoryBytes : undefined),
        decisions: typeof s?.decisions === 'number' ? s.decisions : undefined,
        ...('error' in found ? { problem: found.error } : {}),
      };
    }),
  );
  if (json) {
    printJson(io, { running: listed.length > 0, services: listed });
    return listed.length > 0 ? EXIT.ok : EXIT.findings;
  }
  if (listed.length === 0) {
    io.err(`automode: no service is running (none in ${main} nor in ${join(main, 'auto')})`);
    return EXIT.findings;
  }
  const mb = (b: number | undefined) => (b === undefined ? '?' : `${Math.round(b / 1048576)} MB`);
  const lines = [`${listed.length} automode service${listed.length === 1 ? '' : 's'} running:`];
  for (const l of listed)
    lines.push(
      `  pid ${l.pid}  ${l.automatic ? 'hook --serve' : 'serve'}  project ${l.project ?? '?'}  up ${l.uptimeSeconds ?? '?'} s  ${mb(l.memoryBytes)}  ${l.decisions ?? '?'} decisions${l.problem ? `  (${l.problem})` : ''}`,
      `      folder ${l.folder}`,
    );
  lines.push('Stop one: automode serve --stop PID; all: automode serve --stop all');
  io.out(lines.join('\n'));
  return EXIT.ok;
}

/** `serve --stop all|PID|FOLDER`: ends those services and removes what they leave. */
async function stopServices(main: string, which: string, io: Io): Promise<number> {
  const all = which === '' || which === 'all';
  const entries = serviceEntries(main, process.env).filter(
    (e: ServiceEntry) => all || String(e.pid) === which || e.dir === which,
  );
  if (!all && entries.every((e) => e.pid === undefined)) {
    io.err(`automode: no running service has pid or folder ${which} (automode serve --status lists them)`);
    return EXIT.findings;
  }
  let failed = 0;
  for (const entry of entries) {
    const ok = await stopService(entry);
    if (entry.pid !== undefined)
      io.err(`automode: ${ok ? 'stopped' : 'could not stop'} pid ${entry.pid} (${entry.dir})`);
    if (!ok) failed++;
  }
  if (entries.every((e) => e.pid === undefined)) io.err('automode: no service was running');
  return failed ? EXIT.findings : EXIT.ok;
}

function printHookConfig(dir: string, io: Io): number {
  const record = readServiceRecord(dir);
  if (!record?.url || !readToken(dir)) {
    io.err(`automode: no running service with an HTTP port in ${dir}; start automode serve first`);
    return EXIT.findings;
  }
  printJson(io, {
    http: hooksBlock('PreToolUse', httpHook(`${record.url}${PATHS.hook}`)),
    forward: hooksBlock('PreToolUse', commandHook('--forward')),
  });
  io.err(
    [
      `The HTTP hook reads the token from ${TOKEN_ENV} in Claude Code's environment (its allowedEnvVars); no settings file holds it.`,
      'Set it in the shell that starts Claude Code:',
      `  export ${TOKEN_ENV}="$(cat ${shellWord(join(dir, TOKEN_FILE))})"`,
      'The token is kept across restarts of automode serve; automode serve --rotate-token replaces it.',
      `Without it, or with a stale one, the service answers 401 and "onFailure": "block" blocks every call.`,
    ].join('\n'),
  );
  return EXIT.ok;
}

async function serve(args: ServeArgs, dir: string, io: Io): Promise<number> {
  const live = await liveService(dir);
  if (live) {
    io.err(`automode: a service (pid ${live.pid}) is already running for ${dir}`);
    return EXIT.usage;
  }
  let model: Awaited<ReturnType<typeof modelFromArgs>>;
  try {
    model = await modelFromArgs(args);
  } catch (e) {
    io.err(`automode: ${(e as Error).message}`);
    return EXIT.usage;
  }
  const decider = createDecider({
    load: async (cwd) => {
      const settings = await loadFromArgs({ ...args, ...(cwd && !args.cwd ? { cwd } : {}) });
      reportDiagnostics(settings, io);
      return settings;
    },
    ...(model ? { model } : {}),
    ...(args.askWhenUndecided ? { answer: { askWhenUndecided: true } } : {}),
    sessionIdleMs: args.sessionIdleMinutes * 60_000,
  });
  // Restarted at every decision once the service runs (--idle-exit-minutes).
  let idleTimer = () => {};
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    await decider.warm();
    service = await startService({
      decider,
      dir,
      version: version(),
      ...(args.askWhenUndecided ? { answer: { askWhenUndecided: true } } : {}),
      port: args.http ? args.port : false,
      socket: args.unixSocket ? (args.socket ?? undefined) : false,
      maxBodyBytes: args.maxBodyBytes,
      rotateToken: args.rotateToken === true,
      ...(process.env[AUTO_KEY_VARIABLE] ? { autoKey: process.env[AUTO_KEY_VARIABLE] } : {}),
      log: (d) => {
        idleTimer();
        io.err(logLine(d, args.logJson === true));
      },
    });
  } catch (e) {
    decider.close();
    io.err(`automode: ${(e as Error).message}`);
    return e instanceof FolderLockedError ? EXIT.usage : EXIT.findings;
  }
  const where = [service.record.url, service.record.socket].filter(Boolean).join(' and ');
  io.err(`automode serve: pid ${process.pid} listening on ${where}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      clearTimeout(idle);
      resolve();
    };
    let idle: NodeJS.Timeout | undefined;
    const idleMs = (args.idleExitMinutes ?? 0) * 60_000;
    idleTimer = () => {
      if (!(idleMs > 0)) return;
      clearTimeout(idle);
      idle = setTimeout(() => {
        io.err(`automode serve: no decision for ${args.idleExitMinutes} minutes`);
        stop();
      }, idleMs);
    };
    idleTimer();
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await service.close();
  io.err('automode serve: stopped');
  return EXIT.ok;
}
