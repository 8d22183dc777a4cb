import type { SyntaxNode as Node } from './syntax.js';
import type { Problem } from './types.js';
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

  /** Visits one node; returns whether its children are in an arithmetic context. */
  visit(node: Node, arithmetic: boolean): boolean {
    const here = arithmetic || startsArithmetic(node);
    if (here && !this.evaluated && isVariable(node)) this.evaluated = node;
    if (!this.codeText && holdsCodeText(node)) this.codeText = true;
    return here;
  }

  problems(): Problem[] {
    if (!this.evaluated || !this.codeText) return [];
    return [
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
