import { ShellProcess, type ShellStatus } from './shell.js';

export interface BackgroundTask {
  id: string;
  command: string;
  process: ShellProcess;
  startedAt: number;
  /** How much of each stream was handed out already. */
  read: { stdout: number; stderr: number };
}

export interface TaskOutput {
  id: string;
  status: ShellStatus;
  exitCode: number | null;
  /** Output since the previous read. */
  stdout: string;
  stderr: string;
}

/** Shell commands running in the background, started so or moved there after a while. */
export class BackgroundTasks {
  private readonly tasks = new Map<string, BackgroundTask>();
  private next = 1;

  /** `run`: the command line to run instead, e.g. the command wrapped in a sandbox. */
  start(command: string, cwd: string, run?: string): BackgroundTask {
    return this.adopt(new ShellProcess(command, { cwd, ...(run === undefined ? {} : { run }) }));
  }

  /** Takes over a foreground process; output it printed before stays readable. */
  adopt(process: ShellProcess): BackgroundTask {
    const task: BackgroundTask = {
      id: `bash_${this.next++}`,
      command: process.command,
      process,
      startedAt: Date.now(),
      read: { stdout: 0, stderr: 0 },
    };
    this.tasks.set(task.id, task);
    return task;
  }

  get(id: string): BackgroundTask | undefined {
    return this.tasks.get(id);
  }

  list(): BackgroundTask[] {
    return [...this.tasks.values()];
  }

  /** The output since the last read, and the status. */
  read(id: string): TaskOutput | undefined {
    const task = this.tasks.get(id);
    if (!task) return undefined;
    const p = task.process;
    const out: TaskOutput = {
      id,
      status: p.status,
      exitCode: p.exit?.code ?? null,
      stdout: p.stdout.slice(task.read.stdout),
      stderr: p.stderr.slice(task.read.stderr),
    };
    task.read = { stdout: p.stdout.length, stderr: p.stderr.length };
    return out;
  }

  kill(id: string): boolean {
    const task = this.tasks.get(id);
    if (!task || task.process.exit) return false;
    task.process.kill();
    return true;
  }

  /** Kills every task still running and waits (at most `timeoutMs`) for them to end. */
  async killAll(timeoutMs = 3000): Promise<void> {
    const running = this.list().filter((t) => !t.process.exit);
    for (const t of running) t.process.kill();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running.map((t) => t.process.done)),
      new Promise((r) => {
        timer = setTimeout(r, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }
}
