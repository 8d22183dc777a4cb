import type { Decision } from '../service/index.js';

/**
 * Characters that would let a value end its field or its line, or read as something else: whitespace (the
 * Unicode line and paragraph separators too), `=`, quotes, backslashes and control characters.
 */
const UNSAFE = /[\s="'\\\p{Cc}\p{Cf}]|^$/u;

/** A value as one field of a log line: as it is when plain, else a JSON string with every unsafe character escaped. */
export function logField(value: string | number): string {
  const text = String(value);
  if (!UNSAFE.test(text)) return text;
  return JSON.stringify(text).replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(
      '',
    ),
  );
}

/** One decision as a log line: JSON, or `key=value` text whose every value is escaped by logField. */
export function logLine(d: Decision, json: boolean): string {
  if (json) return JSON.stringify(d);
  const fields = [
    logField(d.time),
    `session=${logField(d.session ?? '-')}`,
    logField(d.event),
    `tool=${logField(d.tool)}`,
    `decision=${logField(d.decision)}`,
    ...(d.rule ? [`rule=${logField(d.rule)}`] : []),
    ...(d.reused ? ['reused'] : []),
    `ms=${logField(d.ms)}`,
  ];
  return fields.join(' ');
}
