import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from './request.js';

/** The file a service holds for its lifetime: its pid; the folder belongs to the one service that created it. */
export const LOCK_FILE = 'service.lock';

/** A takeover lock left by a process that died in the microseconds it holds one is removed after this long. */
const TAKEOVER_STALE_MS = 10_000;

export interface FolderLock {
  readonly path: string;
  /** Removes the lock, if it is still this process's. */
  release(): void;
}

/** Another live service holds the folder. */
export class FolderLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    held: string,
  ) {
    super(`a service (pid ${pid}) is already running for ${dir} (it holds ${held})`);
  }
}

interface Holder {
  pid: number | undefined;
  ino: bigint;
}

/**
 * Creates a file holding our pid, whole or not at all: the pid is written to a file of our own, which is then
 * hard-linked to the name (link fails when the name exists). False when the name exists.
 */
function create(path: string): boolean {
  const own = `${path}.${process.pid}.${randomBytes(6).toString('hex')}`;
  writeFileSync(own, `${process.pid}\n`, { mode: 0o600, flag: 'wx' });
  try {
    linkSync(own, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(own, { force: true });
  }
}

function holderOf(path: string): Holder | undefined {
  try {
    const ino = statSync(path, { bigint: true }).ino;
    const pid = Number(readFileSync(path, 'utf8').trim());
    if (statSync(path, { bigint: true }).ino !== ino) return undefined;
    return { pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined, ino };
  } catch {
    return undefined;
  }
}

const stale = (holder: Holder) => holder.pid === undefined || !pidAlive(holder.pid);

/**
 * Removes a lock whose process is gone. Removals are serialized by a takeover lock, under which the lock is
 * checked again: two processes that both found it stale never remove the one a third has just created.
 */
function removeStale(lock: string, seen: Holder): void {
  const takeover = `${lock}.takeover`;
  if (!create(takeover)) {
    try {
      if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_STALE_MS) rmSync(takeover, { force: true });
    } catch {}
    return;
  }
  try {
    const now = holderOf(lock);
    if (now && now.ino === seen.ino && now.pid === seen.pid && stale(now)) rmSync(lock, { force: true });
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** Takes the folder's lock for this process, removing a stale one; throws FolderLockedError when it is held. */
export async function lockFolder(dir: string): Promise<FolderLock> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 50; attempt++) {
    if (attempt > 0) await sleep(5 + Math.random() * 15);
    if (create(path)) {
      const mine = holderOf(path);
      return {
        path,
        release() {
          const now = holderOf(path);
          if (now && now.pid === process.pid && now.ino === mine?.ino) rmSync(path, { force: true });
        },
      };
    }
    const holder = holderOf(path);
    if (!holder) continue;
    if (holder.pid !== undefined && !stale(holder)) throw new FolderLockedError(dir, holder.pid, path);
    removeStale(path, holder);
  }
  throw new Error(`could not take ${path}: it keeps changing`);
}
