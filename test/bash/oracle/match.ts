import { basename, dirname } from 'node:path';
import {
  type Analysis,
  type CodeExecution,
  DYN,
  type SimpleCommand,
  type Word,
} from '../../../src/bash/types.js';
import { HOME, type LineRun, PATH_DIRS, PLANTED_COMMANDS } from './sandbox.js';
import { parseTrace } from './trace.js';

/**
 * Checks what bash ran against what the analysis found. Each executed simple command must be among the analysed
 * commands with the same argv, unless the analysis is opaque. "Same argv":
 * - a static word is one word, equal after tilde expansion (`~`, `~user` at the start, after the `=` of an
 *   assignment-like word, after `:`), with the sandbox's home: a home changed on the line is a disagreement;
 * - a word with a part known only at run time (⟨$⟩: parameter, command, arithmetic, process substitution, brace)
 *   matches zero or more words whose concatenation (joined by spaces) fits the static parts around ⟨$⟩; at least
 *   one word when the word has a static part or quotes (except `"$@"`-like forms);
 * - a glob word matches one or more words that the pattern matches, or the pattern itself (no file matched);
 * - an array literal `name=(...)` given to `declare`/`local`/... matches the bare `name` bash traces;
 * - prefix and bare assignments are traced as records of their own and match any analysed assignment of the
 *   same variable (`a[i]` matches `a`) whose value fits; `name=(...)` records match an analysed array assignment;
 * - `[[ ]]`, `(( ))`, `for`, `select`, `case` records are not simple commands (what they run is traced itself);
 * - a program run from outside the standard bin folders (PATH, `hash -p`, a planted `scripts/ls`) matches only an
 *   analysed command whose name is a path or only known at run time.
 * When the analysis declares that a file is sourced or run as a script, what the sandbox's planted files run is
 * expected (and nothing else); when it declares that a shell runs code read from its input, or sources a file
 * only known at run time, the line's disagreements are excused (counted as hidden code). A trace record
 * longer than bash's 4 KiB stdio buffer may be interleaved with a record written at the same time by another part
 * of a pipeline: the trace of a line with such a record is left out, and its programs are checked by the stub log
 * only (each stub writes its record in one append).
 */

/** bash writes xtrace through a stdio buffer of this size. */
const TRACE_BUFFER = 4096;

export interface Disagreement {
  source: 'trace' | 'stub';
  /** What bash ran (argv, or `name=value`). */
  ran: string[];
  /** Stub path for external programs. */
  path?: string;
}

export interface LineVerdict {
  opaque: boolean;
  /** The analysis declares that a shell runs code from its input (`... | bash`): what it runs is excused. */
  hiddenCode: boolean;
  records: number;
  stubCalls: number;
  disagreements: Disagreement[];
}

const STANDARD_DIRS = new Set(PATH_DIRS.concat(['/usr/lib/git-core', '/usr/libexec']));
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox']);
const USER_HOMES: Record<string, string> = { root: '/root', nobody: '/nonexistent' };

/** `line` is the command as the driver's `eval` got it (the analysis reads continuations away first). */
/**
 * Code the analysis declares it cannot see, so that the line is never allowed: a shell reading its input, or a
 * file sourced or run whose name is only known at run time (`source <(...)`).
 */
function hidesCode(e: CodeExecution): boolean {
  if (e.kind === 'stdin') return SHELLS.has(e.program);
  return (e.kind === 'source-file' || e.kind === 'script-file') && e.code === undefined;
}

export function checkLine(analysis: Analysis, run: LineRun, line = analysis.source): LineVerdict {
  const records = parseTrace(run.trace, line);
  const verdict: LineVerdict = {
    opaque: analysis.opaque,
    hiddenCode: analysis.commands.some((c) => c.executes.some(hidesCode)),
    records: records.length,
    stubCalls: run.stubs.length,
    disagreements: [],
  };
  if (analysis.opaque) return verdict;
  const patterns = analysis.commands.filter((c) => c.argv.length > 0).map(argvPattern);
  const seen = new Set<string>();
  const interleaved = records.some((r) => r.raw.length >= TRACE_BUFFER);
  const sources = analysis.commands.some((c) =>
    c.executes.some((e) => e.kind === 'source-file' || e.kind === 'script-file'),
  );
  const planted = (words: string[]) =>
    sources && PLANTED_COMMANDS.some((p) => p.length === words.length && p.every((w, i) => w === words[i]));
  for (const r of interleaved ? [] : records) {
    if (r.kind === 'compound') continue;
    if (seen.has(r.raw)) continue;
    seen.add(r.raw);
    if (r.kind === 'argv') {
      if (r.words.length === 0 || planted(r.words)) continue;
      if (!patterns.some((p) => p.matches(r.words))) {
        if (assignmentWord(r.words, analysis)) continue;
        verdict.disagreements.push({ source: 'trace', ran: r.words });
      }
    } else if (r.kind === 'assignment') {
      if (!assignmentMatches(analysis, r.name, r.value) && !patterns.some((p) => p.matches([r.raw]))) {
        verdict.disagreements.push({ source: 'trace', ran: [`${r.name}=${r.value}`] });
      }
    } else if (!arrayMatches(analysis, r.name)) {
      verdict.disagreements.push({ source: 'trace', ran: [r.raw] });
    }
  }
  const stubSeen = new Set<string>();
  for (const call of run.stubs) {
    const key = `${call.path}\0${call.args.join('\0')}`;
    if (stubSeen.has(key) || planted([basename(call.path), ...call.args])) continue;
    stubSeen.add(key);
    const standard = STANDARD_DIRS.has(dirname(call.path));
    const program = basename(call.path);
    const ok = analysis.commands.some((c) => {
      if (c.argv.length === 0) return false;
      const first = c.argv[0]!;
      if (first.static) {
        if (basename(first.value) !== program) return false;
        if (!standard && !first.value.includes('/')) return false;
      }
      return argvPattern(c).matches([first.static ? first.value : program, ...call.args]);
    });
    if (!ok) verdict.disagreements.push({ source: 'stub', ran: [program, ...call.args], path: call.path });
  }
  if (verdict.hiddenCode) verdict.disagreements = [];
  return verdict;
}

/** A one-word record that is an argument-less assignment word, e.g. a quoted command name `'a=1'`. */
function assignmentWord(words: string[], analysis: Analysis): boolean {
  if (words.length !== 1) return false;
  const eq = words[0]!.indexOf('=');
  return eq > 0 && assignmentMatches(analysis, words[0]!.slice(0, eq), words[0]!.slice(eq + 1));
}

function baseName(name: string): string {
  const b = name.indexOf('[');
  return b < 0 ? name : name.slice(0, b);
}

/** A traced assignment: a prefix or bare assignment, or one made by `export`/`readonly` (traced again alone). */
function assignmentMatches(analysis: Analysis, name: string, value: string): boolean {
  const base = baseName(name.endsWith('+') ? name.slice(0, -1) : name);
  for (const c of analysis.commands) {
    for (const a of c.assignments) {
      if (baseName(a.name) !== base) continue;
      if (a.array) return true;
      if (wordSpec(a.value, true).one(value)) return true;
    }
    if (!DECLARATIONS.has(c.argv[0]?.value ?? '')) continue;
    for (const w of c.argv.slice(1)) {
      if (baseName(w.value.slice(0, Math.max(0, w.value.indexOf('=')))) !== base) continue;
      if (wordSpec(w, true).one(`${name}=${value}`)) return true;
    }
  }
  return false;
}

function arrayMatches(analysis: Analysis, name: string): boolean {
  for (const c of analysis.commands) {
    if (c.assignments.some((a) => baseName(a.name) === name)) return true;
    if (c.argv.some((w) => w.value.startsWith(`${name}=(`) || w.value.startsWith(`${name}+=(`))) return true;
  }
  return false;
}

interface WordSpec {
  min: number;
  /** Infinity when the word may split into several. */
  max: number;
  one(word: string): boolean;
  many(words: string[]): boolean;
}

interface ArgvPattern {
  command: SimpleCommand;
  matches(words: string[]): boolean;
}

const cache = new WeakMap<SimpleCommand, ArgvPattern>();

function argvPattern(command: SimpleCommand): ArgvPattern {
  const hit = cache.get(command);
  if (hit) return hit;
  const declaration = DECLARATIONS.has(command.argv[0]?.value ?? '');
  const specs = command.argv.map((w, i) => wordSpec(w, false, declaration && i > 0));
  const pattern: ArgvPattern = {
    command,
    matches(words: string[]): boolean {
      const memo = new Map<number, boolean>();
      const go = (i: number, j: number): boolean => {
        if (i === specs.length) return j === words.length;
        const key = i * 4096 + j;
        const known = memo.get(key);
        if (known !== undefined) return known;
        const spec = specs[i]!;
        let ok = false;
        const most = Math.min(spec.max, words.length - j);
        for (let k = spec.min; k <= most && !ok; k++) {
          const part = words.slice(j, j + k);
          const fits = k === 1 ? spec.one(part[0]!) : spec.many(part);
          if (fits) ok = go(i + 1, j + k);
        }
        memo.set(key, ok);
        return ok;
      };
      return go(0, 0);
    },
  };
  cache.set(command, pattern);
  return pattern;
}

const SPLITTABLE = new Set(['parameter', 'command', 'arithmetic', 'brace', 'process']);
const DECLARATIONS = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

function wordSpec(word: Word, assignment: boolean, declared = false): WordSpec {
  const dynamic = word.dynamic;
  const arrayLiteral = declared && /^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.exec(word.value);
  if (arrayLiteral) {
    const name = word.value.slice(0, word.value.indexOf(word.value.includes('+=(') ? '+=(' : '=('));
    return {
      min: 1,
      max: 1,
      one: (w) => w === name || w === word.value,
      many: () => false,
    };
  }
  const tildes = tildeForms(word);
  if (word.static || dynamic.length === 0) {
    return { min: 1, max: 1, one: (w) => tildes.includes(w), many: () => false };
  }
  const splits = !assignment && dynamic.some((k) => SPLITTABLE.has(k));
  const globs = dynamic.includes('glob') || dynamic.includes('extglob');
  const res = tildes.map((t) => valueRegex(t, false));
  if (globs) for (const t of tildes) res.push(valueRegex(t, true));
  const one = (w: string) => res.some((re) => re.test(w));
  if (!splits) {
    return {
      min: 1,
      max: assignment ? 1 : Number.POSITIVE_INFINITY,
      one,
      many: (ws) => ws.every(one),
    };
  }
  const onlyDynamic = word.value.split(DYN).join('') === '';
  return {
    min: onlyDynamic && !keepsOneWord(word.text) ? 0 : 1,
    max: Number.POSITIVE_INFINITY,
    one,
    many: (ws) => one(ws.join(' ')),
  };
}

/**
 * True when the word always yields a word even if its expansions are empty: it has quotes outside any
 * substitution, and no `"$@"`/`${a[@]}` (which yield no word for an empty list).
 */
function keepsOneWord(text: string): boolean {
  if (/\$\{?[@*]|\[[@*]\]/.test(text)) return false;
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (depth === 0 && (c === '"' || c === "'")) {
      if (c === "'") {
        const close = text.indexOf("'", i + 1);
        if (close < 0) return true;
        i = close;
      }
      quoted = true;
      continue;
    }
    if (c === '`') {
      const close = text.indexOf('`', i + 1);
      if (close < 0) return quoted;
      i = close;
      continue;
    }
    if ((c === '$' || c === '<' || c === '>') && (text[i + 1] === '(' || text[i + 1] === '{')) {
      depth++;
      i++;
      continue;
    }
    if (depth > 0 && (c === '(' || c === '{')) depth++;
    else if (depth > 0 && (c === ')' || c === '}')) depth--;
    else if (depth > 0 && c === "'") {
      const close = text.indexOf("'", i + 1);
      if (close < 0) return quoted;
      i = close;
    }
  }
  return quoted;
}

/** The word's value and, when its text has an unquoted-looking `~`, the value with each tilde prefix expanded. */
function tildeForms(word: Word): string[] {
  const v = word.value;
  if (!word.text.includes('~') || !v.includes('~')) return [v];
  const expand = (s: string) =>
    s.replace(/(^|=|:)~([A-Za-z0-9._-]*)(?=\/|:|$)/g, (all, lead: string, user: string) => {
      if (user === '') return lead + HOME;
      const home = USER_HOMES[user];
      return home ? lead + home : all;
    });
  const startOnly = v.replace(/^~([A-Za-z0-9._-]*)(?=\/|$)/, (all, user: string) =>
    user === '' ? HOME : (USER_HOMES[user] ?? all),
  );
  return [v, startOnly, expand(v)];
}

const regexCache = new Map<string, RegExp>();

/** ⟨$⟩ matches anything; with globs, `*`, `?` and `[...]` match as in pathname expansion (loosely). */
function valueRegex(value: string, globs: boolean): RegExp {
  const key = `${globs ? 'g' : 's'}${value}`;
  const hit = regexCache.get(key);
  if (hit) return hit;
  let src = '';
  let i = 0;
  while (i < value.length) {
    if (value.startsWith(DYN, i)) {
      src += '[\\s\\S]*';
      i += DYN.length;
      continue;
    }
    const c = value[i]!;
    if (globs && (c === '*' || c === '?')) {
      src += c === '*' ? '[\\s\\S]*' : '[\\s\\S]';
      i++;
    } else if (globs && c === '[') {
      const close = value.indexOf(']', i + 2);
      if (close > 0) {
        src += '[\\s\\S]';
        i = close + 1;
      } else {
        src += '\\[';
        i++;
      }
    } else if (globs && /[@!+]/.test(c) && value[i + 1] === '(') {
      src += '[\\s\\S]*';
      const close = value.indexOf(')', i);
      i = close < 0 ? value.length : close + 1;
    } else {
      src += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
      i++;
    }
  }
  const re = new RegExp(`^${src}$`);
  if (regexCache.size > 50_000) regexCache.clear();
  regexCache.set(key, re);
  return re;
}

/** One analysed command for reports: assignments then argv values. */
export function renderCommand(c: SimpleCommand): string {
  const parts = c.assignments.map((a) => `${a.name}${a.append ? '+=' : '='}${a.value.value}`);
  for (const w of c.argv) parts.push(w.value);
  const via = c.nested ? ` [${c.nested.kind} via ${c.nested.via}]` : '';
  return JSON.stringify(parts) + via;
}
