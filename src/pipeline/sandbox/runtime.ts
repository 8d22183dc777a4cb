import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { errorText } from '../errors.js';
import { loadOptional, MissingOptionalPackageError } from '../optional.js';
import type { SandboxConfig } from './config.js';

type Runtime = typeof import('@anthropic-ai/sandbox-runtime');

export type SandboxStatus = { available: true } | { available: false; reason: string };

let runtime: Promise<Runtime> | undefined;
/**
 * The runtime loads on first use only: nothing imports it unless a sandbox is enabled. It is an optional peer
 * dependency: when it is not installed, the sandbox is unavailable and says what to install.
 */
function load(): Promise<Runtime> {
  runtime ??= loadOptional(
    '@anthropic-ai/sandbox-runtime',
    'the sandbox',
    () => import('@anthropic-ai/sandbox-runtime'),
  );
  return runtime;
}

const SUPPORTED = new Set<NodeJS.Platform>(['linux', 'darwin']);

/** The runtime's manager is one per process: starts are serialized, and it restarts only for another network. */
let queue: Promise<unknown> = Promise.resolve();
let started: string | undefined;

function networkKey(config: SandboxConfig): string {
  const { filesystem: _, ...rest } = config;
  return JSON.stringify(rest);
}

async function start(config: SandboxConfig): Promise<SandboxStatus> {
  if (!SUPPORTED.has(process.platform))
    return { available: false, reason: `sandboxing needs Linux or macOS, not ${process.platform}` };
  let rt: Runtime;
  try {
    rt = await load();
  } catch (e) {
    if (e instanceof MissingOptionalPackageError) return { available: false, reason: e.message };
    return { available: false, reason: `the sandbox runtime failed to load: ${errorText(e)}` };
  }
  const manager = rt.SandboxManager;
  if (!manager.isSupportedPlatform())
    return { available: false, reason: `the sandbox runtime does not support ${process.platform} here` };
  const deps = manager.checkDependencies();
  if (deps.errors.length > 0) {
    const hint =
      process.platform === 'linux'
        ? ' (install bubblewrap, socat and ripgrep: scripts/setup-sandbox.sh)'
        : '';
    return { available: false, reason: `${deps.errors.join('; ')}${hint}` };
  }
  const key = networkKey(config);
  if (started === key) return { available: true };
  try {
    if (started !== undefined) await manager.reset();
    started = undefined;
    const full: SandboxRuntimeConfig = config;
    await manager.initialize(full);
    started = key;
    return { available: true };
  } catch (e) {
    return { available: false, reason: `the sandbox failed to start: ${errorText(e)}` };
  }
}

/** Checks the platform and the dependencies, then starts the runtime with this configuration's network. */
export function startSandbox(config: SandboxConfig): Promise<SandboxStatus> {
  const next = queue.then(() => start(config));
  queue = next.catch(() => undefined);
  return next;
}

/** The command line that runs `command` with bash inside the sandbox. */
export async function wrapCommand(
  command: string,
  config: SandboxConfig,
  signal?: AbortSignal,
): Promise<string> {
  const { SandboxManager } = await load();
  return SandboxManager.wrapWithSandbox(command, 'bash', { filesystem: config.filesystem }, signal);
}

export async function afterCommand(): Promise<void> {
  if (!runtime) return;
  (await runtime).SandboxManager.cleanupAfterCommand();
}

/** Stops the runtime's proxies; the next start begins afresh. */
export async function stopSandboxRuntime(): Promise<void> {
  const next = queue.then(async () => {
    if (started === undefined || !runtime) return;
    started = undefined;
    await (await runtime).SandboxManager.reset();
  });
  queue = next.catch(() => undefined);
  await next;
}
