import { type SpawnOptions, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { makeDirectories } from '../shared/index.js';
import { RECORD_FILE, readServiceRecord } from './discovery.js';
import { LOCK_FILE } from './lock.js';
import { pidAlive } from './request.js';

// `automode hook --serve`: the hook starts a service of its own at its first call and forwards every later call
// to it. The service must decide exactly as the hook would have in its own process, so it is keyed by all that
// decision can depend on: the hook's options, the environment variables a decision reads (DECISION_VARIABLES),
// the session's project root, node and automode's build. Another key is another service.

/** How long an automatic service waits for a call before it exits. */
export const AUTO_IDLE_MINUTES = 15;

/** More live automatic services than this, and a hook decides in-process rather than start another. */
export const MAX_AUTO_SERVICES = 8;

/** What an automatic service's decisions depend on, besides the call itself. */
export interface AutoKey {
  /** The hook's options that shape a decision, as given (`--serve` and `--forward` left out). */
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The hook's working folder; the key holds the session's project root (CLAUDE_PROJECT_DIR) when it is set. */
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

/**
 * The environment variables a decision can read, by name or by prefix: where the settings are (HOME,
 * CLAUDE_CONFIG_DIR, XDG_CONFIG_HOME, AUTOMODE_MANAGED_SETTINGS), the project root, the model (ANTHROPIC_*,
 * AUTOMODE_*), the facts given to the model (KUBECONFIG, AWS_*), and what changes what a command does (PATH,
 * CDPATH, RIPGREP_CONFIG_PATH, FZF_DEFAULT_*, SHELL, GIT_*, DOCKER_*). Only these are in a service's key: what a shell sets per
 * process (`_`, SHLVL, PWD, OLDPWD) or the terminal does not start another service.
 */
export const DECISION_VARIABLES: readonly string[] = [
  'HOME',
  'PATH',
  'CDPATH',
  'RIPGREP_CONFIG_PATH',
  'FZF_DEFAULT_OPTS',
  'FZF_DEFAULT_OPTS_FILE',
  'FZF_DEFAULT_COMMAND',
  // fzf runs its preview and bindings with $SHELL: automode reads them only for a shell reading bash.
  'SHELL',
  'XDG_CONFIG_HOME',
  'KUBECONFIG',
  'CLAUDE_PROJECT_DIR',
  'CLAUDE_CONFIG_DIR',
];
export const DECISION_VARIABLE_PREFIXES: readonly string[] = [
  'AUTOMODE_',
  'ANTHROPIC_',
  'AWS_',
  'GIT_',
  'DOCKER_',
];

/** Variables that do not change a decision although their prefix is listed. */
const NOT_DECIDING = new Set([...SERVICE_VARIABLES, 'AUTOMODE_FORWARD_TIMEOUT_MS']);

/** Whether a variable is one a decision can depend on (see DECISION_VARIABLES). */
export function isDecisionVariable(name: string): boolean {
  if (NOT_DECIDING.has(name)) return false;
  return DECISION_VARIABLES.includes(name) || DECISION_VARIABLE_PREFIXES.some((p) => name.startsWith(p));
}

/** The key as text: what the hook sends with each call, and what its service's AUTO_KEY_VARIABLE is a hash of. */
export function autoKeyText(key: AutoKey): string {
  const env = Object.entries(key.env)
    .filter(([name]) => isDecisionVariable(name))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([key.build, process.version, key.argv, autoKeyRoot(key), env]);
}

/** The folder a service is keyed by: the session's project root when Claude Code gives it, else the hook's folder. */
export function autoKeyRoot(key: Pick<AutoKey, 'env' | 'cwd'>): string {
  return key.env.CLAUDE_PROJECT_DIR || key.cwd;
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

/** The automatic services of this user that run: their folders, and when each last decided (its record's mtime). */
function runningServices(root: string): { dir: string; pid: number; usedMs: number }[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const out: { dir: string; pid: number; usedMs: number }[] = [];
  for (const name of names) {
    const dir = join(root, name);
    const record = readServiceRecord(dir);
    if (!record || !pidAlive(record.pid)) continue;
    let usedMs = 0;
    try {
      usedMs = statSync(join(dir, RECORD_FILE)).mtimeMs;
    } catch {}
    out.push({ dir, pid: record.pid, usedMs });
  }
  return out;
}

/** How many automatic services of this user are running. */
export function liveAutoServices(root: string): number {
  return runningServices(root).length;
}

/** Folders where a hook claimed a start less than START_MS ago and no service runs yet. */
function startingServices(root: string): number {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return 0;
  }
  const now = Date.now();
  return names.filter((name) => {
    if (readServiceRecord(join(root, name))) return false;
    try {
      return now - statSync(join(root, name, STARTING_FILE)).mtimeMs < START_MS;
    } catch {
      return false;
    }
  }).length;
}

/** Held by the hook that counts the services and claims a start, so that hooks started together keep the cap. */
const CAP_LOCK = '.starting.lock';

/** Runs `f` holding the root's cap lock (taken from a process that died holding it after START_MS); false when it is held. */
function withCapLock(root: string, f: () => boolean): boolean {
  const lock = join(root, CAP_LOCK);
  if (!claimStart(lock)) return false;
  try {
    return f();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Written when a hook starts the service: the calls made meanwhile (parallel tool calls) start no other. */
export const STARTING_FILE = 'starting';

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
  const text = autoKeyText(key);
  const dir = autoServiceDir(key, text);
  makeDirectories(root, 0o700);
  const claimed = withCapLock(root, () => {
    const running = runningServices(root);
    const over = running.length + startingServices(root) + 1 - MAX_AUTO_SERVICES;
    if (over > 0) {
      // The ones idle longest leave (they finish what they are doing and remove their files).
      const idle = running.filter((r) => r.dir !== dir).sort((a, b) => a.usedMs - b.usedMs);
      if (idle.length < over) return false;
      for (const r of idle.slice(0, over)) {
        try {
          const state = processState(r.pid);
          process.kill(r.pid, state === 'T' || state === 't' ? 'SIGKILL' : 'SIGTERM');
        } catch {}
        rmSync(join(r.dir, RECORD_FILE), { force: true });
      }
    }
    makeDirectories(dir, 0o700);
    return claimStart(join(dir, STARTING_FILE));
  });
  if (!claimed) return false;
  const options: SpawnOptions = {
    cwd: autoKeyRoot(key),
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

/** The state letter of a process (`R`, `S`, `T` for stopped…), from /proc; undefined where there is none. */
function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/**
 * Ends the automatic service in `dir` that accepted a call and sent nothing (see ANSWER_START_MS), so that the
 * next call starts another: a stopped one is killed and its files removed at once (it can do neither); a running
 * one, only slow on a loaded machine, is left to answer the next calls. Returns what was done.
 */
export async function replaceAutoService(dir: string): Promise<'killed' | 'none'> {
  const record = readServiceRecord(dir);
  if (!record || !pidAlive(record.pid)) return 'none';
  const state = processState(record.pid);
  try {
    if (state === 'T' || state === 't') {
      process.kill(record.pid, 'SIGKILL');
      // Gone (or a zombie) within moments: then its lock, record and socket are removed for the next one.
      for (let waited = 0; waited < 2_000; waited += 20) {
        if (!pidAlive(record.pid) || processState(record.pid) === 'Z') break;
        await new Promise((r) => setTimeout(r, 20));
      }
      removeIfHeldBy(join(dir, LOCK_FILE), record.pid);
      rmSync(join(dir, RECORD_FILE), { force: true });
      rmSync(join(dir, STARTING_FILE), { force: true });
      if (record.socket) rmSync(record.socket, { force: true });
      return 'killed';
    }
    // Running but slow (a loaded machine): this call was decided here; the service stays.
    return 'none';
  } catch {
    return 'none';
  }
}

function removeIfHeldBy(lock: string, pid: number): void {
  try {
    if (Number(readFileSync(lock, 'utf8').trim()) === pid) rmSync(lock, { force: true });
  } catch {}
}

/** A service `serve --status` lists and `serve --stop` ends: the folder, and its pid when its process runs. */
export interface ServiceEntry {
  dir: string;
  automatic: boolean;
  pid?: number;
  /** From /proc: `T` when stopped. */
  state?: string;
  /** Resident memory from /proc, in bytes. */
  memoryBytes?: number;
}

function residentBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The folders of this user's services: `main` (automode serve's own folder) and every automatic one. */
export function serviceEntries(main: string, env: NodeJS.ProcessEnv): ServiceEntry[] {
  const root = autoServicesRoot(env);
  let names: string[] = [];
  try {
    names = readdirSync(root).filter((n) => !n.startsWith('.'));
  } catch {}
  const entries: ServiceEntry[] = [];
  for (const [dir, automatic] of [[main, false], ...names.map((n) => [join(root, n), true])] as [
    string,
    boolean,
  ][]) {
    const record = readServiceRecord(dir);
    const entry: ServiceEntry = { dir, automatic };
    if (record && pidAlive(record.pid)) {
      entry.pid = record.pid;
      const state = processState(record.pid);
      if (state) entry.state = state;
      const memory = residentBytes(record.pid);
      if (memory !== undefined) entry.memoryBytes = memory;
    }
    if (entry.pid !== undefined || automatic) entries.push(entry);
  }
  return entries;
}

/**
 * Ends the service of an entry and waits (up to `waitMs`) for it to leave: SIGTERM, then SIGKILL for one that
 * is stopped or does not leave; then removes what it left behind (an automatic service's whole folder, the
 * record and socket of automode serve's). Returns whether no process of it runs any more.
 */
export async function stopService(entry: ServiceEntry, waitMs = 5_000): Promise<boolean> {
  const { pid } = entry;
  const gone = () => pid === undefined || !pidAlive(pid) || processState(pid) === 'Z';
  if (pid !== undefined) {
    const stopped = entry.state === 'T' || entry.state === 't';
    try {
      process.kill(pid, stopped ? 'SIGKILL' : 'SIGTERM');
    } catch {}
    for (let waited = 0; !gone() && waited < waitMs; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    if (!gone()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
      for (let waited = 0; !gone() && waited < 2_000; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
    }
  }
  if (!gone()) return false;
  if (entry.automatic) rmSync(entry.dir, { recursive: true, force: true });
  else {
    const record = readServiceRecord(entry.dir);
    if (record && record.pid === pid) {
      rmSync(join(entry.dir, RECORD_FILE), { force: true });
      if (record.socket) rmSync(record.socket, { force: true });
    }
  }
  return true;
}
