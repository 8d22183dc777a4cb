import type { PatternRule } from '../rules/index.js';

const WORD = /^[A-Za-z0-9_.\-/]+/;

/** Splits `a|b(c|d)|e` at its top-level bars; undefined when brackets do not balance. */
function alternatives(body: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') {
      i++;
    } else if (c === '(' || c === '[') {
      depth++;
    } else if (c === ')' || c === ']') {
      depth--;
      if (depth < 0) return undefined;
    } else if (c === '|' && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  out.push(body.slice(start));
  return out;
}

/**
 * The literal words a command line must start with for an anchored regex to match it (`^git push` → git,
 * `^(nc|ncat)( |$)` → nc, ncat), or undefined when the regex can match lines starting otherwise.
 */
export function leadingWords(source: string): string[] | undefined {
  if (!source.startsWith('^')) return undefined;
  const rest = source.slice(1);
  if (rest.startsWith('(') && !rest.startsWith('(?')) {
    let depth = 0;
    let end = -1;
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (c === '\\') i++;
      else if (c === '(') depth++;
      else if (c === ')' && --depth === 0) {
        end = i;
        break;
      }
    }
    if (end < 0 || /^[*?{]/.test(rest.slice(end + 1))) return undefined;
    const alts = alternatives(rest.slice(1, end));
    if (!alts) return undefined;
    const words: string[] = [];
    for (const alt of alts) {
      const word = WORD.exec(alt)?.[0];
      if (!word || /^[*?{+]/.test(alt.slice(word.length))) return undefined;
      words.push(word);
    }
    return words;
  }
  const word = WORD.exec(rest)?.[0];
  if (!word || /^[*?{+]/.test(rest.slice(word.length))) return undefined;
  return [word];
}

/**
 * Command-pattern rules grouped by the literal word their anchored regex starts with. A line can only match a
 * rule whose literal is a prefix of the line's first word (the literal holds no blank), so a lookup tries the
 * prefixes of that word and skips every other rule.
 */
export class PatternIndex {
  private readonly byLead = new Map<string, PatternRule[]>();
  private readonly anyLead: PatternRule[] = [];
  private readonly longest: number;

  constructor(rules: readonly PatternRule[]) {
    let longest = 0;
    for (const rule of rules) {
      const words = leadingWords(rule.text);
      if (!words) {
        this.anyLead.push(rule);
        continue;
      }
      for (const w of new Set(words)) {
        longest = Math.max(longest, w.length);
        const list = this.byLead.get(w);
        if (list) list.push(rule);
        else this.byLead.set(w, [rule]);
      }
    }
    this.longest = longest;
  }

  private readonly byFirstWord = new Map<string, PatternRule[]>();

  /** Rules that may match one of the lines, in their original order. */
  candidates(lines: readonly string[], order: ReadonlyMap<PatternRule, number>): readonly PatternRule[] {
    if (this.byLead.size === 0) return this.anyLead;
    let result: readonly PatternRule[] | undefined;
    for (const line of lines) {
      const space = line.indexOf(' ');
      const rules = this.forFirstWord(space < 0 ? line : line.slice(0, space), order);
      if (result === undefined || result === rules) result = rules;
      else result = [...new Set([...result, ...rules])].sort((a, b) => order.get(a)! - order.get(b)!);
    }
    return result ?? [];
  }

  /** The rules for lines starting with this word, computed once per word. */
  private forFirstWord(first: string, order: ReadonlyMap<PatternRule, number>): PatternRule[] {
    let rules = this.byFirstWord.get(first);
    if (!rules) {
      const found = new Set<PatternRule>(this.anyLead);
      const max = Math.min(this.longest, first.length);
      for (let n = 1; n <= max; n++) {
        const list = this.byLead.get(first.slice(0, n));
        if (list) for (const r of list) found.add(r);
      }
      rules = [...found].sort((a, b) => order.get(a)! - order.get(b)!);
      if (this.byFirstWord.size > 4096) this.byFirstWord.clear();
      this.byFirstWord.set(first, rules);
    }
    return rules;
  }
}
