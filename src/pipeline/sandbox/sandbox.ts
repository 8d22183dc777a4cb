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

/** Claude Code's `sandbox` settings, run by `@anthropic-ai/sandbox-runtime` (bubblewrap on Linux, Seatbelt on macOS). */
export class Sandbox implements BashSandbox {
  readonly enabled: boolean;
  readonly autoAllow: boolean;
  readonly config: SandboxConfig;
  private readonly excluded: readonly string[];
  private readonly allowUnsandboxed: boolean;
  private started: Promise<SandboxStatus> | undefined;

  constructor(settings: LoadedSettings, options: SandboxOptions = {}) {
    const s = settings.sandbox;
    this.enabled = options.enabled ?? s?.enabled ?? false;
    this.autoAllow = s?.autoAllowBashIfSandboxed ?? true;
    this.allowUnsandboxed = s?.allowUnsandboxedCommands ?? true;
    this.excluded = (s?.excludedCommands ?? []).map((e) => e.value);
    this.config = sandboxRuntimeConfig(settings, options.cwd ?? settings.cwd);
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

  wrap(command: string, signal?: AbortSignal): Promise<string> {
    return wrapCommand(command, this.config, signal);
  }

  release(): void {
    void afterCommand();
  }
}
