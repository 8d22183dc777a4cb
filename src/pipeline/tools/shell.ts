import { spawn } from 'node:child_process';

/** Each stream keeps at most this many characters in memory; past it the output is cut and marked. */
export const MAX_SHELL_OUTPUT_CHARS = 32 * 1024 * 1024;

export interface ShellChunk {
  stream: 'stdout' | 'stderr';
  text: string;
}

export type ShellStatus = 'running' | 'completed' | 'failed' | 'killed';

export interface ShellExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * A real `bash -c` child in its own process group, its output kept and streamed to listeners. `run` is the command
 * line actually run when it differs from `command` (the command wrapped in a sandbox).
 */
export class ShellProcess {
  stdout = '';
  stderr = '';
  truncated = false;
  status: ShellStatus = 'running';
  exit: ShellExit | undefined;
  readonly done: Promise<ShellExit>;
  private readonly listeners = new Set<(chunk: ShellChunk) => void>();
  private readonly pid: number | undefined;
  private killRequested = false;

  constructor(
    readonly command: string,
    options: { cwd: string; env?: NodeJS.ProcessEnv; run?: string },
  ) {
    const child = spawn('bash', ['-c', options.run ?? command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.pid = child.pid;
    const take = (stream: 'stdout' | 'stderr') => (data: Buffer) => {
      let text = data.toString('utf8');
      const room = MAX_SHELL_OUTPUT_CHARS - this[stream].length;
      if (text.length > room) {
        this.truncated = true;
        text = text.slice(0, Math.max(0, room));
      }
      if (!text) return;
      this[stream] += text;
      for (const l of this.listeners) l({ stream, text });
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    this.done = new Promise((resolve) => {
      const end = (exit: ShellExit) => {
        if (this.exit) return;
        this.exit = exit;
        this.status = this.killRequested ? 'killed' : exit.code === 0 ? 'completed' : 'failed';
        resolve(exit);
      };
      child.on('error', (e) => {
        this.stderr += e.message;
        end({ code: null, signal: null });
      });
      child.on('close', (code, signal) => end({ code, signal }));
    });
  }

  onChunk(listener: (chunk: ShellChunk) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Kills the whole process group: TERM, then KILL if it is still there a second later. */
  kill(): void {
    if (this.exit || this.pid === undefined) return;
    this.killRequested = true;
    const send = (sig: NodeJS.Signals) => {
      try {
        process.kill(-this.pid!, sig);
      } catch {
        // gone already
      }
    };
    send('SIGTERM');
    const timer = setTimeout(() => send('SIGKILL'), 1000);
    timer.unref();
    void this.done.then(() => clearTimeout(timer));
  }
}
