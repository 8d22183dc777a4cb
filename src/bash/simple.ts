import {
  type Assignment,
  type ContextFlag,
  DYN,
  type DynamicKind,
  type SimpleCommand,
  type Word,
} from './types.js';
import { nameInfo } from './walk.js';
import { makeWord } from './words.js';

/**
 * Most commands an agent runs are plain words, quotes and pipes: `git status`, `npm test`,
 * `grep -rn 'foo bar' src | head`, `find . -name '*.ts' -exec wc -l {} \;`, `echo "$HOME"`. Written only with
 * these, words are split at blanks (quotes and backslashes only group), the only expansions are `$NAME` and
 * the glob characters `*` and `?` (both only known at run time), and `|`, `|&`, `&&`, `||`, `;` and `&`
 * separate commands. Such input is analysed without tree-sitter; anything else (and anything here that could
 * be a keyword) goes to the full parser. The test suite checks that both give the same analysis on every eligible corpus line
 * and on generated input.
 */
const PLAIN = /^[|&;]$/;
const WORD_CHAR = /[A-Za-z0-9_\-./=:,@%+~]/;
/** Characters that may start a word besides WORD_CHAR. */
const WORD_START = new Set(["'", '"', '*', '?', '{', '\\', '$']);
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  // Builtins whose operands are arithmetic or declarations, which the full parse audits.
  'let',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
]);
/** Program names tree-sitter reads as plain words (it rejects some valid ones, such as `1@`). */
const PLAIN_NAME = /^[A-Za-z_./][A-Za-z0-9_\-./+]*$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** tree-sitter reads `_=x` as a command name. */
const PLAIN_ASSIGNMENT = /^(?:[A-Za-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+)=/;
/** tree-sitter reads `X=+` as a command name, not an assignment: such lines take the full parse. */
const PLAIN_VALUE = /^[A-Za-z0-9_\-./:,@%]+$/;

interface Token {
  /** Source text. */
  text: string;
  /** Quote-removed value (words only); each `$NAME` is DYN. */
  value: string;
  /** What is only known at run time: `$NAME` (parameter), unquoted `*` and `?` (glob). */
  kinds: DynamicKind[];
  start: number;
  end: number;
  word: boolean;
  quoted: boolean;
}

/** `$NAME`: a plain parameter expansion, with nothing that could make it an array, a default or a substitution. */
const PARAMETER = /\$[A-Za-z_][A-Za-z0-9_]*(?![A-Za-z0-9_[{(])/y;
/** Inside double quotes: literal text and `$NAME`; `$` otherwise, backtick, backslash and `!` go to the parser. */
const DOUBLE_QUOTED_TEXT = /[^"$`\\!\n]+/y;

/** Adds the inside of a double-quoted string starting at `from` (after the quote); the index after it, or -1. */
function doubleQuoted(source: string, from: number, out: { value: string; kinds: DynamicKind[] }): number {
  let i = from;
  for (;;) {
    if (i >= source.length) return -1;
    const c = source[i]!;
    if (c === '"') return i + 1;
    if (c === '$') {
      PARAMETER.lastIndex = i;
      const m = PARAMETER.exec(source);
      if (!m) return -1;
      out.value += DYN;
      if (!out.kinds.includes('parameter')) out.kinds.push('parameter');
      i += m[0].length;
      continue;
    }
    DOUBLE_QUOTED_TEXT.lastIndex = i;
    const m = DOUBLE_QUOTED_TEXT.exec(source);
    if (!m) return -1;
    out.value += m[0];
    i += m[0].length;
  }
}

function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    const start = i;
    if (WORD_CHAR.test(c) || WORD_START.has(c)) {
      const w = { value: '', kinds: [] as DynamicKind[] };
      let quoted = false;
      while (i < source.length) {
        const d = source[i]!;
        if (WORD_CHAR.test(d)) {
          w.value += d;
          i++;
        } else if (d === '*' || d === '?') {
          w.value += d;
          if (!w.kinds.includes('glob')) w.kinds.push('glob');
          i++;
        } else if (d === '{' && source[i + 1] === '}') {
          // `{}` is literal: brace expansion needs a comma or `..` inside.
          w.value += '{}';
          i += 2;
        } else if (d === '\\') {
          const next = source[i + 1];
          // tree-sitter drops an escaped blank where bash keeps it in the word: such lines take the full parse.
          if (next === undefined || next === '\n' || next === '\r' || next === ' ' || next === '\t') {
            return undefined;
          }
          w.value += next;
          quoted = true;
          i += 2;
        } else if (d === '$') {
          PARAMETER.lastIndex = i;
          const m = PARAMETER.exec(source);
          if (!m) return undefined;
          w.value += DYN;
          if (!w.kinds.includes('parameter')) w.kinds.push('parameter');
          i += m[0].length;
        } else if (d === "'") {
          const close = source.indexOf(d, i + 1);
          if (close < 0) return undefined;
          const inner = source.slice(i + 1, close);
          if (inner.includes('\n')) return undefined;
          w.value += inner;
          quoted = true;
          i = close + 1;
        } else if (d === '"') {
          const end = doubleQuoted(source, i + 1, w);
          if (end < 0) return undefined;
          quoted = true;
          i = end;
        } else {
          break;
        }
      }
      if (i === start) return undefined;
      tokens.push({ text: source.slice(start, i), ...w, start, end: i, word: true, quoted });
      continue;
    }
    if (!PLAIN.test(c)) return undefined;
    const two = source.slice(i, i + 2);
    const op = two === '||' || two === '&&' || two === '|&' ? two : c;
    if (op === ';' && source[i + 1] === ';') return undefined;
    i += op.length;
    tokens.push({ text: op, value: op, kinds: [], start, end: i, word: false, quoted: false });
  }
  return tokens;
}

interface Statement {
  /** Pipelines joined by && and ||. */
  pipelines: Token[][][];
  background: boolean;
}

/** Splits tokens into statements (`;`, `&`) of and-or lists of pipelines of commands; undefined on bad syntax. */
function structure(tokens: Token[]): Statement[] | undefined {
  const statements: Statement[] = [];
  let pipelines: Token[][][] = [];
  let pipeline: Token[][] = [];
  let command: Token[] = [];
  const endCommand = (): boolean => {
    if (command.length === 0) return false;
    pipeline.push(command);
    command = [];
    return true;
  };
  for (const t of tokens) {
    if (t.word) {
      command.push(t);
      continue;
    }
    if (!endCommand()) return undefined;
    if (t.text === '|' || t.text === '|&') continue;
    pipelines.push(pipeline);
    pipeline = [];
    if (t.text === '&&' || t.text === '||') continue;
    statements.push({ pipelines, background: t.text === '&' });
    pipelines = [];
  }
  if (command.length > 0) {
    endCommand();
    pipelines.push(pipeline);
    statements.push({ pipelines, background: false });
  } else if (pipeline.length > 0 || pipelines.length > 0) {
    return undefined;
  }
  return statements;
}

function word(t: Token): Word {
  return makeWord(t.text, t.value, t.kinds, { start: t.start, end: t.end });
}

function toCommand(tokens: Token[], context: ContextFlag[]): SimpleCommand | undefined {
  const assignments: Assignment[] = [];
  let i = 0;
  for (; i < tokens.length && !tokens[i]!.quoted && ASSIGNMENT.test(tokens[i]!.text); i++) {
    const t = tokens[i]!;
    const eq = t.text.indexOf('=');
    if (!PLAIN_ASSIGNMENT.test(t.text) || !PLAIN_VALUE.test(t.text.slice(eq + 1))) return undefined;
    const valueStart = t.start + eq + 1;
    const value = makeWord(t.text.slice(eq + 1), t.text.slice(eq + 1), [], { start: valueStart, end: t.end });
    assignments.push({
      name: t.text.slice(0, eq),
      append: false,
      value,
      array: false,
      span: { start: t.start, end: t.end },
    });
  }
  const argv = tokens.slice(i).map(word);
  if (argv.some((w) => w.text.startsWith('='))) return undefined;
  const first = argv[0];
  if (first && (KEYWORDS.has(first.value) || !PLAIN_NAME.test(first.text))) return undefined;
  if (i < tokens.length && tokens[i]!.quoted && ASSIGNMENT.test(tokens[i]!.text)) return undefined;
  if (i < tokens.length && /^[A-Za-z_][A-Za-z0-9_]*\+=/.test(tokens[i]!.text)) return undefined;
  const last = tokens[tokens.length - 1]!;
  const cmd: SimpleCommand = {
    id: -1,
    argv,
    assignments,
    redirects: [],
    span: { start: tokens[0]!.start, end: last.end },
    context,
    executes: [],
    effects: [],
    effectsKnown: true,
  };
  if (first) cmd.name = nameInfo(first);
  return cmd;
}

/** The simple commands of a plain command line, in source order; undefined when the full parser is needed. */
export function plainCommands(source: string, newId: () => number): SimpleCommand[] | undefined {
  const tokens = tokenize(source);
  if (!tokens || tokens.length === 0) return undefined;
  const statements = structure(tokens);
  if (!statements) return undefined;
  const pending: Array<{ tokens: Token[]; context: ContextFlag[] }> = [];
  for (const s of statements) {
    const base: ContextFlag[] = s.background ? ['background'] : [];
    const inList = s.pipelines.length > 1;
    for (const p of s.pipelines) {
      const flags: ContextFlag[] = [...base];
      if (inList) flags.push('list');
      if (p.length > 1) flags.push('pipeline');
      for (const c of p) pending.push({ tokens: c, context: [...flags] });
    }
  }
  const out: SimpleCommand[] = [];
  for (const p of pending) {
    const cmd = toCommand(p.tokens, p.context);
    if (!cmd) return undefined;
    out.push(cmd);
  }
  for (const cmd of out) cmd.id = newId();
  return out;
}
