import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOOK_SCRIPT = fileURLToPath(new URL('../../fixtures/pipeline/hook.mjs', import.meta.url));

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A command line running the fixture hook with these options. */
export function hookCommand(options: {
  record?: string;
  sleep?: number;
  stdout?: string | object;
  stderr?: string;
  exit?: number;
  crash?: boolean;
}): string {
  const args = [process.execPath, HOOK_SCRIPT];
  if (options.record) args.push('--record', options.record);
  if (options.sleep) args.push('--sleep', String(options.sleep));
  if (options.stdout !== undefined) {
    args.push(
      '--stdout',
      typeof options.stdout === 'string' ? options.stdout : JSON.stringify(options.stdout),
    );
  }
  if (options.stderr !== undefined) args.push('--stderr', options.stderr);
  if (options.exit !== undefined) args.push('--exit', String(options.exit));
  if (options.crash) args.push('--crash');
  return args.map(quote).join(' ');
}

export function preDecision(decision: string, reason?: string, extra: Record<string, unknown> = {}) {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      ...(reason ? { permissionDecisionReason: reason } : {}),
      ...extra,
    },
  };
}

export function tempDir(prefix = 'automode-hooks-'): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), prefix));
}
