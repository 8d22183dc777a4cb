import { createHash } from 'node:crypto';
import type { ResolvedRequest } from './types.js';

/** JSON with object keys sorted at every level and `undefined` members left out: equal values, equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortKeys(v)));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}

/** The fields that decide the answer; `thinking`, `output_config` and `stop_sequences` drop out when unset. */
const HASHED = [
  'model',
  'system',
  'messages',
  'tools',
  'tool_choice',
  'max_tokens',
  'thinking',
  'output_config',
  'stop_sequences',
] as const;

export function requestHash(request: ResolvedRequest): string {
  return sha256(canonicalJson(hashedFields(request)));
}

export function hashedFields(request: ResolvedRequest): Partial<ResolvedRequest> {
  const fields: Record<string, unknown> = {};
  for (const key of HASHED) fields[key] = request[key];
  return fields as Partial<ResolvedRequest>;
}
