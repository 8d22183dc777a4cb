import type { BashPattern } from '../types.js';
import { type BashRuleIssue, bashRuleIssues } from './bash-checks.js';
import { cachedRegex, escapeRegex } from './wildcard.js';

export interface ParsedBashPattern {
  pattern: BashPattern;
  warnings: BashRuleIssue[];
}

/**
 * Compiles a `Bash(...)` specifier. Runs of whitespace collapse to one space because the command lines it is
 * matched against are argv joined by single spaces.
 */
export function parseBashPattern(specifier: string): ParsedBashPattern {
  const source = specifier.trim().replace(/\s+/g, ' ');
  const warnings = bashRuleIssues(source);
  let body = source;
  let wordBoundary = false;
  let legacyColonStar = false;
  if (body.endsWith(':*')) {
    body = body.slice(0, -2).trimEnd();
    wordBoundary = true;
    legacyColonStar = true;
  } else if (body.endsWith(' *')) {
    body = body.slice(0, -2);
    wordBoundary = true;
  }
  if (body.includes(':*')) {
    warnings.push({
      code: 'legacy-colon-star',
      message: `":*" is only recognised at the end of a pattern; here ":" is literal and "*" is a wildcard (write "${source.replace(/:\*/g, ' *')}"?)`,
    });
  }
  const tail = wordBoundary ? '(?: [\\s\\S]*)?' : '';
  const regex = `^${body.split('*').map(escapeRegex).join('[\\s\\S]*')}${tail}$`;
  const pattern: BashPattern = {
    source,
    exact: !source.includes('*'),
    wordBoundary,
    legacyColonStar,
    prefixWords: prefixWords(body),
    regex,
  };
  return { pattern, warnings };
}

function prefixWords(body: string): string[] {
  const star = body.indexOf('*');
  const literal = star === -1 ? body : body.slice(0, star);
  const words = literal.split(' ').filter(Boolean);
  if (star !== -1 && !literal.endsWith(' ')) words.pop();
  return words;
}

const compiled = new WeakMap<BashPattern, RegExp>();

/** Whether one simple command (argv joined by single spaces) matches the pattern. */
export function matchBashPattern(pattern: BashPattern, commandLine: string): boolean {
  let regex = compiled.get(pattern);
  if (!regex) {
    regex = cachedRegex(pattern.regex);
    compiled.set(pattern, regex);
  }
  return regex.test(commandLine);
}
