import type { SyntaxNode as Node } from './syntax.js';
import { DYN, type DynamicKind, type ProblemCode, type Span, type Word } from './types.js';
import { harmlessVariable } from './variables.js';

/** Called for every node inside a word that holds commands ($(...), <(...), `...`). */
export interface WordHooks {
  nested(node: Node, kind: 'command' | 'process'): void;
  /** Expressions that may hold substitutions somewhere below ($((...)), ${x[...]}, subscripts). */
  scan(node: Node): void;
  problem(code: ProblemCode, message: string, span: Span): void;
}

class Builder {
  value = '';
  kinds = new Set<DynamicKind>();
  dyn(kind: DynamicKind): void {
    this.value += DYN;
    this.kinds.add(kind);
  }
}

export function spanOf(node: Node): Span {
  return { start: node.startIndex, end: node.endIndex };
}

export function makeWord(text: string, value: string, kinds: Iterable<DynamicKind>, span: Span): Word {
  const dynamic = [...new Set(kinds)];
  return { text, value, static: dynamic.length === 0, dynamic, span };
}

/** Evaluates a word-like node to its quote-removed value, marking what is only known at run time. */
export function evalWord(node: Node, hooks: WordHooks): Word {
  const b = new Builder();
  part(node, b, hooks, false);
  if (node.type === 'concatenation' && hasBraceExpansion(unquotedSkeleton(node))) {
    b.kinds.add('brace');
    b.value = DYN;
  }
  return makeWord(node.text, b.value, b.kinds, spanOf(node));
}

/** The word's unquoted text, with every quoted or expanded part replaced by a placeholder. */
function unquotedSkeleton(node: Node): string {
  if (node.type === 'word') return node.text;
  if (node.type === 'concatenation') return node.children.map((c) => (c ? unquotedSkeleton(c) : '')).join('');
  return node.isNamed ? '_' : node.text;
}

function part(node: Node, b: Builder, hooks: WordHooks, quoted: boolean): void {
  switch (node.type) {
    case 'word':
      if (quoted) b.value += node.text;
      else unquotedText(node.text, b);
      return;
    case 'number':
      if (node.namedChildCount === 0) b.value += node.text;
      else {
        b.dyn('parameter');
        hooks.scan(node);
      }
      return;
    case 'raw_string':
      b.value += node.text.slice(1, -1);
      return;
    case 'ansi_c_string': {
      // bash ends the string at a NUL it decodes.
      const decoded = decodeAnsiC(node.text.slice(2, -1));
      const nul = decoded.indexOf('\0');
      b.value += nul < 0 ? decoded : decoded.slice(0, nul);
      return;
    }
    case 'string':
      doubleQuoted(node, b, hooks);
      return;
    case 'translated_string': {
      const inner = node.namedChild(0);
      if (inner) doubleQuoted(inner, b, hooks);
      return;
    }
    case 'concatenation': {
      const children = node.children;
      for (let i = 0; i < children.length; i++) {
        const child = children[i];
        if (!child) continue;
        if (child.type === '$') dollar(child, children[i + 1] ?? null, b);
        else part(child, b, hooks, quoted);
      }
      return;
    }
    case 'simple_expansion': {
      const lead = /^\s+/.exec(node.text)?.[0];
      if (lead) b.value += lead;
      if (/^\s*\$\s/.test(node.text)) {
        hooks.problem('misparse-word', 'a lone $ followed by a blank was read as an expansion', spanOf(node));
      }
      b.dyn('parameter');
      return;
    }
    case 'expansion':
      expansion(node, b, hooks);
      return;
    case 'command_substitution':
      b.dyn('command');
      hooks.nested(node, 'command');
      return;
    case 'process_substitution':
      b.dyn('process');
      hooks.nested(node, 'process');
      return;
    case 'arithmetic_expansion':
      b.dyn('arithmetic');
      hooks.scan(node);
      return;
    case 'brace_expression':
      b.dyn('brace');
      return;
    case 'extglob_pattern':
      b.value += node.text;
      b.kinds.add('extglob');
      return;
    case 'string_content':
    case 'heredoc_content':
      b.value += node.text;
      return;
    case 'regex':
    case 'test_operator':
    case 'variable_name':
    case 'special_variable_name':
      b.value += node.text;
      return;
    case 'array':
      b.value += node.text;
      b.kinds.add('parameter');
      hooks.scan(node);
      return;
    default:
      if (!node.isNamed) {
        if (node.type === '$') dollar(node, null, b);
        else b.value += node.text;
        return;
      }
      hooks.problem('unknown-node', `unexpected ${node.type} in a word`, spanOf(node));
      b.dyn('parameter');
  }
}

/**
 * A `$` token the grammar did not read as an expansion: `$$` is the shell's PID, and `$` glued to a name
 * (`$D/$O`, split by tree-sitter) expands it; a `$` before nothing expandable (`^$`, `total$`) is literal.
 */
function dollar(node: Node, next: Node | null, b: Builder): void {
  const expands =
    node.text === '$$' || (next !== null && next.startIndex === node.endIndex && /^[\w{(]/.test(next.text));
  if (expands) b.dyn('parameter');
  else b.value += node.text;
}

const GLOB = new Set(['*', '?', '[']);

/** Unquoted text: backslash escapes, line continuations, glob and brace characters. */
function unquotedText(text: string, b: Builder): void {
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\') {
      const next = text[i + 1];
      if (next === undefined) {
        b.value += '\\';
      } else if (next === '\n') {
        i++;
      } else {
        b.value += next;
        i++;
      }
      continue;
    }
    if (GLOB.has(c)) b.kinds.add('glob');
    b.value += c;
  }
  if (hasBraceExpansion(text)) {
    b.kinds.add('brace');
    b.value = DYN;
  }
}

/** `{a,b}` and `{1..3}` outside quotes expand to several words; `{}` and `{x}` do not. */
function hasBraceExpansion(text: string): boolean {
  let depth = 0;
  let escaped = false;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (c === '\\') escaped = true;
    else if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0 && open >= 0) {
        const inner = text.slice(open + 1, i);
        if (/,/.test(inner) || /^[^.]*\.\.[^.]/.test(inner)) return true;
      }
    }
  }
  return false;
}

function doubleQuoted(node: Node, b: Builder, hooks: WordHooks): void {
  const text = node.text;
  const base = node.startIndex;
  let pos = base + 1;
  const end = node.endIndex - 1;
  for (const child of node.children) {
    if (!child?.isNamed) continue;
    if (child.startIndex > pos) b.value += unescapeDouble(text.slice(pos - base, child.startIndex - base));
    if (child.type === 'string_content') b.value += unescapeDouble(child.text);
    else part(child, b, hooks, true);
    pos = child.endIndex;
  }
  if (end > pos) b.value += unescapeDouble(text.slice(pos - base, end - base));
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
export function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

function expansion(node: Node, b: Builder, hooks: WordHooks): void {
  b.dyn('parameter');
  if (/^\$\{![A-Za-z_]\w*(\}|[:#%/^,@-])/.test(node.text) && !/^\$\{!\w+(\[[@*]\]|[@*])\}$/.test(node.text)) {
    hooks.problem('unsupported', 'indirect expansion names a variable only known at run time', spanOf(node));
  }
  const assigned = /^\$\{([A-Za-z_]\w*):?=/.exec(node.text)?.[1];
  if (assigned !== undefined && !harmlessVariable(assigned)) {
    hooks.problem(
      'unsupported',
      `\${${assigned}=...} assigns ${assigned}, which changes what commands do`,
      spanOf(node),
    );
  }
  if (/@P\}$/.test(node.text)) {
    hooks.problem(
      'unsupported',
      'the @P operator expands prompt escapes, which can run commands',
      spanOf(node),
    );
  }
  hooks.scan(node);
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of a $'...' string as bash does. */
export function decodeAnsiC(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '\\' || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[++i]!;
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const take = (re: RegExp, max: number): string => {
      let digits = '';
      while (digits.length < max && i + 1 < s.length && re.test(s[i + 1]!)) digits += s[++i];
      return digits;
    };
    if (/[0-7]/.test(n)) {
      const digits = n + take(/[0-7]/, 2);
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
    } else if (n === 'x') {
      const digits = take(/[0-9a-fA-F]/, 2);
      out += digits ? String.fromCharCode(Number.parseInt(digits, 16)) : '\\x';
    } else if (n === 'u' || n === 'U') {
      const digits = take(/[0-9a-fA-F]/, n === 'u' ? 4 : 8);
      out += digits ? String.fromCodePoint(Number.parseInt(digits, 16)) : `\\${n}`;
    } else if (n === 'c' && i + 1 < s.length) {
      out += String.fromCharCode(s[++i]!.toUpperCase().charCodeAt(0) & 0x1f);
    } else {
      out += `\\${n}`;
    }
  }
  return out;
}
