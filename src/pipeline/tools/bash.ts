import { z } from 'zod';
import { AsyncQueue } from '../async-queue.js';
import type { BashSandbox } from '../sandbox/sandbox.js';
import { semanticBoolean, semanticNumber } from '../schema.js';
import { buildTool, type SandboxedCall, type Tool, type ToolContext } from '../tool.js';
import { BashOutputSchema } from './output-schemas.js';
import { type ShellChunk, ShellProcess } from './shell.js';

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;

const input = z.strictObject({
  command: z.string().describe('The command to run'),
  timeout: semanticNumber(z.number().int().positive().max(MAX_BASH_TIMEOUT_MS))
    .optional()
    .describe(`Optional timeout in milliseconds (max ${MAX_BASH_TIMEOUT_MS})`),
  description: z.string().optional().describe('What the command does, in 5-10 words'),
  run_in_background: semanticBoolean()
    .optional()
    .describe('Run the command in the background; read its output later with BashOutput'),
  dangerouslyDisableSandbox: semanticBoolean()
    .optional()
    .describe(
      'Run outside the sandbox, when one is on and the settings allow it; the call then needs permission as usual',
    ),
});

export type BashInput = z.infer<typeof input>;

export interface BashOutput {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** Set when the command runs (or was moved) in the background. */
  backgroundTaskId?: string;
  /** Set when it was moved to the background because it ran past the threshold. */
  autoBackgrounded?: boolean;
}

export interface BashToolOptions {
  /** A foreground command still running after this long moves to the background (default 60 s; 0 turns it off). */
  autoBackgroundMs?: number;
  /** Default 120 s. */
  defaultTimeoutMs?: number;
  /** Runs commands in this sandbox; default the session's (`createToolUseContext({ sandbox })`). */
  sandbox?: BashSandbox;
}

/** A failed command: its output and exit code are what the model needs to correct course. */
export class ShellError extends Error {
  constructor(
    message: string,
    readonly stdout: string,
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = 'ShellError';
  }
}

export function formatShellOutput(stdout: string, stderr: string): string {
  if (!stderr) return stdout;
  if (!stdout) return stderr;
  return stdout.endsWith('\n') ? stdout + stderr : `${stdout}\n${stderr}`;
}

function abortError(): Error {
  const e = new Error('The command was cancelled');
  e.name = 'AbortError';
  return e;
}

interface Launch {
  /** The command line to run with bash. */
  run: string;
  /** Set when it runs in this sandbox. */
  sandbox?: BashSandbox;
}

/**
 * What to run. A call the sandbox cannot take while it should (it failed to start) was asked about in the
 * permission stage and runs on the host only after that answer; a wrap that fails fails the call.
 */
async function launch(
  call: SandboxedCall | undefined,
  command: string,
  signal: AbortSignal,
): Promise<Launch> {
  if (!call?.plan.sandboxed) return { run: command };
  const status = await call.sandbox.status();
  if (!status.available) return { run: command };
  return { run: await call.sandbox.wrap(command, signal), sandbox: call.sandbox };
}

export function bashTool(options: BashToolOptions = {}): Tool<BashInput, BashOutput> {
  const autoBackgroundMs = options.autoBackgroundMs ?? 60_000;
  const defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  const sandboxed = (args: BashInput, ctx: ToolContext): SandboxedCall | undefined => {
    const sandbox = options.sandbox ?? ctx.sandbox;
    return sandbox?.enabled ? { sandbox, plan: sandbox.plan(args) } : undefined;
  };
  return buildTool<BashInput, BashOutput>({
    name: 'Bash',
    description: 'Run a shell command',
    prompt: () =>
      'Runs a bash command in the working folder. stdout and stderr are returned; a non-zero exit is an error. ' +
      `Default timeout ${defaultTimeoutMs / 1000} s. Set run_in_background for long-running commands and read ` +
      'their output with BashOutput.',
    inputSchema: input,
    outputSchema: BashOutputSchema,
    maxResultSizeChars: 30_000,
    interruptBehavior: () => 'cancel',
    sandboxed,
    async *call(args, ctx) {
      const how = await launch(sandboxed(args, ctx), args.command, ctx.signal);
      if (args.run_in_background) {
        const task = ctx.session.tasks.start(args.command, ctx.cwd, how.run);
        if (how.sandbox) void task.process.done.then(() => how.sandbox?.release());
        yield { type: 'result', data: { stdout: '', stderr: '', exitCode: null, backgroundTaskId: task.id } };
        return;
      }
      const proc = new ShellProcess(args.command, { cwd: ctx.cwd, run: how.run });
      if (how.sandbox) void proc.done.then(() => how.sandbox?.release());
      const chunks = new AsyncQueue<ShellChunk>();
      const unsubscribe = proc.onChunk((c) => chunks.push(c));
      void proc.done.then(() => chunks.close());
      const timeoutMs = args.timeout ?? defaultTimeoutMs;
      let timedOut = false;
      let backgrounded = false;
      const timers = [
        setTimeout(() => {
          timedOut = true;
          proc.kill();
        }, timeoutMs),
      ];
      if (autoBackgroundMs > 0 && autoBackgroundMs < timeoutMs) {
        timers.push(
          setTimeout(() => {
            backgrounded = true;
            chunks.close();
          }, autoBackgroundMs),
        );
      }
      const onAbort = () => proc.kill();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        for await (const chunk of chunks) yield { type: 'progress', data: chunk };
      } finally {
        for (const t of timers) clearTimeout(t);
        ctx.signal.removeEventListener('abort', onAbort);
        unsubscribe();
        if (!backgrounded) proc.kill();
      }
      if (backgrounded && !proc.exit) {
        const task = ctx.session.tasks.adopt(proc);
        const data: BashOutput = {
          stdout: proc.stdout,
          stderr: proc.stderr,
          exitCode: null,
          autoBackgrounded: true,
        };
        data.backgroundTaskId = task.id;
        yield { type: 'result', data };
        return;
      }
      const exit = await proc.done;
      if (ctx.signal.aborted) throw abortError();
      const output = formatShellOutput(proc.stdout, proc.stderr);
      if (timedOut) {
        throw new ShellError(
          `${output}\nCommand timed out after ${timeoutMs} ms`,
          proc.stdout,
          proc.stderr,
          exit.code,
        );
      }
      if (exit.code !== 0) {
        const how = exit.code === null ? `killed by ${exit.signal ?? 'a signal'}` : `Exit code ${exit.code}`;
        throw new ShellError(output ? `${output}\n${how}` : how, proc.stdout, proc.stderr, exit.code);
      }
      yield { type: 'result', data: { stdout: proc.stdout, stderr: proc.stderr, exitCode: 0 } };
    },
    mapToolResult(out) {
      if (out.backgroundTaskId) {
        const how = out.autoBackgrounded
          ? 'The command ran past the foreground limit and was moved to the background'
          : 'The command is running in the background';
        const sofar = formatShellOutput(out.stdout, out.stderr);
        return `${how} with ID: ${out.backgroundTaskId}. Read its output with BashOutput.${sofar ? `\nOutput so far:\n${sofar}` : ''}`;
      }
      return formatShellOutput(out.stdout, out.stderr);
    },
  });
}
