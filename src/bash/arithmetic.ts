import type { SyntaxNode as Node } from './syntax.js';
import type { Problem } from './types.js';
import { harmlessVariable } from './variables.js';
import { spanOf } from './words.js';

const TEST_ARITHMETIC = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const READERS = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts', 'wait']);
/** `${x:offset}`, `${x:offset:length}`, `${@:offset}`: offset and length are arithmetic. */
const SUBSTRING = /^\$\{[#!]?(?:[A-Za-z_]\w*|[@*]|\d+)(?:\[[^\]]*\])?:(?![-=?+])/;

/**
 * Bash evaluates a variable's value as an arithmetic expression in `$((x))`, `(( ))`, `let`, `[[ x -eq y ]]`,
 * array subscripts and substring offsets, and an array subscript in that value runs command substitutions:
 * `x='a[$(rm -rf ~)]'; echo $((x))`, `echo $(( $(cat f) ))`. The analyzer cannot see such code, so evaluating
 * anything whose value is not known to be a number is reported: the output of a command substitution, a
 * variable from the environment, a variable given text or read from input on the same line.
 */
export class ArithmeticAudit {
  /** The first node evaluating each variable name. */
  private readonly evaluated = new Map<string, Node>();
  /** Variables given a value on the line: true while every value given is a number. */
  private readonly numeric = new Map<string, boolean>();
  private substitution: Node | undefined;
  private readsInput = false;
  private assigned: Node | undefined;

  /** Visits one node; returns whether its children are in an arithmetic context by default. */
  visit(node: Node, arithmetic: boolean): boolean {
    const here = arithmetic || startsArithmetic(node);
    if (arithmetic) {
      const name = variableName(node);
      if (name !== undefined) this.evaluate(name, node);
      else if (TEXT.has(node.type)) this.expressionText(node);
      if (
        !this.substitution &&
        (node.type === 'command_substitution' || node.type === 'process_substitution')
      )
        this.substitution = node;
    }
    if (node.type === 'variable_assignment') this.assignment(node, arithmetic);
    else if (node.type === 'for_statement') this.loopVariable(node);
    else if (!this.readsInput && readsIntoVariables(node)) this.readsInput = true;
    if (here && !this.assigned && assignsShellVariable(node)) this.assigned = node;
    return here;
  }

  /** Whether `child` of `node` is in an arithmetic context, given the default for `node`'s children. */
  childContext(node: Node, child: Node, index: number, below: boolean): boolean {
    if (child.type === 'command_substitution') {
      if (below && !this.substitution) this.substitution = child;
      return false;
    }
    if (child.type === 'command_name') return false;
    if (
      node.type === 'c_style_for_statement' &&
      (child.type === 'do_group' || child.type === 'compound_statement')
    )
      return false;
    if (node.type === 'declaration_command') return below && child.type === 'variable_assignment';
    if (node.type === 'variable_assignment' && node.fieldNameForChild(index) === 'name') return false;
    if (node.type === 'subscript')
      return node.fieldNameForChild(index) === 'index' || (below && child.type !== 'variable_name');
    if (node.type === 'expansion' && SUBSTRING.test(node.text)) {
      const colon = node.children.findIndex((c) => c?.type === ':');
      return colon >= 0 && index > colon;
    }
    return below;
  }

  private evaluate(name: string, node: Node): void {
    if (!this.evaluated.has(name)) this.evaluated.set(name, node);
  }

  /** `let 'x=y+1'`, `declare -i n='a*2'`: the names in an expression written as text. */
  private expressionText(node: Node): void {
    for (const m of node.text.matchAll(TEXT_NAME)) {
      const name = m[1]!;
      if (m[2]) this.numeric.set(name, this.numeric.get(name) ?? true);
      else this.evaluate(name, node);
    }
  }

  private assignment(node: Node, arithmetic: boolean): void {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.type === 'subscript' ? nameNode.childForFieldName('name')?.text : nameNode?.text;
    if (!name) return;
    const value = node.childForFieldName('value');
    const number = arithmetic || !value || isNumber(value);
    this.numeric.set(name, (this.numeric.get(name) ?? true) && number);
  }

  private loopVariable(node: Node): void {
    const name = node.childForFieldName('variable')?.text;
    if (!name) return;
    let number = true;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (child && node.fieldNameForChild(i) === 'value' && !isNumber(child)) number = false;
    }
    this.numeric.set(name, (this.numeric.get(name) ?? true) && number);
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
    if (this.substitution) {
      out.push({
        code: 'unsupported',
        message: 'the output of a command is evaluated as arithmetic, where an array subscript runs commands',
        span: spanOf(this.substitution),
      });
      return out;
    }
    for (const [name, node] of this.evaluated) {
      if (NUMERIC_SPECIALS.has(name) || (this.numeric.get(name) === true && !this.readsInput)) continue;
      out.push({
        code: 'unsupported',
        message: `${name} is evaluated as arithmetic, but its value is not known to be a number`,
        span: spanOf(node),
      });
      break;
    }
    return out;
  }
}

const TEXT = new Set(['word', 'raw_string', 'string_content']);
/** A name in arithmetic text, and whether an assignment to it follows (`x=`, `x+=`, not `x==`). */
const TEXT_NAME = /(?<![\w$#])([A-Za-z_]\w*)(\s*(?:[-+*/%&|^]|<<|>>)?=(?!=))?/g;

/** Variables bash itself keeps numeric. */
const NUMERIC_SPECIALS = new Set([
  '#',
  '?',
  '$',
  '!',
  'RANDOM',
  'SRANDOM',
  'LINENO',
  'SECONDS',
  'EPOCHSECONDS',
  'BASHPID',
  'PPID',
  'UID',
  'EUID',
  'OPTIND',
]);

function isNumber(node: Node): boolean {
  if (node.type === 'arithmetic_expansion') return true;
  return /^(?:[-+]?\d+|'[-+]?\d+'|"[-+]?\d+")$/.test(node.text);
}

/** The variable a node reads: `x` in arithmetic, `$x`, `${x}`, `${x:-1}`. */
function variableName(node: Node): string | undefined {
  switch (node.type) {
    case 'variable_name':
      if (node.parent?.type === 'simple_expansion') return undefined;
      if (node.parent?.type === 'expansion' && node.parent.namedChild(0)?.id === node.id) return undefined;
      return /^[A-Za-z_]\w*$/.test(node.text) ? node.text : undefined;
    case 'simple_expansion':
    case 'expansion':
      if (node.text.startsWith('${#')) return undefined;
      return /^\$\{?([A-Za-z_]\w*|[#?$!@*]|\d+)/.exec(node.text)?.[1];
    case 'word':
      return /^[A-Za-z_]\w*$/.test(node.text) && node.parent?.type !== 'command_name' ? node.text : undefined;
    default:
      return undefined;
  }
}

function startsArithmetic(node: Node): boolean {
  switch (node.type) {
    case 'arithmetic_expansion':
    case 'c_style_for_statement':
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

/** Commands that put text from input or arguments into variables. */
function readsIntoVariables(node: Node): boolean {
  if (node.type !== 'command') return false;
  const name = node.childForFieldName('name')?.text ?? '';
  return READERS.has(name);
}
