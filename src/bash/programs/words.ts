import { shellWord } from '../render.js';
import { type Assignment, DYN, type DynamicKind, type Span, type Word } from '../types.js';

const EXPANDING: readonly DynamicKind[] = ['glob', 'brace', 'extglob'];

function expands(word: Word): boolean {
  return word.dynamic.some((kind) => EXPANDING.includes(kind));
}

/** The part of the value known before the command runs, up to the first dynamic part. */
export function leadingText(word: Word): string {
  if (word.static) return word.value;
  let end = word.value.indexOf(DYN);
  if (end < 0) end = word.value.length;
  if (expands(word)) {
    const pattern = /[*?[{]|[@!+](?=\()/.exec(word.value.slice(0, end));
    if (pattern) end = pattern.index;
  }
  return word.value.slice(0, end);
}

export function is(word: Word | undefined, ...values: string[]): boolean {
  return word?.static === true && values.includes(word.value);
}

/** True when the word certainly expands to exactly one argument (no field splitting, globbing or "$@"). */
export function singleField(word: Word): boolean {
  if (word.static) return true;
  if (expands(word)) return false;
  return expansionsAllQuoted(word.text);
}

/** True when an unquoted expansion in the word is split into fields, which may then be anything. */
export function splitsFreely(word: Word): boolean {
  return !word.static && !expansionsAllQuoted(word.text);
}

function expansionsAllQuoted(text: string): boolean {
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (!quoted) {
      if (c === "'") {
        const close = text.indexOf("'", i + 1);
        if (close < 0) return false;
        i = close + 1;
        continue;
      }
      if (c === '$' && text[i + 1] === "'") {
        const close = closingAnsiQuote(text, i + 2);
        if (close < 0) return false;
        i = close + 1;
        continue;
      }
      if (c === '$' && text[i + 1] === '"') {
        i += 1;
        continue;
      }
      if (c === '"') quoted = true;
      else if (c === '$' || c === '`') return false;
      i++;
      continue;
    }
    if (c === '"') {
      quoted = false;
      i++;
    } else if (c === '`') {
      const close = closingBacktick(text, i + 1);
      if (close < 0) return false;
      i = close + 1;
    } else if (c === '$' && text[i + 1] === '@') {
      return false;
    } else if (c === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
      const close = closingBracket(text, i + 1);
      if (close < 0) return false;
      if (text[i + 1] === '{' && text.slice(i + 2, close).includes('@')) return false;
      i = close + 1;
    } else {
      i++;
    }
  }
  return !quoted;
}

function closingAnsiQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === "'") return i;
  }
  return -1;
}

function closingBacktick(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '`') return i;
  }
  return -1;
}

/** Index of the bracket closing the one at `open`, skipping quoted text; -1 when unbalanced. */
function closingBracket(text: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      i++;
    } else if (c === "'") {
      i = text.indexOf("'", i + 1);
      if (i < 0) return -1;
    } else if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      if (i >= text.length) return -1;
    } else if (c in pairs) {
      stack.push(pairs[c]!);
    } else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** The word from value index `from` on: an attached option value (`-uroot`, `--signal=KILL`, `of=x`). */
export function sliceWord(word: Word, from: number): Word {
  const value = word.value.slice(from);
  const prefix = word.value.slice(0, from);
  const isStatic = word.static || (!value.includes(DYN) && !expands(word));
  const inText = !prefix.includes(DYN) && word.text.startsWith(prefix);
  return {
    text: inText ? word.text.slice(from) : value,
    value,
    static: isStatic,
    dynamic: isStatic ? [] : [...word.dynamic],
    span: inText ? { start: word.span.start + from, end: word.span.end } : { ...word.span },
  };
}

/** The words as one string joined by `separator`, as `eval` and `sh -c "$*"`-style carriers see them. */
export function joinWords(words: readonly Word[], separator = ' '): Word {
  const first = words[0];
  const last = words[words.length - 1];
  const dynamic = [...new Set(words.flatMap((word) => word.dynamic))];
  return {
    text: words.map((word) => word.text).join(separator),
    value: words.map((word) => word.value).join(separator),
    static: words.every((word) => word.static),
    dynamic,
    span: { start: first?.span.start ?? 0, end: last?.span.end ?? 0 },
  };
}

/** A word the carrier makes up (xargs' default `echo`), located at `span`. */
export function syntheticWord(value: string, span: Span): Word {
  return { text: value, value, static: true, dynamic: [], span: { ...span } };
}

/** A value only known at run time (`git --config-env`), located at `span`. */
export function runtimeWord(text: string, span: Span): Word {
  return { text, value: DYN, static: false, dynamic: ['parameter'], span: { ...span } };
}

/** Words re-quoted so that a shell re-parsing `value` sees the same arguments. */
export function quotedWords(words: readonly Word[]): Word {
  const joined = joinWords(words);
  return { ...joined, value: words.map((word) => shellWord(word.value)).join(' ') };
}

export function concatWords(prefix: string, word: Word): Word {
  return { ...word, value: prefix + word.value };
}

export function codeText(word: Word): string | undefined {
  return word.static ? word.value : undefined;
}

/**
 * `NAME=value` as env and sudo read it (any word holding `=`): the name, null when the word has no `=`,
 * 'dynamic' when that is only known at run time.
 */
export function assignmentName(word: Word): string | null | 'dynamic' {
  const lead = leadingText(word);
  const eq = lead.indexOf('=');
  if (eq >= 0) return lead.slice(0, eq);
  return word.static ? null : 'dynamic';
}

/** The Assignment a `NAME=value` word makes. */
export function wordAssignment(word: Word, name: string): Assignment {
  return {
    name,
    append: false,
    value: sliceWord(word, name.length + 1),
    array: false,
    span: { ...word.span },
  };
}

/**
 * The folders leading to a folder a program makes with its parents (`mkdir -p a/b`, `git init a/b`): `a`. Those
 * already there are left alone by the program; the ones missing are made.
 */
export function leadingFolders(folder: Word): Word[] {
  if (!folder.static) return [];
  const names = folder.value.split('/');
  const out: Word[] = [];
  for (let i = 1; i < names.length; i++) {
    const name = names[i - 1]!;
    if (name === '' || name === '.' || name === '..' || (i === 1 && name === '~')) continue;
    out.push(syntheticWord(names.slice(0, i).join('/'), folder.span));
  }
  return out;
}
