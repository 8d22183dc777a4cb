import { mkdtempSync, rmSync } from 'node:fs';
import { release, tmpdir } from 'node:os';
import path from 'node:path';
import { quote } from 'shell-quote';
import type { LoadedSettings } from '../../rules/index.js';
import { type SandboxConfig, sandboxRuntimeConfig } from './config.js';
import { excludedBy } from './excluded.js';
import { afterCommand, type SandboxStatus, startSandbox, wrapCommand } from './runtime.js';

export interface SandboxOptions {
  /** Turns the sandbox on (`--sandbox`) or off whatever `sandbox.enabled` says. */
  enabled?: boolean;
  /** The project folder commands may write in; default the settings' folder. */
  cwd?: string;
}

/** How a Bash call will run. */
export type SandboxPlan =
  | { sandboxed: true }
  /** It runs on the host, through the normal permission flow. */
  | { sandboxed: false; reason: string };

/** What the Bash tool needs from a sandbox to run a command in it. */
export interface BashSandbox {
  readonly enabled: boolean;
  /** `sandbox.autoAllowBashIfSandboxed` (default true): a sandboxed call needs no answer the rules leave open. */
  readonly autoAllow: boolean;
  plan(input: { command: string; dangerouslyDisableSandbox?: boolean | undefined }): SandboxPlan;
  /** Whether the sandbox can start here, and why not; settled once. */
  status(): Promise<SandboxStatus>;
  /** The command line to run with bash: the command inside the sandbox. */
  wrap(command: string, signal?: AbortSignal): Promise<string>;
  /** Called when a sandboxed command has ended. */
  release(): void;
}

/** The names `sandbox.enabledPlatforms` may give this machine's platform. */
function platformNames(): string[] {
  if (process.platform === 'darwin') return ['macos'];
  if (process.platform === 'win32') return ['windows'];
  if (process.platform !== 'linux') return [process.platform];
  return /microsoft/i.test(release()) ? ['linux', 'wsl'] : ['linux'];
}

/** No list: every platform. */
function onListedPlatform(list: readonly string[] | undefined): boolean {
  if (list === undefined) return true;
  const names = platformNames();
  return list.some((p) => names.includes(p.toLowerCase()));
}

/** Claude Code's `sandbox` settings, run by `@anthropic-ai/sandbox-runtime` (bubblewrap on Linux, Seatbelt on macOS). */
export class Sandbox implements BashSandbox {
  readonly enabled: boolean;
  readonly autoAllow: boolean;
  private readonly settings: LoadedSettings;
  private readonly cwd: string;
  private readonly excluded: readonly string[];
  private readonly allowUnsandboxed: boolean;
  private started: Promise<SandboxStatus> | undefined;
  private temp: string | undefined;
  private configured: SandboxConfig | undefined;

  constructor(settings: LoadedSettings, options: SandboxOptions = {}) {
    const s = settings.sandbox;
    this.settings = settings;
    this.cwd = options.cwd ?? settings.cwd;
    this.enabled = options.enabled ?? ((s?.enabled ?? false) && onListedPlatform(s?.enabledPlatforms));
    this.autoAllow = s?.autoAllowBashIfSandboxed ?? true;
    this.allowUnsandboxed = s?.allowUnsandboxedCommands ?? true;
    this.excluded = (s?.excludedCommands ?? []).map((e) => e.value);
  }

  /**
   * The session's own temp folder (mode 0700, made on first use, removed by `close`): the only temp folder a
   * sandboxed command may write, and its TMPDIR. The host's `/tmp` stays read-only, and with it any project or
   * home folder under it, and other sessions' files.
   */
  get tempDir(): string {
    if (this.temp === undefined) {
      this.temp = mkdtempSync(path.join(tmpdir(), 'automode-sandbox-tmp-'));
      removeAtExit(this.temp);
    }
    return this.temp;
  }

  get config(): SandboxConfig {
    this.configured ??= sandboxRuntimeConfig(this.settings, this.cwd, this.tempDir);
    return this.configured;
  }

  plan(input: { command: string; dangerouslyDisableSandbox?: boolean | undefined }): SandboxPlan {
    if (!this.enabled) return { sandboxed: false, reason: 'the sandbox is off' };
    const excluded = excludedBy(input.command, this.excluded);
    if (excluded) return { sandboxed: false, reason: `sandbox.excludedCommands has "${excluded}"` };
    if (input.dangerouslyDisableSandbox && this.allowUnsandboxed)
      return {
        sandboxed: false,
        reason: 'the call asks to run outside the sandbox (dangerouslyDisableSandbox)',
      };
    return { sandboxed: true };
  }

  status(): Promise<SandboxStatus> {
    this.started ??= startSandbox(this.config);
    return this.started;
  }

  /**
   * The command with its temp folder, in the sandbox. Its file-system configuration is made afresh for each
   * command, from the disk as it is then: a nested repository or `.claude` made since the last command is
   * protected too, and a `.git` that appeared or went is protected as it now is.
   */
  wrap(command: string, signal?: AbortSignal): Promise<string> {
    const fresh = sandboxRuntimeConfig(this.settings, this.cwd, this.tempDir, true);
    const tmp = quote([this.tempDir]);
    const withTemp = `export TMPDIR=${tmp} TMP=${tmp} TEMP=${tmp}; ${command}`;
    return wrapCommand(withTemp, fresh, signal);
  }

  release(): void {
    void afterCommand();
  }

  /** Removes the session's temp folder. */
  close(): void {
    if (this.temp) {
      rmSync(this.temp, { recursive: true, force: true });
      leftAtExit.delete(this.temp);
    }
    this.temp = undefined;
    this.configured = undefined;
  }
}

/** Temp folders of sandboxes not closed: removed when the process exits. */
const leftAtExit = new Set<string>();
let listening = false;

function removeAtExit(folder: string): void {
  if (!listening)
    process.once('exit', () => {
      for (const f of leftAtExit) rmSync(f, { recursive: true, force: true });
    });
  listening = true;
  leftAtExit.add(folder);
}
