import { type SpawnOptions, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readServiceRecord } from './discovery.js';
import { pidAlive } from './request.js';

// `automode hook --serve`: the hook starts a service of its own at its first call and forwards every later call
// to it. The service must decide exactly as the hook would have in its own process, so it is keyed by all that
// decision can depend on: the hook's options, the whole environment (settings paths, model variables,
// KUBECONFIG…), the folder it runs in, node and automode's build. Another key is another service.

/** How long an automatic service waits for a call before it exits. */
export const AUTO_IDLE_MINUTES = 15;

/** More live automatic services than this, and a hook decides in-process rather than start another. */
export const MAX_AUTO_SERVICES = 8;

/** What an automatic service's decisions depend on, besides the call itself. */
export interface AutoKey {
  /** The hook's options that shape a decision, as given (`--serve` and `--forward` left out). */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Identifies automode's code: a rebuilt or upgraded automode starts a new service. */
  build: string;
}

/** The folder of the automatic services of the user whose environment this is. */
export function autoServicesRoot(env: NodeJS.ProcessEnv): string {
  return join(env.HOME || homedir(), '.automode', 'auto');
}

/** The variable that gives an automatic service the SHA-256 of its key, which each call's key must match. */
export const AUTO_KEY_VARIABLE = 'AUTOMODE_AUTO_KEY';

/** Variables the hook sets for its service: not part of what a decision depends on. */
const SERVICE_VARIABLES = new Set(['AUTOMODE_SERVICE_DIR', AUTO_KEY_VARIABLE]);

/** The key as text: what the hook sends with each call, and what its service's AUTO_KEY_VARIABLE is a hash of. */
export function autoKeyText(key: AutoKey): string {
  const env = Object.entries(key.env)
    .filter(([name]) => !SERVICE_VARIABLES.has(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([key.build, process.version, key.argv, key.cwd, env]);
}

/** The SHA-256 of a key's text, in hex: its service holds it and checks every call's key against it. */
export function autoKeyDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The folder of the one automatic service for this key, named by a fast 64-bit hash of its text: no
 * `node:crypto`, which alone costs a forwarded call 0.1-0.2x of starting node. A name is no proof: the service
 * answers only a call whose key's SHA-256 is its own, so two keys whose names collide never share a service
 * (the second decides in-process).
 */
export function autoServiceDir(key: AutoKey, text: string = autoKeyText(key)): string {
  return join(autoServicesRoot(key.env), nameHash(text));
}

function nameHash(text: string): string {
  let h1 = 0x9e3779b9;
  let h2 = 0x85ebca6b;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) ^ Math.imul(h2 ^ (h2 >>> 13), 0x297a2d39);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 0x27d4eb2f) ^ Math.imul(h1 ^ (h1 >>> 12), 0x165667b1);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** How many automatic services of this user are running. */
export function liveAutoServices(root: string): number {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 0;
  }
  return names.filter((name) => {
    const record = readServiceRecord(join(root, name));
    return record !== undefined && pidAlive(record.pid);
  }).length;
}

/** Written when a hook starts the service: the calls made meanwhile (parallel tool calls) start no other. */
const STARTING_FILE = 'starting';

/** A service takes this long to listen, at most, on a slow machine; an older claim is stale. */
const START_MS = 10_000;

function claimStart(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx', 0o600));
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < START_MS) return false;
      writeFileSync(file, '', { mode: 0o600 });
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Starts the automatic service for `key` in the background (`automode serve` on a Unix socket only, leaving
 * after AUTO_IDLE_MINUTES without a call), unless too many run already or another hook started it less than
 * START_MS ago; a second start that gets through loses the folder's lock and exits. Returns whether it started
 * one.
 */
export function startAutoService(key: AutoKey, bin: string): boolean {
  const root = autoServicesRoot(key.env);
  if (liveAutoServices(root) >= MAX_AUTO_SERVICES) return false;
  const text = autoKeyText(key);
  const dir = autoServiceDir(key, text);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!claimStart(join(dir, STARTING_FILE))) return false;
  const options: SpawnOptions = {
    cwd: key.cwd,
    env: { ...key.env, AUTOMODE_SERVICE_DIR: dir, [AUTO_KEY_VARIABLE]: autoKeyDigest(text) },
    detached: true,
    stdio: 'ignore',
  };
  const args = [bin, 'serve', '--no-http', '--idle-exit-minutes', String(AUTO_IDLE_MINUTES), ...key.argv];
  const child = spawn(process.execPath, args, options);
  child.on('error', () => undefined);
  child.unref();
  return true;
}
