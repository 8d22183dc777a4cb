import { type Dirent, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type FolderCheck, findInFolder } from '../../src/policy/folder-contents.js';
import { type PathEntry, PathRuleIndex } from '../../src/policy/path-index.js';
import { locatedPermissionRule } from '../../src/rules/permission/located.js';
import type { PermissionRule } from '../../src/rules/types.js';
import { makeFileTree } from '../support/file-tree.js';

/** The walk as it was: every entry against every rule, each rule trying the entry and all its parents. */
function naive(folder: string, rules: readonly PathEntry[], skipHidden = false): FolderCheck {
  const queue = [folder];
  let best: { entry: PathEntry; path: string } | undefined;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (skipHidden && e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      for (const entry of rules) {
        if (best && entry.order >= best.entry.order) break;
        if (entry.compiled.test(path)) best = { entry, path };
      }
      if (e.isDirectory()) queue.push(path);
    }
  }
  return best ? { kind: 'match', ...best } : { kind: 'clear' };
}

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const NAMES = [
  'a',
  'A',
  'b',
  'ab',
  '.env',
  '.ENV',
  '.env.local',
  'x.pem',
  'sec',
  'secrets',
  'node_modules',
  'a.b',
];

function tree(files: string[]): string {
  const root = makeFileTree('automode-matcher-', files);
  roots.push(root);
  return root;
}

const SEGMENTS = [
  'a',
  'A',
  'b',
  'sec*',
  '*',
  '**',
  '?',
  '.env*',
  '*.pem',
  '[ab]',
  '[!a]*',
  'x{a,b}',
  'secrets',
  'a.b',
  '..',
];
const ANCHORS = ['', './', '/', '~/', '//ROOT/', '//'];

const rulesArb = fc.array(
  fc.record({
    anchor: fc.constantFrom(...ANCHORS),
    segments: fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 }),
    dirOnly: fc.boolean(),
  }),
  { minLength: 1, maxLength: 6 },
);
const filesArb = fc.array(fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), {
  minLength: 1,
  maxLength: 14,
});

function index(root: string, specs: string[], nocase: boolean, cwd = join(root, 'a')): PathRuleIndex {
  const rules = specs.map((text, i) => {
    const located = locatedPermissionRule(`Read(${text})`, 'deny', { source: 'cliArg', root }, undefined, [
      'deny',
      i,
    ]);
    if (!located.rule) throw new Error(`bad rule ${text}`);
    return located.rule as PermissionRule;
  });
  return new PathRuleIndex(rules, { cwd, home: join(root, 'sec') }, { nocase });
}

function summary(check: FolderCheck) {
  return check.kind === 'match' ? { kind: check.kind, rule: check.entry.order, path: check.path } : check;
}

describe('the folder walk with rules compiled once', () => {
  it('finds what testing every rule on every entry and its parents finds', () => {
    fc.assert(
      fc.property(filesArb, rulesArb, fc.boolean(), fc.boolean(), (files, specs, nocase, hidden) => {
        const root = tree(files.map((f) => f.join('/')));
        const texts = specs.map(
          (s) => `${s.anchor.replace('ROOT', root.slice(1))}${s.segments.join('/')}${s.dirOnly ? '/' : ''}`,
        );
        const idx = index(root, texts, nocase);
        for (const folder of [root, join(root, 'a'), join(root, 'sec'), join(root, 'A', 'b')]) {
          const rules = idx.allInside(folder);
          const got = findInFolder(folder, rules, { max: 1e9, skipHidden: hidden });
          expect(summary(got)).toEqual(summary(naive(folder, rules, hidden)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('matches case-insensitively for deny rules and exactly for allow rules', () => {
    const root = tree(['src/.ENV', 'src/Secrets/key']);
    for (const nocase of [true, false]) {
      const idx = index(root, ['.env', './src/secrets/**'], nocase, root);
      const got = findInFolder(root, idx.allInside(root));
      expect(got.kind).toBe(nocase ? 'match' : 'clear');
      expect(summary(got)).toEqual(summary(naive(root, idx.allInside(root))));
    }
  });

  it('does not read a folder inside which no rule can match', () => {
    const root = tree(['src/a.ts', 'node_modules/p/q/r/index.js', 'secrets/deep/k.txt']);
    const idx = index(root, ['./secrets/*', '~/x'], true, root);
    // Only `secrets/deep` itself can match `secrets/*`; nothing below node_modules or src can.
    expect(findInFolder(root, idx.allInside(root), { max: 4 })).toMatchObject({
      kind: 'match',
      path: join(root, 'secrets/deep'),
    });
  });
});
