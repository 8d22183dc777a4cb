import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInFolder } from '../../src/policy/folder-contents.js';
import { PathRuleIndex } from '../../src/policy/path-index.js';
import { locatedPermissionRule } from '../../src/rules/permission/located.js';
import type { PermissionRule } from '../../src/rules/types.js';

function project(files: string[], links: Record<string, string> = {}): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-contents-')));
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), '');
  }
  for (const [at, target] of Object.entries(links)) symlinkSync(target, join(root, at));
  return root;
}

function rulesInside(root: string, texts: string[], folder = root) {
  const rules = texts.map((text, index) => {
    const located = locatedPermissionRule(text, 'deny', { source: 'cliArg', root }, undefined, [
      'deny',
      index,
    ]);
    if (!located.rule) throw new Error(`bad rule ${text}`);
    return located.rule as PermissionRule;
  });
  return new PathRuleIndex(rules, { cwd: root, home: join(root, 'home') }).allInside(folder);
}

describe('looking through a folder for files the rules cover', () => {
  it('finds an existing match at any depth, and reports the first rule in rule order', () => {
    const root = project(['src/a.ts', 'src/deep/.env', 'secrets/key']);
    const rules = rulesInside(root, ['Read(.env)', 'Read(./secrets/**)']);
    expect(rules.map((r) => r.rule.text)).toEqual(['Read(.env)', 'Read(./secrets/**)']);
    const found = findInFolder(root, rules);
    expect(found).toMatchObject({ kind: 'match', entry: { rule: { text: 'Read(.env)' } } });
    expect(found.kind === 'match' && found.path).toBe(join(root, 'src/deep/.env'));
  });

  it('is clear when nothing below matches, and does not follow links', () => {
    const root = project(['src/a.ts', 'outside/.env'], { 'src/link': '../outside' });
    expect(findInFolder(join(root, 'src'), rulesInside(root, ['Read(.env)'], join(root, 'src')))).toEqual({
      kind: 'clear',
    });
  });

  it('leaves out hidden entries when asked to, as rg does without --hidden', () => {
    const root = project(['src/.env', 'src/a.ts', '.hidden/x/.env']);
    const rules = rulesInside(root, ['Read(.env)']);
    expect(findInFolder(root, rules, { skipHidden: true })).toEqual({ kind: 'clear' });
    expect(findInFolder(root, rules)).toMatchObject({ kind: 'match' });
  });

  it('gives up on a folder larger than the limit', () => {
    const root = project(Array.from({ length: 50 }, (_, i) => `d/f${i}`));
    expect(findInFolder(root, rulesInside(root, ['Read(.env)']), { max: 20 })).toEqual({ kind: 'too-many' });
    expect(findInFolder(root, rulesInside(root, ['Read(.env)']), { max: 100 })).toEqual({ kind: 'clear' });
  });

  it('lists only the rules whose folder is an ancestor of the folder or lies below it', () => {
    const root = project(['a/b/c.txt']);
    const rules = rulesInside(
      root,
      ['Read(./a/**)', 'Read(./a/b/c.txt)', 'Read(./z/**)', 'Read(//etc/**)'],
      join(root, 'a'),
    );
    expect(rules.map((r) => r.rule.text)).toEqual(['Read(./a/**)', 'Read(./a/b/c.txt)']);
  });
});
