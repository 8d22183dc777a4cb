import type { SyntaxNode as Node } from './syntax.js';
import type { Problem } from './types.js';
import { harmlessVariable } from './variables.js';
import { spanOf } from './words.js';

const TEST_ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const READERS = new Set(['read', 'mapfile', 'readarray']);

/**
 * Bash evaluates a variable's value as an arithmetic expression in `$((x))`, `(( ))`, `let`, `[[ x -eq y ]]`
 * and array subscripts, and an array subscript in that value runs command substitutions:
 * `x='a[$(rm -rf ~)]'; echo $((x))`. The analyzer cannot see such code, so a command that both evaluates a
 * variable arithmetically and gives a variable text that may hold code (a literal `$(` or backtick, a command
 * substitution, read) is reported.
 */
export class ArithmeticAudit {
  private evaluated: Node | undefined;
  private codeText = false;
  private assigned: Node | undefined;

  /** Visits one node; returns whether its children are in an arithmetic context. */
  visit(node: Node, arithmetic: boolean): boolean {
    const here = arithmetic || startsArithmetic(node);
    if (here && !this.evaluated && isVariable(node)) this.evaluated = node;
    if (!this.codeText && holdsCodeText(node)) this.codeText = true;
    if (here && !this.assigned && assignsShellVariable(node)) this.assigned = node;
    return here;
  }

  problems(): Problem[] {
    const out: Problem[] = [];
    if (this.assigned) {
      const name = this.assigned.namedChild(0)?.text ?? '';
      out.push({
        code: 'unsupported',
        message: `arithmetic assigns ${name}, which changes what commands do`,
        span: spanOf(this.assigned),
      });
    }
    if (!this.evaluated || !this.codeText) return out;
    return [
      ...out,
      {
        code: 'unsupported',
        message: 'a variable is evaluated as arithmetic while another part may put code into a variable',
        span: spanOf(this.evaluated),
      },
    ];
  }
}

function startsArithmetic(node: Node): boolean {
  switch (node.type) {
    case 'arithmetic_expansion':
    case 'c_style_for_statement':
    case 'subscript':
      return true;
    case 'compound_statement':
      return node.text.startsWith('((');
    case 'binary_expression':
      return node.children.some((c) => c?.type === 'test_operator' && TEST_ARITHMETIC.has(c.text));
    case 'command':
      return node.childForFieldName('name')?.text === 'let';
    case 'declaration_command':
      return /^(declare|typeset|local)\s+-\w*i/.test(node.text);
    default:
      return false;
  }
}

const ASSIGNING = /^(?:[-+*/%&|^]|<<|>>)?=$|^(?:\+\+|--)$/;

/** `NAME=…`, `NAME+=…`, `NAME++`, `--NAME` in arithmetic, for a variable that steers later commands. */
function assignsShellVariable(node: Node): boolean {
  if (
    !['binary_expression', 'postfix_expression', 'unary_expression', 'variable_assignment'].includes(
      node.type,
    )
  )
    return false;
  const target = node.namedChildren.find((c) => c?.type === 'variable_name' || c?.type === 'subscript');
  if (!target) return false;
  const name = target.type === 'subscript' ? (target.childForFieldName('name')?.text ?? '') : target.text;
  if (harmlessVariable(name)) return false;
  return node.children.some((c) => c !== null && !c.isNamed && ASSIGNING.test(c.type));
}

function isVariable(node: Node): boolean {
  return (
    node.type === 'variable_name' ||
    node.type === 'simple_expansion' ||
    node.type === 'expansion' ||
    (node.type === 'word' && /^[A-Za-z_]\w*$/.test(node.text) && node.parent?.type !== 'command_name')
  );
}

function holdsCodeText(node: Node): boolean {
  switch (node.type) {
    case 'raw_string':
    case 'ansi_c_string':
    case 'heredoc_body':
    case 'string_content':
    case 'word':
      return /\$\(|`/.test(node.text);
    case 'command_substitution':
      return (
        node.parent?.type === 'variable_assignment' || node.parent?.parent?.type === 'variable_assignment'
      );
    case 'command': {
      const name = node.childForFieldName('name')?.text ?? '';
      return READERS.has(name) || (name === 'printf' && /\s-v\s/.test(node.text));
    }
    case 'herestring_redirect':
      return true;
    default:
      return false;
  }
}
