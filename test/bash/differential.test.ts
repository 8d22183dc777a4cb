import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { type Analysis, DYN, type ProblemCode, type SimpleCommand, type Word } from '../../src/bash/types.js';

/**
 * Differential test of the analyzer against a second, independent parser: mvdan/sh (the `mvdan-sh` GopherJS
 * build). For every NL2Bash line both sides list the simple commands bash would run as written (automode: the
 * commands without a `nested` link), each as `assignments :: argv` with quotes removed, every part only known at
 * run time as ⟨$⟩ and glob characters kept. The multisets are compared and every disagreement falls in one of:
 *
 * (a) automode opaque: fail-closed, counted by problem code. Each code is explained in OPAQUE_EXPLAINED.
 * (b) mvdan rejects the line but automode does not: listed in fixtures/bash/differential-explained.json.
 * (c) both parse, the commands differ: a known analyzer bug (KNOWN_BUGS: a mask that turns automode's answer into
 *     bash's, each with failing minimal tests below), or listed in the explained file with a reason.
 *
 * Four rendering conventions are normalised on both sides rather than counted (the fourth on automode's side):
 * - a word holding a brace expansion (`a{1,2}`) expands to several words: rendered as one ⟨$⟩;
 * - a `$'...'` string ends at the first NUL it decodes (`$'\0'` is the empty string to bash), which mvdan keeps;
 * - mvdan parses `let` arguments as arithmetic (LetClause); they are rendered as their source text, as the
 *   tree-sitter grammar keeps them as words;
 * - `"$f"` in a `for` loop's body, which automode reads as one of the loop's words, walking the body once per
 *   word: rendered as ⟨$⟩, and the copies of a command (same source span) counted once.
 */

// ---------------------------------------------------------------------------------------------------------------
// mvdan-sh. Its public API converts every Go value it hands to JavaScript (syntax.Walk takes ~40 µs a node), so
// the tree is read from the GopherJS objects behind it instead: `__internal_object__` of the parsed file, slices
// as {$array, $offset, $length}, a node's type in `constructor.string` ("*syntax.CallExpr"), strings as UTF-8
// bytes, positions as {offs} byte offsets. The walk visits every field, like syntax.Walk.

interface MvPublicNode {
  __internal_object__: Go;
  Pos(): { Offset(): number };
  End(): { Offset(): number };
}

interface MvSyntax {
  NewParser(): { Parse(src: string, name: string): MvPublicNode };
  Walk(node: MvPublicNode, fn: (node: MvPublicNode | null) => boolean): void;
  NodeType(node: MvPublicNode): string;
}

/** A GopherJS value: a struct pointer, a slice or a position. */
interface Go {
  constructor: { string?: string; nil?: unknown };
  [field: string]: unknown;
}

const require = createRequire(import.meta.url);
const syntax = (require('mvdan-sh') as { syntax: MvSyntax }).syntax;
const mvParser = syntax.NewParser();

function isGo(v: unknown): v is Go {
  return typeof v === 'object' && v !== null;
}

/** The node's type name (`CallExpr`), or undefined for a nil pointer or a non-node value. */
function goType(v: unknown): string | undefined {
  if (!isGo(v) || v === v.constructor.nil) return undefined;
  const s = v.constructor.string;
  return s?.startsWith('*syntax.') ? s.slice(8) : undefined;
}

function goSlice(v: unknown): Go[] {
  if (!isGo(v) || !Array.isArray(v.$array)) return [];
  const out: Go[] = [];
  const offset = v.$offset as number;
  for (let i = 0; i < (v.$length as number); i++) out.push(v.$array[offset + i] as Go);
  return out;
}

/** Go strings are byte strings. */
function goString(v: unknown): string {
  return typeof v === 'string' ? Buffer.from(v, 'latin1').toString('utf8') : '';
}

function goField(v: Go, field: string): Go | undefined {
  const f = v[field];
  return goType(f) !== undefined ? (f as Go) : undefined;
}

function offs(pos: unknown): number {
  return isGo(pos) ? (pos.offs as number) : 0;
}

/** Depth-first over every node below `node`, in field order (source order), like syntax.Walk. */
function goWalk(node: Go, visit: (type: string, node: Go) => void): void {
  const type = goType(node);
  if (type === undefined) return;
  visit(type, node);
  for (const k in node) {
    if (k === '$val') continue;
    const v = node[k];
    if (!isGo(v)) continue;
    if (Array.isArray(v.$array)) for (const e of goSlice(v)) goWalk(e, visit);
    else goWalk(v, visit);
  }
}

interface Rendered {
  assigns: string[];
  argv: string[];
}

function key(c: Rendered): string {
  return `${c.assigns.join(' ')} :: ${JSON.stringify(c.argv)}`;
}

function keys(cs: Rendered[]): string[] {
  return cs.map(key).sort();
}

class MvRenderer {
  private readonly bytes: Buffer;

  constructor(src: string) {
    this.bytes = Buffer.from(src, 'utf8');
  }

  private slice(start: number, end: number): string {
    return this.bytes.subarray(start, end).toString('utf8');
  }

  word(word: Go): string {
    let value = '';
    let skeleton = '';
    for (const part of goSlice(word.Parts)) {
      const type = goType(part) ?? '';
      if (type === 'Lit') {
        const lit = goString(part.Value);
        value += lit.replace(/\\([\s\S])/g, '$1');
        skeleton += lit;
      } else {
        value += this.part(part, type);
        skeleton += '_';
      }
    }
    return hasBraceExpansion(skeleton) ? DYN : value;
  }

  private part(part: Go, type: string): string {
    switch (type) {
      case 'SglQuoted': {
        const v = goString(part.Value);
        if (!part.Dollar) return v;
        // bash ends a $'...' string at the first NUL it decodes; mvdan keeps the NUL.
        const decoded = decodeAnsiC(v);
        const nul = decoded.indexOf('\0');
        return nul < 0 ? decoded : decoded.slice(0, nul);
      }
      case 'DblQuoted': {
        let out = '';
        for (const inner of goSlice(part.Parts)) {
          const t = goType(inner) ?? '';
          out += t === 'Lit' ? unescapeDouble(goString(inner.Value)) : this.part(inner, t);
        }
        return out;
      }
      case 'ExtGlob': {
        const pattern = goField(part, 'Pattern');
        return this.slice(offs(part.OpPos), pattern ? offs(pattern.ValueEnd) + 1 : offs(part.OpPos));
      }
      default:
        // ParamExp, CmdSubst, ArithmExp, ProcSubst: only known at run time.
        return DYN;
    }
  }

  assign(a: Go): string {
    const value = goField(a, 'Value');
    const name = goString(goField(a, 'Name')?.Value);
    if (a.Naked) return value ? this.word(value) : name;
    const lhs = `${name}${a.Append ? '+=' : '='}`;
    const array = goField(a, 'Array');
    if (array) return `${lhs}${this.slice(offs(array.Lparen), offs(array.Rparen) + 1)}`;
    return `${lhs}${value ? this.word(value) : ''}`;
  }
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** `{a,b}` or `{1..3}` outside quotes (bash's rule, written independently of src/bash/words.ts). */
function hasBraceExpansion(text: string): boolean {
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') open.push(i);
    else if (c === '}' && open.length > 0) {
      const inner = text.slice(open.pop()! + 1, i);
      if (inner.includes(',') || /^[^.]*\.\.[^.]/.test(inner)) return true;
    }
  }
  return false;
}

const ANSI_SIMPLE: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** A small $'...' decoder, enough for the corpus. */
function decodeAnsiC(s: string): string {
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[\s\S])/g, (m, e: string) => {
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(Number.parseInt(e, 8) & 0xff);
    return ANSI_SIMPLE[e] ?? m;
  });
}

type MvResult = { ok: true; commands: Rendered[] } | { ok: false; error: string };

function mvdanCommands(src: string): MvResult {
  let file: MvPublicNode;
  try {
    file = mvParser.Parse(src, 'src');
  } catch (e) {
    const err = e as { Error?: () => string; message?: string };
    return { ok: false, error: err.Error?.() ?? err.message ?? String(e) };
  }
  const r = new MvRenderer(src);
  const commands: Rendered[] = [];
  let lets = 0;
  goWalk(file.__internal_object__, (type, node) => {
    switch (type) {
      case 'CallExpr':
        commands.push({
          assigns: goSlice(node.Assigns).map((a) => r.assign(a)),
          argv: goSlice(node.Args).map((w) => r.word(w)),
        });
        break;
      case 'DeclClause':
        commands.push({
          assigns: [],
          argv: [goString(goField(node, 'Variant')?.Value), ...goSlice(node.Args).map((a) => r.assign(a))],
        });
        break;
      case 'LetClause':
        lets++;
        break;
    }
  });
  // `let` arguments are arithmetic expressions whose extent is easiest to get from the public API (rare).
  if (lets > 0) {
    const bytes = Buffer.from(src, 'utf8');
    syntax.Walk(file, (node) => {
      if (node && syntax.NodeType(node) === 'LetClause') {
        const exprs = goSlice(node.__internal_object__.Exprs).length;
        const text = bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8');
        const argv = text.split(/\s+/).filter(Boolean);
        commands.push({
          assigns: [],
          argv: argv.length === exprs + 1 ? argv : ['let', `⟨${exprs} expressions⟩`],
        });
      }
      return true;
    });
  }
  return { ok: true, commands };
}

// ---------------------------------------------------------------------------------------------------------------
// automode's side, and the masks of known analyzer bugs.

/** automode's view of one syntactic command, before rendering: words keep their spans so masks can use them. */
interface AutoCommand {
  cmd: SimpleCommand;
  argv: Word[];
  analysis: Analysis;
}

/** `"$f"` in a `for` loop's body, which automode reads as the loop's word (mvdan reads no values). */
const LOOP_BOUND = /^"\$(?:[A-Za-z_]\w*|\{[A-Za-z_]\w*\})"$/;

function wordValue(w: Word): string {
  return w.dynamic.includes('brace') || LOOP_BOUND.test(w.text) ? DYN : w.value;
}

function renderAuto(c: AutoCommand): Rendered {
  return {
    assigns: c.cmd.assignments.map((a) => `${a.name}${a.append ? '+=' : '='}${a.value.value}`),
    argv: c.argv.map(wordValue),
  };
}

interface Bug {
  id: string;
  summary: string;
  /** Detects the bug in one command, rewriting automode's words as bash has them when it can. */
  mask(c: AutoCommand): boolean;
  /** When the bug was detected, a normalisation of every rendered value (argv and assignments), both sides. */
  values?(value: string): string;
  /** When the bug was detected, a normalisation of argv on both sides; `words` is automode's command. */
  argv?(argv: string[], words?: Word[]): string[];
}

const KNOWN_BUGS: Bug[] = [
  {
    id: 'braces-with-space',
    summary: '`rm { } x`: tree-sitter makes `{ }` one word; bash sees two words `{` and `}`',
    mask(c) {
      const i = c.argv.findIndex((w) => w.text === '{ }');
      if (i < 0) return false;
      const w = c.argv[i]!;
      const open = { ...w, text: '{', value: '{', span: { start: w.span.start, end: w.span.start + 1 } };
      const close = { ...w, text: '}', value: '}', span: { start: w.span.end - 1, end: w.span.end } };
      c.argv = [...c.argv.slice(0, i), open, close, ...c.argv.slice(i + 1)];
      return true;
    },
  },
  {
    id: 'adjacent-words',
    summary:
      'tree-sitter splits one bash word into sibling nodes with nothing between them (`"r"\\m`, `{}\\;`, ' +
      '`a/`cmd`/b`, `$D/$O`, `"x"\\)`, `a=<(x)`); automode makes each a separate argument (or a redirect ' +
      'target plus an argument) and the gap audit sees no gap',
    mask(c) {
      const targets = c.cmd.redirects.map((r) => r.target.span.end);
      let changed = false;
      const out: Word[] = [];
      for (const w of c.argv) {
        const prev = out[out.length - 1];
        if (prev && prev.span.end === w.span.start) {
          out[out.length - 1] = {
            ...prev,
            value: prev.value + w.value,
            span: { start: prev.span.start, end: w.span.end },
          };
          changed = true;
        } else if (targets.includes(w.span.start)) {
          changed = true; // the rest of a redirect target, pushed as an argument
        } else {
          out.push(w);
        }
      }
      c.argv = out;
      return changed;
    },
  },
  {
    id: 'dollar-dollar',
    summary:
      '`$$` after other text in a word (`/tmp/$$`, `PP=$$`) is an anonymous "$$" token: rendered as a static "$$"',
    mask(c) {
      let changed = false;
      c.argv = c.argv.map((w) => {
        if (!/(^|[^$])\$\$/.test(w.value) || w.text.includes("'")) return w;
        changed = true;
        return { ...w, value: w.value.replace(/\$\$/g, DYN) };
      });
      return changed;
    },
  },
  {
    id: 'space-before-expansion',
    summary:
      'in a double-quoted string, whitespace just before a `$x` that follows another expansion or the opening ' +
      'quote is inside the "$" token (`" $x"`, `"$a $b"`): dropped from the value',
    mask(c) {
      const words = [...c.argv, ...c.cmd.assignments.map((a) => a.value)];
      return words.some((w) => /"[^"]*[ \t]\$/.test(w.text));
    },
    values(v) {
      return v.replace(/[ \t]+(?=⟨\$⟩)/g, '');
    },
  },
  {
    id: 'prompt-dollar',
    summary:
      '`$ ls -l` (a pasted prompt) parses as the expansion `$ls` across the space: the command name is "⟨$⟩" and ' +
      '`ls` is lost; bash runs the program `$` with arguments `ls -l`',
    mask(c) {
      return c.argv[0] !== undefined && /^\$[ \t]/.test(c.argv[0].text);
    },
    argv(argv, words) {
      if (words) return words[0] && /^\$[ \t]/.test(words[0].text) ? argv.slice(1) : argv;
      return argv[0] === '$' ? argv.slice(2) : argv;
    },
  },
  {
    id: 'dash-descriptor',
    summary:
      '`head -200>f`: tree-sitter takes `-200` as the file descriptor (bash passes -200 as an argument); in a ' +
      'pipeline the redirect then hangs on the whole pipeline',
    mask(c) {
      const src = c.analysis.source;
      const bad = [...c.cmd.redirects, ...c.analysis.compoundRedirects].filter(
        (r) =>
          r.fd !== undefined &&
          /^-\d+$/.test(r.fd) &&
          r.span.start >= c.cmd.span.start &&
          /^[ \t]*$/.test(src.slice(c.cmd.span.end, r.span.start)),
      );
      for (const r of bad) {
        const at = { start: r.span.start, end: r.span.start };
        c.argv = [...c.argv, { text: r.fd!, value: r.fd!, static: true, dynamic: [], span: at }];
      }
      c.argv.sort((x, y) => x.span.start - y.span.start);
      return bad.length > 0;
    },
  },
];

/** A loop body walked once per word gives the same command (same source span) once per word: counted once. */
function autoCommands(a: Analysis): AutoCommand[] {
  const seen = new Set<string>();
  return a.commands
    .filter((c) => {
      const at = `${c.span.start}:${c.span.end}`;
      if (c.nested || seen.has(at)) return false;
      seen.add(at);
      return true;
    })
    .map((cmd) => ({ cmd, argv: [...cmd.argv], analysis: a }));
}

// ---------------------------------------------------------------------------------------------------------------
// The explanations.

/** Why each problem code appears on this corpus (category a). A new code must be looked at and added here. */
const OPAQUE_EXPLAINED: Partial<Record<ProblemCode, string>> = {
  'syntax-error':
    'real syntax errors (`<placeholder>` arguments, unbalanced or typographic quotes, a trailing backslash, ' +
    'unclosed parentheses) and bash syntax tree-sitter lacks: extglob `!(...)` in arguments, a bare `$` before ' +
    '`/`, backquote or end of word, a here-string inside `$(( $(...) ))`',
  'missing-node': 'tree-sitter recovery after the same kinds of errors (missing quote, word, `;`)',
  'uncovered-text':
    '`\\ ` (backslash-space, from collapsed line continuations) that tree-sitter leaves uncovered',
  'unknown-node': 'an ERROR node inside a word',
  'misparse-backtick': 'audit 1: two backtick substitutions on one line; audit 3: `\\`` inside backticks',
  'misparse-redirect': 'audit 7: `xargs>  -0 rm` and the like, the words after the redirect swallowed',
  'misparse-word':
    'words tree-sitter splits or joins wrongly and the analyzer cannot rejoin: a pasted prompt `$ cmd` (read as ' +
    'the expansion `$cmd` across the blank), a blank inside a word node (typographic quotes, `{ }`)',
  'misparse-reserved-word':
    'a reserved word in command position (`fi done` without a `;`), which tree-sitter rejects',
  unsupported:
    'ERROR statements and commands below them; wrappers and option parsers that cannot tell what runs ' +
    '(find with an operand that may expand to several words or to a primary, su/script without a command, ' +
    'options that may run programs); the @P parameter transformation',
  'dynamic-shell-string': '`sh -c` / `bash -c` / `su -c` with a string only known at run time',
  'too-deep': 'deep nesting',
};

interface Explained {
  src: string;
  category: 'mvdan-error' | 'differ';
  reason: string;
}

const explainedFile = JSON.parse(
  readFileSync(new URL('../../fixtures/bash/differential-explained.json', import.meta.url), 'utf8'),
) as { lines: Explained[] };
const explained = new Map(explainedFile.lines.map((e) => [`${e.category}\n${e.src}`, e]));

// ---------------------------------------------------------------------------------------------------------------
// The comparison.

type Outcome =
  | { category: 'agree' }
  | { category: 'opaque'; codes: ProblemCode[]; mvdanError: boolean }
  | { category: 'mvdan-error'; error: string }
  | { category: 'bug'; bugs: string[] }
  | { category: 'differ'; onlyAutomode: string[]; onlyMvdan: string[] };

function compare(src: string): Outcome {
  const a = analyze(src);
  const m = mvdanCommands(src);
  if (a.opaque)
    return { category: 'opaque', codes: [...new Set(a.problems.map((p) => p.code))], mvdanError: !m.ok };
  if (!m.ok) return { category: 'mvdan-error', error: m.error };
  const mine = autoCommands(a);
  const theirs = keys(m.commands);
  const plain = keys(mine.map(renderAuto));
  if (same(plain, theirs)) return { category: 'agree' };
  const found = KNOWN_BUGS.filter((bug) => mine.map((c) => bug.mask(c)).some(Boolean));
  const normalise = (c: Rendered, words?: Word[]): Rendered => {
    let { argv, assigns } = c;
    for (const bug of found) {
      if (bug.argv) argv = bug.argv(argv, words);
      const values = bug.values;
      if (values) {
        argv = argv.map((v) => values(v));
        assigns = assigns.map((v) => values(v));
      }
    }
    return { argv, assigns };
  };
  const mineNormalised = keys(mine.map((c) => normalise(renderAuto(c), c.argv)));
  if (found.length > 0 && same(mineNormalised, keys(m.commands.map((c) => normalise(c))))) {
    return { category: 'bug', bugs: found.map((b) => b.id) };
  }
  return {
    category: 'differ',
    onlyAutomode: plain.filter((k) => !theirs.includes(k)),
    onlyMvdan: theirs.filter((k) => !plain.includes(k)),
  };
}

function same(x: string[], y: string[]): boolean {
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

const lines = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0);

beforeAll(async () => {
  await loadBash();
});

describe('differential: automode vs mvdan-sh on NL2Bash', () => {
  it('every disagreement is explained', () => {
    const counts = new Map<string, number>();
    const bump = (k: string): void => {
      counts.set(k, (counts.get(k) ?? 0) + 1);
    };
    const unexplained: string[] = [];
    const used = new Set<string>();
    for (const src of lines) {
      const o = compare(src);
      switch (o.category) {
        case 'agree':
          bump('agree');
          break;
        case 'opaque':
          bump(o.mvdanError ? '(a) opaque, mvdan error too' : '(a) opaque, mvdan parses');
          for (const c of o.codes) {
            bump(`(a) code ${c}`);
            if (!OPAQUE_EXPLAINED[c])
              unexplained.push(`opaque with unexplained code ${c}: ${JSON.stringify(src)}`);
          }
          break;
        case 'bug':
          bump('(c) known analyzer bug');
          for (const b of o.bugs) bump(`(c) bug ${b}`);
          break;
        case 'mvdan-error':
        case 'differ': {
          const k = `${o.category}\n${src}`;
          if (explained.has(k)) {
            used.add(k);
            bump(o.category === 'differ' ? '(c) explained' : '(b) mvdan error, explained');
          } else if (o.category === 'differ') {
            unexplained.push(
              `differ: ${JSON.stringify(src)}\n  automode: ${o.onlyAutomode.join(' | ')}\n  mvdan:    ${o.onlyMvdan.join(' | ')}`,
            );
          } else {
            unexplained.push(`mvdan error, automode not opaque: ${JSON.stringify(src)}: ${o.error}`);
          }
        }
      }
    }
    const stale = [...explained.keys()].filter((k) => !used.has(k)).map((k) => k.replace('\n', ': '));
    const table = [...counts].sort(([x], [y]) => x.localeCompare(y)).map(([k, n]) => `  ${k}: ${n}`);
    console.log(`differential over ${lines.length} NL2Bash lines\n${table.join('\n')}`);
    expect(lines.length).toBe(12607);
    expect(
      unexplained,
      'add a normalisation, a bug mask, or an entry in differential-explained.json',
    ).toEqual([]);
    expect(stale, 'entries of differential-explained.json that no longer disagree').toEqual([]);
    // Most lines must agree outright; a drop means the comparison (or the analyzer) broke.
    expect(counts.get('agree') ?? 0).toBeGreaterThan(lines.length * 0.85);
  }, 300_000);

  it('mvdan itself renders as expected (sanity of the oracle)', () => {
    const m = mvdanCommands(
      "A=1 echo \"a$x\" b'c'd `id` $(ls) *.txt {a,b} <(x) $'\\x41' \\rm; declare -a z=(1 2) y; let n++",
    );
    expect(m.ok && keys(m.commands)).toEqual(
      keys([
        { assigns: ['A=1'], argv: ['echo', `a${DYN}`, 'bcd', DYN, DYN, '*.txt', DYN, DYN, 'A', 'rm'] },
        { assigns: [], argv: ['id'] },
        { assigns: [], argv: ['ls'] },
        { assigns: [], argv: ['x'] },
        { assigns: [], argv: ['declare', '-a', 'z=(1 2)', 'y'] },
        { assigns: [], argv: ['let', 'n++'] },
      ]),
    );
    expect(mvdanCommands('ls |').ok).toBe(false);
  });

  it('is known to differ where mvdan is wrong: a backslash ending a comment', () => {
    // bash runs ls, then rm; mvdan takes the backslash as a line continuation and makes rm -rf / arguments of ls.
    const src = 'ls # x \\\nrm -rf /';
    const m = mvdanCommands(src);
    expect(m.ok && keys(m.commands)).toEqual(keys([{ assigns: [], argv: ['ls', 'rm', '-rf', '/'] }]));
    const a = analyze(src);
    expect(a.opaque || a.commands.some((c) => c.argv[0]?.value === 'rm')).toBe(true);
  });
});

/**
 * Minimal inputs for the analyzer bugs the differential test found (KNOWN_BUGS). Each asserts what bash does;
 * failing fail-closed (an opaque analysis) is an acceptable fix too.
 */
describe('analyzer bugs found by the differential test', () => {
  const argv = (a: Analysis): string[][] =>
    a.commands.filter((c) => !c.nested).map((c) => c.argv.map((w) => w.value));
  const expectArgv = (src: string, expected: string[][]): void => {
    const a = analyze(src);
    if (a.opaque) return;
    expect(argv(a), JSON.stringify(src)).toEqual(expected);
  };

  it('adjacent-words: a quoted name glued to an escaped letter is one word ("r"\\m is rm)', () => {
    const a = analyze('"r"\\m -rf /');
    if (!a.opaque) expect(a.commands[0]?.name?.program).toBe('rm');
  });

  it('adjacent-words: an option spelled across quotes and escapes ("--for"\\ce is --force)', () => {
    expectArgv('git push "--for"\\ce', [['git', 'push', '--force']]);
  });

  it('adjacent-words: {}\\; is one word', () => {
    expectArgv('find . -exec rm {}\\;', [['find', '.', '-exec', 'rm', '{};']]);
  });

  it('adjacent-words: a backtick substitution inside a path', () => {
    expectArgv('grep x /lib/modules/`uname -r`/m', [
      ['grep', 'x', `/lib/modules/${DYN}/m`],
      ['uname', '-r'],
    ]);
  });

  it('adjacent-words: $D/$O/b is one word, and $O is dynamic', () => {
    expectArgv('ls $D/$O/b', [['ls', `${DYN}/${DYN}/b`]]);
  });

  it('adjacent-words: the redirect target $f-$g.md5 is one word', () => {
    const a = analyze('echo x > $f-$g.md5');
    if (a.opaque) return;
    expect(argv(a)).toEqual([['echo', 'x']]);
    expect(a.commands[0]?.redirects.map((r) => r.target.value)).toEqual([`${DYN}-${DYN}.md5`]);
  });

  it('adjacent-words: a word ending in $ inside single quotes next to a quoted string', () => {
    expectArgv("echo 'a 's/x*$//' b'", [['echo', 'a s/x*$// b']]);
  });

  it('dollar-dollar: $$ after text is the PID, not the text "$$"', () => {
    const a = analyze('rm /tmp/$$');
    if (a.opaque) return;
    const w = a.commands[0]?.argv[1];
    expect(w?.value).toBe(`/tmp/${DYN}`);
    expect(w?.static).toBe(false);
  });

  it('space-before-expansion: " $x" keeps its leading space', () => {
    expectArgv('echo " $x" "$a $b"', [['echo', ` ${DYN}`, `${DYN} ${DYN}`]]);
  });

  it('prompt-dollar: `$ ls -l` runs the program $, not a dynamic name', () => {
    expectArgv('$ ls -l', [['$', 'ls', '-l']]);
  });

  it('dash-descriptor: -200> is an argument then a redirect', () => {
    const a = analyze('head -200>f');
    if (a.opaque) return;
    expect(argv(a)).toEqual([['head', '-200']]);
    expect(a.commands[0]?.redirects[0]?.fd).toBeUndefined();
  });

  it('braces-with-space: { } is two words', () => {
    expectArgv('rm { } x', [['rm', '{', '}', 'x']]);
  });
});
