import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { copyTree } from '../../src/bash/copy-tree.js';
import { loadBash, type Node, parseBash } from '../../src/bash/parser.js';
import type { SyntaxNode } from '../../src/bash/syntax.js';

const nl2bash = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);
const cases = readFileSync(new URL('../../fixtures/bash/bash-parse-cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).src as string);

/** Every difference between the copy and the tree-sitter tree, as readable lines. */
function differences(copy: SyntaxNode, node: Node, out: string[]): void {
  const what = `${node.type}@${node.startIndex}`;
  if (copy.type !== node.type) out.push(`${what}: type ${copy.type}`);
  if (copy.isNamed !== node.isNamed) out.push(`${what}: named ${copy.isNamed}`);
  if (copy.isMissing !== node.isMissing) out.push(`${what}: missing ${copy.isMissing}`);
  if (copy.startIndex !== node.startIndex || copy.endIndex !== node.endIndex) {
    out.push(`${what}: span ${copy.startIndex}-${copy.endIndex} vs ${node.startIndex}-${node.endIndex}`);
  }
  // An ERROR leaf reports no error below itself in web-tree-sitter; the copy counts it, which is stricter.
  if (copy.hasError !== (node.hasError || node.type === 'ERROR'))
    out.push(`${what}: hasError ${copy.hasError}`);
  if (copy.childCount !== node.childCount) {
    out.push(`${what}: ${copy.childCount} children vs ${node.childCount}`);
    return;
  }
  for (let i = 0; i < node.childCount; i++) {
    if (copy.fields && copy.fieldNameForChild(i) !== node.fieldNameForChild(i)) {
      out.push(`${what}: field of child ${i} ${copy.fieldNameForChild(i)} vs ${node.fieldNameForChild(i)}`);
    }
    differences(copy.children[i]!, node.child(i)!, out);
  }
}

beforeAll(async () => {
  await loadBash();
});

describe('the plain copy of the tree', () => {
  it('equals the tree-sitter tree on every corpus line: types, spans, errors, children and inferred fields', () => {
    const found: string[] = [];
    for (const src of [...cases, ...nl2bash]) {
      const tree = parseBash(src);
      const before = found.length;
      differences(copyTree(tree, src, Number.POSITIVE_INFINITY).root, tree.rootNode, found);
      if (found.length > before) found.push(`  in ${JSON.stringify(src)}`);
      tree.delete();
      if (found.length > 20) break;
    }
    expect(found).toEqual([]);
  });

  it('stops below the depth limit and says so', () => {
    const src = `echo ${'$('.repeat(300)}x${')'.repeat(300)}`;
    const tree = parseBash(src);
    expect(copyTree(tree, src, 100).tooDeep).toBe(true);
    expect(copyTree(tree, src, Number.POSITIVE_INFINITY).tooDeep).toBe(false);
    tree.delete();
  });
});
