import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isObject } from '../shared/index.js';

/**
 * Where a running service can be found: the folder holding `service.json` (how to reach it) and `token` (the
 * secret every request carries), both readable by the user alone. `AUTOMODE_SERVICE_DIR` moves it (tests, or
 * one service per project).
 */
export function serviceDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.AUTOMODE_SERVICE_DIR || join(env.HOME || homedir(), '.automode');
}

export const RECORD_FILE = 'service.json';
export const TOKEN_FILE = 'token';

/** The header every request to the service carries: `Authorization: Bearer <token>`. */
export const TOKEN_HEADER = 'authorization';

/** The paths of the service's HTTP interface. */
export const PATHS = { hook: '/hook', autoHook: '/hook/auto', health: '/health', status: '/status' } as const;

/** What `service.json` says of a running service. */
export interface ServiceRecord {
  pid: number;
  version: string;
  startedAt: string;
  /** `http://127.0.0.1:PORT`, when it listens on loopback. */
  url?: string;
  /** The Unix socket's path, when it listens on one. */
  socket?: string;
}

/** The record of the service in the folder, or undefined when there is none or it cannot be read. */
export function readServiceRecord(dir: string): ServiceRecord | undefined {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8'));
    if (!isObject(value) || typeof value.pid !== 'number') return undefined;
    const record: ServiceRecord = {
      pid: value.pid,
      version: typeof value.version === 'string' ? value.version : '',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : '',
    };
    if (typeof value.url === 'string') record.url = value.url;
    if (typeof value.socket === 'string') record.socket = value.socket;
    return record.url || record.socket ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The service's token, or undefined when it cannot be read. */
export function readToken(dir: string): string | undefined {
  try {
    const token = readFileSync(join(dir, TOKEN_FILE), 'utf8').trim();
    return token || undefined;
  } catch {
    return undefined;
  }
}
