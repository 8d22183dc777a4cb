import path from 'node:path';
import type { RuleRef } from '../policy/index.js';

/** A path relative to `cwd` when inside it, else absolute; always with forward slashes. `REV:path` stays. */
export function displayPath(file: string, cwd: string): string {
  if (!path.isAbsolute(file)) return file;
  const relative = path.relative(cwd, file);
  const shown = relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  return shown.split(path.sep).join('/');
}

export function displayLocation(
  where: { file?: string; line?: number; column?: number },
  cwd: string,
): string {
  if (where.file === undefined) return '';
  const at = where.line === undefined ? '' : `:${where.line}:${where.column ?? 1}`;
  return `${displayPath(where.file, cwd)}${at}`;
}

/** `label (text)` or the text, then where it is written and its source. */
export function describeRule(rule: RuleRef, cwd: string): string {
  const name = rule.label ? `${rule.label} (${rule.text})` : rule.text;
  const where = rule.file ? `${displayLocation(rule, cwd)} (${rule.source})` : rule.source;
  return `${name}  ${where}`;
}
