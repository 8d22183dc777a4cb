import { ArithmeticAudit } from './arithmetic.js';
import type { SyntaxNode as Node } from './syntax.js';
import type { Problem } from './types.js';
import { spanOf } from './words.js';

/** Node types that make (part of) a word: two of them side by side are one word. */
const WORDLIKE = new Set([
  'word',
  'variable_name',
  'string',
  'raw_string',
  'ansi_c_string',
  'translated_string',
  'concatenation',
  'simple_expansion',
  'expansion',
  'command_substitution',
  'process_substitution',
  'arithmetic_expansion',
  'number',
]);

/** Every named node type of tree-sitter-bash 0.25.1 that the analyzer understands. */
const KNOWN = new Set([
  ...WORDLIKE,
  'program',
  'comment',
  'command',
  'command_name',
  'string_content',
  'brace_expression',
  'special_variable_name',
  'variable_assignment',
  'variable_assignments',
  'subscript',
  'array',
  'list',
  'pipeline',
  'subshell',
  'compound_statement',
  'redirected_statement',
  'file_redirect',
  'heredoc_redirect',
  'herestring_redirect',
  'file_descriptor',
  'heredoc_start',
  'heredoc_body',
  'heredoc_content',
  'heredoc_end',
  'if_statement',
  'elif_clause',
  'else_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'do_group',
  'case_statement',
  'case_item',
  'function_definition',
  'negated_command',
  'declaration_command',
  'unset_command',
  'test_command',
  'test_operator',
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'postfix_expression',
  'parenthesized_expression',
  'regex',
  'extglob_pattern',
]);

const RESERVED = new Set([
  'fi',
  'then',
  'done',
  'do',
  'esac',
  'else',
  'elif',
  'in',
  '}',
  '{',
  ']]',
  '!',
  'case',
  'if',
  'while',
  'until',
  'for',
  'select',
  'function',
]);

/** Parents whose word children the walker does not join when tree-sitter splits a word into touching nodes. */
const UNJOINED = new Set([
  'declaration_command',
  'unset_command',
  'for_statement',
  'case_item',
  'case_statement',
]);
const NAMED_FD = /\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/**
 * Structural audits of the tree. Anything found means the tree may not say what bash will run:
 * syntax errors, unknown nodes, source text no node accounts for, and the known tree-sitter-bash mis-parses.
 */
export function auditTree(root: Node, source: string): { problems: Problem[]; mustVisit: Node[] } {
  const problems: Problem[] = [];
  const mustVisit: Node[] = [];
  const add = (code: Problem['code'], message: string, node: Node): void => {
    problems.push({ code, message, span: spanOf(node) });
  };
  if (root.hasError) {
    problems.push({ code: 'syntax-error', message: 'the command has a syntax error' });
  }
  const arithmetic = new ArithmeticAudit();
  const visit = (node: Node, inArithmetic: boolean): void => {
    if (node.type === 'ERROR') add('syntax-error', `syntax error near ${quoteSnippet(node.text)}`, node);
    else if (node.isMissing) add('missing-node', `missing ${node.type}`, node);
    else if (node.isNamed && !KNOWN.has(node.type)) add('unknown-node', `unknown syntax ${node.type}`, node);
    if (MUST_VISIT.has(node.type)) mustVisit.push(node);
    auditNode(node, source, add);
    const below = arithmetic.visit(node, inArithmetic);
    const children = node.children;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      visit(child, arithmetic.childContext(node, child, i, below));
    }
  };
  visit(root, false);
  problems.push(...arithmetic.problems());
  return { problems, mustVisit };
}

/** Node types whose every occurrence the walker must reach (checked after the walk). */
export const MUST_VISIT = new Set([
  'command',
  'declaration_command',
  'unset_command',
  'test_command',
  'command_substitution',
  'process_substitution',
  'function_definition',
]);

type Add = (code: Problem['code'], message: string, node: Node) => void;

function auditNode(node: Node, source: string, add: Add): void {
  switch (node.type) {
    case 'heredoc_body':
      auditHeredocBody(node, add);
      return;
    case 'command_substitution':
      if (node.text.startsWith('`')) auditBacktick(node, add);
      break;
    case 'ansi_c_string':
      if (ansiCEnd(node.text) !== node.text.length - 1) {
        add('misparse-word', "a $'...' string ends at another quote in bash", node);
      }
      break;
    case 'word':
      if (/(^|[^\\])\n/.test(node.text) || node.text.startsWith('\n')) {
        add('misparse-newline', 'a line break inside a word: the next line is a separate command', node);
      } else if (/(^|[^\\])[ \t]/.test(node.text)) {
        add('misparse-word', 'a blank inside a word: bash splits it into several words', node);
      }
      break;
    case 'command_name': {
      const text = node.text;
      if (RESERVED.has(text)) add('misparse-reserved-word', `reserved word ${text} used as a command`, node);
      break;
    }
    case 'file_redirect': {
      const before = source.slice(Math.max(0, node.startIndex - 64), node.startIndex);
      if (NAMED_FD.test(before))
        add('misparse-named-fd', 'named file descriptors ({fd}>) are not understood', node);
      break;
    }
    case ';;':
      if (node.parent?.type !== 'case_item') add('misparse-double-semicolon', ';; outside a case item', node);
      return;
  }
  auditGaps(node, source, add);
}

/** Only whitespace and line continuations may lie between a node's children. */
function auditGaps(node: Node, source: string, add: Add): void {
  const children = node.children;
  if (children.length === 0) return;
  const unjoined = UNJOINED.has(node.type);
  let pos = node.startIndex;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const start = child.startIndex;
    if (unjoined && i > 0) {
      const before = children[i - 1]!;
      if (before.endIndex === start && WORDLIKE.has(before.type) && WORDLIKE.has(child.type)) {
        add('misparse-word', 'one word was split into two', node);
      }
    }
    if (start > pos && !(start === pos + 1 && source.charCodeAt(pos) === 32)) {
      checkGap(source, pos, start, node, add);
      if (i > 0 && node.type !== 'command' && gluedContinuation(source, pos, start)) {
        add('misparse-newline', 'a line continuation inside a word is not understood here', node);
      }
    }
    if (child.endIndex > pos) pos = child.endIndex;
  }
  if (node.endIndex > pos) checkGap(source, pos, node.endIndex, node, add);
}

/** `a\\<newline>b` with no blank on either side is one word to bash, but tree-sitter makes it two. */
function gluedContinuation(source: string, end: number, start: number): boolean {
  if (!/^(?:\\\r?\n)+$/.test(source.slice(end, start))) return false;
  return !/\s/.test(source[end - 1] ?? ' ') && !/\s/.test(source[start] ?? ' ');
}

function checkGap(source: string, start: number, end: number, node: Node, add: Add): void {
  const gap = source.slice(start, end);
  if (/^(?:[ \t\r\n]|\\\r?\n)*$/.test(gap)) return;
  add('uncovered-text', `text ${quoteSnippet(gap)} is not accounted for by the parse`, node);
}

/** The index of the quote that closes a `$'...'` string: a backslash escapes the next character. */
function ansiCEnd(text: string): number {
  let i = 2;
  while (i < text.length && text[i] !== "'") i += text[i] === '\\' ? 2 : 1;
  return i;
}

function auditBacktick(node: Node, add: Add): void {
  const inner = node.text.slice(1, -1);
  if (/\\[\\$]/.test(inner) || (insideDoubleQuotes(node) && inner.includes('\\"'))) {
    add('misparse-backtick', 'backslash escapes inside backticks are not removed by the parse', node);
    return;
  }
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\') {
      if (inner[i + 1] === '`') {
        add('misparse-backtick', 'escaped backticks nested in backticks are not parsed', node);
        return;
      }
      i++;
    } else if (inner[i] === '`') {
      add('misparse-backtick', 'backtick substitutions paired wrongly', node);
      return;
    }
  }
}

function insideDoubleQuotes(node: Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'string') return true;
    if (p.type === 'command_substitution' || p.type === 'program') return false;
  }
  return false;
}

/** In an unquoted heredoc every expansion must have been parsed as a child. */
function auditHeredocBody(node: Node, add: Add): void {
  const redirect = node.parent;
  const start = redirect?.children.find((c) => c?.type === 'heredoc_start');
  if (start && /['"\\]/.test(start.text)) return;
  const covered: Array<[number, number]> = [];
  for (const child of node.namedChildren) {
    if (child && child.type !== 'heredoc_content') covered.push([child.startIndex, child.endIndex]);
  }
  const text = node.text;
  const re = /\$\(|\$\{|\$\[|`/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > 0 && text[m.index - 1] === '\\') continue;
    const at = node.startIndex + m.index;
    if (!covered.some(([s, e]) => at >= s && at < e)) {
      add(
        'misparse-heredoc',
        `expansion ${quoteSnippet(text.slice(m.index, m.index + 12))} in a heredoc was not parsed`,
        node,
      );
      return;
    }
  }
}

function quoteSnippet(s: string): string {
  const short = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return JSON.stringify(short);
}
