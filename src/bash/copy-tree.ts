import type { Language, Tree, Node as TsNode } from 'web-tree-sitter';
import { SyntaxNode } from './syntax.js';

/**
 * Field names that follow from the child's own type in tree-sitter-bash 0.25.1 (checked against the
 * grammar's answers on the test corpora), saving a call per child for the most common nodes.
 */
/** `undefined` when the type alone does not tell (unnamed tokens, errors): the grammar is asked then. */
const INFERRED_FIELDS: Record<string, (child: SyntaxNode) => string | null | undefined> = {
  command: (c) => {
    if (!c.isNamed || c.type === 'ERROR' || c.type === 'subshell') return undefined;
    if (c.type === 'command_name') return 'name';
    if (c.type.endsWith('_redirect')) return 'redirect';
    return c.type === 'variable_assignment' || c.type === 'comment' ? null : 'argument';
  },
  file_redirect: (c) => {
    if (!c.isNamed || c.type === 'ERROR') return undefined;
    return c.type === 'file_descriptor' ? 'descriptor' : 'destination';
  },
};

/** Node types with fields the analyzer reads; other types skip the per-child field lookup. */
const WITH_FIELDS = new Set([
  'heredoc_redirect',
  'herestring_redirect',
  'redirected_statement',
  'if_statement',
  'elif_clause',
  'while_statement',
  'for_statement',
  'c_style_for_statement',
  'case_statement',
  'case_item',
  'function_definition',
  'variable_assignment',
  'subscript',
  'command_substitution',
  'declaration_command',
]);

/** Node types that never have children in tree-sitter-bash 0.25.1 (anonymous tokens never do either). */
const LEAVES = new Set([
  'word',
  'string_content',
  'raw_string',
  'ansi_c_string',
  'comment',
  'variable_name',
  'special_variable_name',
  'heredoc_content',
  'heredoc_start',
  'heredoc_end',
  'regex',
  'extglob_pattern',
  'file_descriptor',
  'test_operator',
]);

interface TypeTable {
  names: string[];
  named: boolean[];
}

const tables = new WeakMap<Language, TypeTable>();

function typeTable(language: Language): TypeTable {
  let table = tables.get(language);
  if (!table) {
    table = { names: [], named: [] };
    for (let i = 0; i < language.nodeTypeCount; i++) {
      table.names.push(language.nodeTypeForId(i) ?? 'ERROR');
      table.named.push(language.nodeTypeIsNamed(i));
    }
    tables.set(language, table);
  }
  return table;
}

/**
 * Copies a parsed tree; node ids are unique within the copy. Below `maxDepth` levels nothing is copied and
 * `tooDeep` is set, so that nothing recursive ever runs out of stack.
 */
export function copyTree(
  tree: Tree,
  source: string,
  maxDepth: number,
): { root: SyntaxNode; tooDeep: boolean } {
  const table = typeTable(tree.language);
  const withErrors = tree.rootNode.hasError;
  let next = 0;
  let tooDeep = false;
  const copy = (node: TsNode, level: number): SyntaxNode => {
    const typeId = node.typeId;
    const type = typeId === 65535 ? 'ERROR' : (table.names[typeId] ?? node.type);
    const named = typeId === 65535 ? true : (table.named[typeId] ?? node.isNamed);
    const missing = withErrors ? node.isMissing : false;
    const out = new SyntaxNode(next++, type, named, missing, node.startIndex, -1, source);
    out.errorBelow = type === 'ERROR' || missing;
    if (!named || LEAVES.has(type) || level >= maxDepth) {
      if (level >= maxDepth) tooDeep = true;
      out.endIndex = node.endIndex;
      return out;
    }
    const children = node.children;
    const inferred = INFERRED_FIELDS[type];
    if (inferred || WITH_FIELDS.has(type)) out.fields = [];
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (!child) continue;
      const c = copy(child, level + 1);
      out.adopt(c);
      if (out.fields) {
        const known = inferred?.(c);
        out.fields.push(known === undefined ? node.fieldNameForChild(i) : known);
      }
      if (c.errorBelow) out.errorBelow = true;
    }
    const last = out.children[out.children.length - 1];
    out.endIndex = last ? last.endIndex : node.endIndex;
    return out;
  };
  return { root: copy(tree.rootNode, 0), tooDeep };
}
