import { mkdirSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { createColors } from 'picocolors';

// Small ideas used by every layer. This folder imports no other folder of src/, and is one module: it is on
// the path of every hook call, where each module loaded costs start-up time.

// The permission modes.

/** The permission modes. */
export const MODES = ['default', 'acceptEdits', 'plan', 'auto', 'dontAsk', 'bypassPermissions'] as const;

export type Mode = (typeof MODES)[number];

export function isMode(x: unknown): x is Mode {
  return typeof x === 'string' && (MODES as readonly string[]).includes(x);
}

const [first, ...rest] = MODES;

/** The modes as settings and hook inputs spell them: `manual` is the older name of `default`. */
export const MODE_SPELLINGS = [first, 'manual', ...rest] as const;

/** A mode as settings and hook inputs spell it. */
export function toMode(x: unknown): Mode | undefined {
  if (x === 'manual') return 'default';
  return isMode(x) ? x : undefined;
}

// Guards for values read from JSON.

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

export function isStrings(x: unknown): x is string[] {
  return Array.isArray(x) && x.every((s) => typeof s === 'string');
}

export function isStringRecord(x: unknown): x is Record<string, string> {
  return isObject(x) && Object.values(x).every((v) => typeof v === 'string');
}

// The PreToolUse-shaped call line.

/** Text that must hold a JSON object; `syntax` tells text that is not JSON from a value that is not an object. */
export function parseJsonObject(
  text: string,
): { value: Record<string, unknown> } | { error: string; syntax: boolean } {
  try {
    const value = JSON.parse(text) as unknown;
    return isObject(value) ? { value } : { error: 'not an object', syntax: false };
  } catch (e) {
    return { error: (e as Error).message, syntax: true };
  }
}

export interface CallLine {
  tool: string;
  input: Record<string, unknown>;
  cwd?: string;
  mode?: Mode;
}

/** A PreToolUse-shaped object: `{tool_name, tool_input, cwd?, permission_mode?}`. */
export function parseCallLine(line: string): CallLine | { error: string } {
  const parsed = parseJsonObject(line);
  return 'error' in parsed ? { error: parsed.error } : callOf(parsed.value);
}

/** The call of a PreToolUse-shaped object already parsed. */
export function callOf(value: Record<string, unknown>): CallLine | { error: string } {
  const { tool_name, tool_input, cwd, permission_mode } = value;
  if (typeof tool_name !== 'string' || tool_name === '')
    return { error: 'tool_name must be a non-empty string' };
  if (!isObject(tool_input)) return { error: 'tool_input must be an object' };
  const call: CallLine = { tool: tool_name, input: tool_input };
  if (typeof cwd === 'string') call.cwd = cwd;
  const mode = toMode(permission_mode);
  if (mode) call.mode = mode;
  return call;
}

/**
 * Whether JSON text nests arrays and objects deeper than `max`, by one pass over the text counting brackets
 * outside strings: JSON.parse of a deep text takes seconds and hundreds of MB before it could be refused.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

// GitHub Actions workflow commands.

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** In a property value `:` and `,` separate too. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** A GitHub Actions workflow command, `::command key=value,...::message`, escaped as GitHub documents. */
export function workflowCommand(
  command: string,
  props: ReadonlyArray<readonly [string, string | number]>,
  message: string,
): string {
  const list = props.map(([key, value]) => `${key}=${escapeProperty(String(value))}`);
  return `::${command} ${list.join(',')}::${escapeData(message)}`;
}

/** The colour functions a text report writes with: picocolors, on or off. */
export type Colors = ReturnType<typeof createColors>;

/** Whether a model can be reached: an API key, or a base URL (a proxy that may hold the key). */
export function isModelConfigured(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.ANTHROPIC_API_KEY?.trim() || env.ANTHROPIC_BASE_URL?.trim());
}

/**
 * `mkdir -p`, one name at a time. Node's recursive mkdir never returns for a folder below `/proc` (it retries the
 * ENOENT there forever): a home folder or a path there would hang the call that needed it.
 */
export function makeDirectories(dir: string, mode?: number): void {
  let at = '';
  for (const name of resolve(dir).split(sep).filter(Boolean)) {
    at += `${sep}${name}`;
    try {
      mkdirSync(at, mode === undefined ? undefined : { mode });
    } catch (e) {
      // An existing folder may answer EACCES or EROFS rather than EEXIST.
      if (!statSync(at, { throwIfNoEntry: false })?.isDirectory()) throw e;
    }
  }
  if (!statSync(dir).isDirectory()) {
    throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}'`), {
      code: 'ENOTDIR',
      path: dir,
    });
  }
}
