import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditTree } from '../../src/bash/audit.js';
import { loadBash, parseBash } from '../../src/bash/parser.js';
import type { Analysis } from '../../src/bash/types.js';
import { Walker } from '../../src/bash/walk.js';

function analyze(src: string): Analysis {
  const tree = parseBash(src);
  const problems = auditTree(tree, src);
  let n = 0;
  const w = new Walker(src, () => n++);
  w.walkProgram(tree.rootNode);
  problems.push(...w.problems);
  tree.delete();
  return {
    source: src,
    commands: w.commands,
    compoundRedirects: w.compoundRedirects,
    functions: w.functions,
    problems,
    opaque: problems.length > 0,
  };
}

/**
 * Differential test: the simple commands automode finds on the NL2Bash corpus against those found by a second,
 * independent parser (mvdan/sh, GopherJS build). See the bottom of this file for the categories.
 */

const DYN = '⟨$⟩';

// ---------------------------------------------------------------------------------------------------------------
// mvdan-sh: a minimal typed view of the GopherJS objects.

interface MvPos {
  Offset(): number;
}

interface MvNode {
  Pos(): MvPos;
  End(): MvPos;
  Value?: string;
  Dollar?: boolean;
  Parts?: MvNode[];
  Args?: MvNode[];
  Assigns?: MvNode[];
  Variant?: MvNode;
  Name?: MvNode | null;
  Naked?: boolean;
  Append?: boolean;
  Array?: MvNode | null;
  Op?: number;
  Pattern?: MvNode;
}

interface MvSyntax {
  NewParser(): { Parse(src: string, name: string): MvNode };
  Walk(node: MvNode, fn: (node: MvNode | null) => boolean): void;
  NodeType(node: MvNode): string;
}

const require = createRequire(import.meta.url);
const syntax = (require('mvdan-sh') as { syntax: MvSyntax }).syntax;

export interface Rendered {
  assigns: string[];
  argv: string[];
}

/** Renders one command as automode renders it: `A=1 B=⟨$⟩ :: ["ls","-la"]`. */
export function renderKey(c: Rendered): string {
  return `${c.assigns.join(' ')} :: ${JSON.stringify(c.argv)}`;
}

class MvRenderer {
  private readonly bytes: Buffer;

  constructor(private readonly src: string) {
    this.bytes = Buffer.from(src, 'utf8');
  }

  /** mvdan positions are byte offsets. */
  text(node: MvNode): string {
    return this.bytes.subarray(node.Pos().Offset(), node.End().Offset()).toString('utf8');
  }

  word(word: MvNode): string {
    let value = '';
    let skeleton = '';
    for (const part of word.Parts ?? []) {
      const type = syntax.NodeType(part);
      if (type === 'Lit') {
        value += unescapeUnquoted(part.Value ?? '');
        skeleton += part.Value ?? '';
      } else {
        value += this.part(part, type);
        skeleton += '_';
      }
    }
    // Brace expansion makes several words: automode renders the whole word as one dynamic part.
    return hasBraceExpansion(skeleton) ? DYN : value;
  }

  private part(part: MvNode, type: string): string {
    switch (type) {
      case 'SglQuoted':
        return part.Dollar ? decodeAnsiC(part.Value ?? '') : (part.Value ?? '');
      case 'DblQuoted': {
        let out = '';
        for (const inner of part.Parts ?? []) {
          const t = syntax.NodeType(inner);
          out += t === 'Lit' ? unescapeDouble(inner.Value ?? '') : this.part(inner, t);
        }
        return out;
      }
      case 'ExtGlob':
        return this.text(part);
      default:
        // ParamExp, CmdSubst, ArithmExp, ProcSubst: only known at run time.
        return DYN;
    }
  }

  assign(a: MvNode): string {
    if (a.Naked) return a.Value ? this.word(a.Value as unknown as MvNode) : (a.Name?.Value ?? '');
    const name = a.Name?.Value ?? '';
    const op = a.Append ? '+=' : '=';
    if (a.Array) return `${name}${op}${this.text(a.Array)}`;
    return `${name}${op}${a.Value ? this.word(a.Value as unknown as MvNode) : ''}`;
  }
}

/** Outside quotes a backslash escapes the next character (mvdan already removed line continuations). */
function unescapeUnquoted(s: string): string {
  return s.replace(/\\([\s\S])/g, '$1');
}

/** Inside double quotes a backslash only escapes $ ` " \ and newline. */
function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** `{a,b}` and `{1..3}` outside quotes (an independent copy of bash's rule). */
function hasBraceExpansion(text: string): boolean {
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '{') stack.push(i);
    else if (c === '}' && stack.length > 0) {
      const open = stack.pop()!;
      const inner = text.slice(open + 1, i);
      if (inner.includes(',') || /^[^.]*\.\.[^.]/.test(inner)) return true;
    }
  }
  return false;
}

/** A small $'...' decoder, enough for the corpus. */
function decodeAnsiC(s: string): string {
  const simple: Record<string, string> = {
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
  return s.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|[\s\S])/g, (m, e: string) => {
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]+$/.test(e)) return String.fromCharCode(Number.parseInt(e, 8) & 0xff);
    return simple[e] ?? m;
  });
}

export type MvResult = { ok: true; commands: Rendered[] } | { ok: false; error: string };

const mvParser = syntax.NewParser();

export function mvdanCommands(src: string): MvResult {
  let file: MvNode;
  try {
    file = mvParser.Parse(src, 'src');
  } catch (e) {
    return { ok: false, error: String((e as Error)?.message ?? e) };
  }
  const r = new MvRenderer(src);
  const commands: Rendered[] = [];
  syntax.Walk(file, (node) => {
    if (!node) return true;
    const type = syntax.NodeType(node);
    if (type === 'CallExpr') {
      commands.push({
        assigns: (node.Assigns ?? []).map((a) => r.assign(a)),
        argv: (node.Args ?? []).map((w) => r.word(w)),
      });
    } else if (type === 'DeclClause') {
      commands.push({
        assigns: [],
        argv: [node.Variant?.Value ?? '', ...(node.Args ?? []).map((a) => r.assign(a))],
      });
    }
    return true;
  });
  return { ok: true, commands };
}

export function automodeCommands(a: Analysis): Rendered[] {
  return a.commands
    .filter((c) => !c.nested)
    .map((c) => ({
      assigns: c.assignments.map((x) => `${x.name}${x.append ? '+=' : '='}${x.value.value}`),
      argv: c.argv.map((w) => w.value),
    }));
}

function keys(cs: Rendered[]): string[] {
  return cs.map(renderKey).sort();
}

const lines = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.length > 0);

beforeAll(async () => {
  await loadBash();
});

describe('differential: automode vs mvdan-sh on NL2Bash', () => {
  it('explore', () => {
    const out: string[] = [];
    const counts: Record<string, number> = {};
    const codes: Record<string, number> = {};
    for (const src of lines) {
      const a = analyze(src);
      const m = mvdanCommands(src);
      let cat: string;
      if (a.opaque) {
        cat = m.ok ? 'a-opaque' : 'a-opaque-mvdan-error';
        for (const c of new Set(a.problems.map((p) => p.code))) codes[c] = (codes[c] ?? 0) + 1;
        out.push(`${cat} ${JSON.stringify(src)} ${a.problems.map((p) => `${p.code}: ${p.message}`).join('; ')}`);
      } else if (!m.ok) {
        cat = 'b-mvdan-error';
        out.push(`${cat} ${JSON.stringify(src)} ${m.error}`);
      } else {
        const x = keys(automodeCommands(a));
        const y = keys(m.commands);
        if (JSON.stringify(x) === JSON.stringify(y)) cat = 'agree';
        else {
          cat = 'c-differ';
          const onlyA = x.filter((k) => !y.includes(k));
          const onlyM = y.filter((k) => !x.includes(k));
          out.push(`${cat} ${JSON.stringify(src)}\n   A: ${onlyA.join(' | ')}\n   M: ${onlyM.join(' | ')}`);
        }
      }
      counts[cat] = (counts[cat] ?? 0) + 1;
    }
    console.log(counts, codes);
    require('node:fs').writeFileSync('/tmp/diff-out.txt', out.join('\n'));
    expect(lines.length).toBe(12607);
  });
});
