import type { Behavior, Rule } from '../rules/index.js';
import {
  absoluteGlob,
  escapeRegex,
  matchBashPattern,
  matchDomain,
  matchMcpTool,
  matchPathRule,
  type PathContext,
} from '../rules/index.js';
import { type Language, regexLanguage, wildcardLanguage } from './automata.js';
import type { WitnessKind } from './types.js';

/**
 * A rule as a set of subjects: the domain says what it is matched against (Bash command lines, paths read or
 * written, hosts, MCP tool names, JSON inputs of a tool), the language which subjects in it match.
 */
export interface AnalysedRule {
  rule: Rule;
  /** Under review (not a shipped rule). */
  subject: boolean;
  domain: string;
  kind: WitnessKind;
  /** Absent when the rule cannot be turned into an automaton (see `error`), or has no subjects of its own. */
  language?: Language;
  error?: string;
  /** Every subject of the domain starts with this text. */
  prefix: string;
  /** The prefix is a whole first word: subjects with another first word never match. */
  wordComplete: boolean;
  /** A deny or ask rule the classifier matches more broadly than its regex (wrappers, option order). */
  robust: boolean;
}

const ALL = '';

export function analyseRule(rule: Rule, subject: boolean, ctx: PathContext): AnalysedRule {
  const base = { rule, subject, robust: false, prefix: '', wordComplete: false };
  if (rule.type === 'pattern') {
    const domain =
      rule.field === 'command'
        ? 'Bash'
        : rule.field === 'path'
          ? `pattern-path:${rule.tool}`
          : `input:${rule.tool}`;
    const kind: WitnessKind = rule.field === 'command' ? 'command' : rule.field === 'path' ? 'path' : 'input';
    const prefix = regexPrefix(rule.text);
    return withLanguage({ ...base, domain, kind, prefix, wordComplete: prefix.includes(' ') }, rule.text);
  }
  const parsed = rule.parsed;
  switch (parsed.kind) {
    case 'bash': {
      const p = parsed.pattern;
      const body = p.legacyColonStar
        ? p.source.slice(0, -2).trimEnd()
        : p.wordBoundary
          ? p.source.slice(0, -2)
          : p.source;
      const star = body.indexOf('*');
      const prefix = star === -1 ? body : body.slice(0, star);
      const wordComplete = prefix.includes(' ') || (star === -1 && p.wordBoundary) || p.exact;
      const robust = rule.behavior !== 'allow';
      const language = wildcardLanguage(body, p.wordBoundary, p.regex, (line) => matchBashPattern(p, line));
      return { ...base, domain: 'Bash', kind: 'command', prefix, wordComplete, robust, language };
    }
    case 'tool': {
      if (parsed.tool === 'Bash') return withLanguage({ ...base, domain: 'Bash', kind: 'command' }, ALL);
      if (parsed.tool === 'WebFetch') return withLanguage({ ...base, domain: 'host', kind: 'host' }, ALL);
      return withLanguage({ ...base, domain: `tool:${parsed.tool}`, kind: 'tool' }, ALL);
    }
    case 'path': {
      const glob = absoluteGlob(parsed.pattern, ctx);
      const source = globRegex(glob, parsed.pattern.directoryOnly);
      const analysed = withLanguage(
        { ...base, domain: `path:${parsed.tool}`, kind: 'path', prefix: globPrefix(glob) },
        source,
      );
      if (analysed.language) {
        analysed.language = {
          ...analysed.language,
          test: (p) => matchPathRule(rule as Parameters<typeof matchPathRule>[0], p, ctx),
        };
      }
      return analysed;
    }
    case 'domain': {
      const { domain, subdomains } = parsed.pattern;
      const source = subdomains ? `^[\\s\\S]*\\.${escapeRegex(domain)}$` : `^${escapeRegex(domain)}$`;
      const analysed = withLanguage({ ...base, domain: 'host', kind: 'host' }, source);
      if (analysed.language) {
        analysed.language = { ...analysed.language, test: (h) => matchDomain(parsed.pattern, h) };
      }
      return analysed;
    }
    case 'mcp': {
      const prefix = `mcp__${parsed.server}__`;
      const tool =
        parsed.toolPattern === undefined || parsed.toolPattern === '*'
          ? '[\\s\\S]+'
          : parsed.toolPattern.split('*').map(escapeRegex).join('[\\s\\S]*');
      const analysed = withLanguage(
        { ...base, domain: 'mcp', kind: 'tool', prefix },
        `^${escapeRegex(prefix)}${tool}$`,
      );
      if (analysed.language) {
        analysed.language = { ...analysed.language, test: (t) => matchMcpTool(parsed, t) };
      }
      return analysed;
    }
    default:
      return { ...base, domain: `tool:${parsed.tool}`, kind: 'tool' };
  }
}

function withLanguage(analysed: Omit<AnalysedRule, 'language' | 'error'>, source: string): AnalysedRule {
  const result = regexLanguage(source);
  return 'error' in result
    ? { ...analysed, error: result.error }
    : { ...analysed, language: result.language };
}

/** The literal text every match of a `^`-anchored regex starts with. */
export function regexPrefix(source: string): string {
  if (!source.startsWith('^')) return '';
  let prefix = '';
  for (let i = 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) break;
      prefix += next;
      i++;
      continue;
    }
    if ('.[]()|^$'.includes(c)) break;
    if ('*?{'.includes(c)) return prefix.slice(0, -1);
    if (c === '+') break;
    prefix += c;
  }
  return prefix;
}

/**
 * The language of an absolute gitignore-style glob as matchPathRule applies it: the path or one of its
 * folders matches (only a folder, for `dir/` patterns).
 */
export function globRegex(glob: string, directoryOnly: boolean): string {
  let out = '';
  let i = 0;
  while (i < glob.length) {
    if (glob.startsWith('/**/', i)) {
      out += '\\/(?:[\\s\\S]*\\/)?';
      i += 4;
    } else if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      out += '(?:\\/[\\s\\S]*)?';
      i += 3;
    } else if (glob.startsWith('**', i)) {
      out += '[\\s\\S]*';
      i += 2;
    } else {
      const c = glob[i]!;
      if (c === '*') out += '[^/]*';
      else if (c === '?') out += '[^/]';
      else if (c === '\\' && i + 1 < glob.length) {
        out += escapeRegex(glob[i + 1]!);
        i++;
      } else if (c === '[') {
        const close = glob.indexOf(']', i + 2);
        if (close === -1) out += '\\[';
        else {
          const inner = glob.slice(i + 1, close).replace(/^!/, '^');
          out += `[${inner.replace(/\\?([\]\\])/g, '\\$1')}]`;
          i = close;
        }
      } else out += escapeRegex(c);
      i++;
    }
  }
  return directoryOnly ? `^${out}\\/[\\s\\S]+$` : `^${out}(?:\\/[\\s\\S]*)?$`;
}

function globPrefix(glob: string): string {
  let prefix = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      prefix += glob[++i] ?? '';
      continue;
    }
    if ('*?['.includes(c)) break;
    prefix += c;
  }
  return prefix;
}

export const RANK: Record<Behavior, number> = { allow: 0, ask: 1, deny: 2 };

/**
 * The domains whose rules decide before a rule of this domain: a write is checked against Read deny and
 * ask rules as well as Edit rules.
 */
export function coveringDomains(domain: string): string[] {
  return domain === 'path:Edit' ? ['path:Edit', 'path:Read'] : [domain];
}

export function compatiblePrefixes(a: AnalysedRule, b: AnalysedRule): boolean {
  return a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix);
}

export function firstWord(prefix: string): string {
  const space = prefix.indexOf(' ');
  return space === -1 ? prefix : prefix.slice(0, space);
}
