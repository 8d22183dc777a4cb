import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import type { CommandHook, HookRun, HookRunStatus } from './types.js';

/** Each of stdout and stderr keeps at most this many characters. */
export const MAX_HOOK_OUTPUT_CHARS = 100_000;

export interface RunHookOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  maxOutputChars?: number;
}

/** Kills the hook's whole process group: a shell's children must not outlive it. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The shell reports a child killed by signal N as exit code 128 + N. */
function signalOf(code: number): string | undefined {
  if (code <= 128 || code >= 160) return undefined;
  return Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0];
}

/**
 * Runs one command hook as a real child process, the input as JSON on stdin: `sh -c command`, or with `args`
 * (the exec form) the program `command` found on PATH, given `args` as they are, with no shell. Never rejects:
 * a spawn failure, a signal, a timeout or an abort is a status on the returned run.
 */
export function runCommandHook(hook: CommandHook, input: unknown, options: RunHookOptions): Promise<HookRun> {
  const started = performance.now();
  const cap = options.maxOutputChars ?? MAX_HOOK_OUTPUT_CHARS;
  return new Promise((resolve) => {
    const out = { stdout: '', stderr: '', truncated: false };
    let ended: { status: HookRunStatus; error?: string } | undefined;
    let settled = false;
    const [file, argv] = hook.args ? [hook.command, hook.args] : ['/bin/sh', ['-c', hook.command]];
    const child = spawn(file, argv, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const finish = (code: number | null, signal: NodeJS.Signals | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      options.signal?.removeEventListener('abort', onAbort);
      const shellSignal = !ended && !signal && code !== null && !hook.args ? signalOf(code) : undefined;
      let status: HookRunStatus = ended?.status ?? 'success';
      if (!ended) {
        if (error !== undefined || signal || shellSignal) status = 'crashed';
        else if (code === 2) status = 'blocked';
        else if (code !== 0) status = 'failed';
      }
      const run: HookRun = {
        hook,
        status,
        exitCode: code,
        signal,
        ...out,
        durationMs: Math.round(performance.now() - started),
      };
      const why =
        ended?.error ?? error ?? (signal || shellSignal ? `killed by ${signal ?? shellSignal}` : undefined);
      if (why !== undefined) run.error = why;
      resolve(run);
    };
    let grace: NodeJS.Timeout | undefined;
    /** Stops the hook; if its pipes stay open (a stray grandchild), gives up waiting a moment later. */
    const stop = (status: HookRunStatus, error: string) => {
      if (ended || settled) return;
      ended = { status, error };
      killGroup(child.pid, 'SIGKILL');
      grace = setTimeout(() => finish(null, null), 2000);
    };
    const timer = setTimeout(() => stop('timeout', `timed out after ${hook.timeoutMs} ms`), hook.timeoutMs);
    const onAbort = () => stop('aborted', 'cancelled');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    const collect = (key: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = cap - out[key].length;
      if (room <= 0) {
        out.truncated = true;
        return;
      }
      const text = chunk.toString('utf8');
      if (text.length > room) out.truncated = true;
      out[key] += text.slice(0, room);
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    child.stdin.on('error', () => {
      // the hook did not read its input: that is its business
    });
    child.on('error', (e) => finish(null, null, e.message));
    child.on('close', (code, signal) => finish(code, signal));
    child.stdin.end(JSON.stringify(input));
  });
}
