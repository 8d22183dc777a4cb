import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { findInFolder } from '../../src/policy/folder-contents.js';
import { PathRuleIndex } from '../../src/policy/path-index.js';
import { locatedPermissionRule } from '../../src/rules/permission/located.js';
import type { PermissionRule } from '../../src/rules/types.js';
import { makeFileTree } from '../support/file-tree.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: tmpdir(),
  XDG_CONFIG_HOME: join(tmpdir(), 'automode-no-xdg'),
};

const NAMES = ['a', 'b', 'c1', 'c2', 'x.js', 'y.log'];
const PATTERNS = [
  'a',
  'b/',
  '/a',
  '/b/',
  'a/b',
  'a/**',
  '**/b',
  'b/**/c1',
  '*.js',
  'c*',
  '!a',
  '!b/',
  '!/a',
  '!*.js',
  '!c1',
  '!**/c2',
  '!a/b',
  '*',
  '!*/',
  '# c2',
  'x.js/',
];

function tree(files: string[], ignores: Record<string, string[]>): string {
  const root = makeFileTree('automode-gitignore-', files);
  roots.push(root);
  for (const [dir, lines] of Object.entries(ignores)) {
    try {
      mkdirSync(join(root, dir), { recursive: true });
      writeFileSync(join(root, dir, '.gitignore'), `${lines.join('\n')}\n`);
    } catch {
      // The folder is a file in this tree.
    }
  }
  return root;
}

function rulesFor(root: string, paths: string[]) {
  const rules = paths.map((p, i) => {
    const located = locatedPermissionRule(
      `Read(/${join(root, p)})`,
      'deny',
      { source: 'cliArg', root },
      undefined,
      ['deny', i],
    );
    if (!located.rule) throw new Error(`bad rule ${p}`);
    return located.rule as PermissionRule;
  });
  return new PathRuleIndex(rules, { cwd: root, home: join(root, 'home') }, { nocase: false });
}

/** The files below `folder` the walk reaches, found one rule at a time. */
function reached(root: string, folder: string, files: string[], respectGitignore: boolean): string[] {
  const idx = rulesFor(root, files);
  return files.filter((_, i) => {
    const entry = idx.allInside(folder).filter((e) => e.order === i);
    return findInFolder(folder, entry, { max: 1e9, respectGitignore }).kind === 'match';
  });
}

function gitFiles(root: string, folder: string): string[] {
  const out = execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z', '--', folder], {
    cwd: root,
    env: GIT_ENV,
  }).toString();
  return out.split('\0').filter(Boolean);
}

function gitIgnores(root: string, path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: root, env: GIT_ENV });
    return true;
  } catch {
    return false;
  }
}

function existing(root: string): string[] {
  const out = execFileSync('find', ['.', '-type', 'f', '-not', '-path', './.git/*'], {
    cwd: root,
  }).toString();
  return out
    .split('\n')
    .filter(Boolean)
    .map((p) => p.slice(2))
    .sort();
}

const pathArb = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 }).map((p) => p.join('/'));
const ignoresArb = fc.dictionary(
  fc.constantFrom('', 'a', 'b', 'a/b', 'b/c1', 'a/a'),
  fc.array(fc.constantFrom(...PATTERNS), { minLength: 1, maxLength: 4 }),
  { maxKeys: 3 },
);

describe('the folder walk leaves out what git ignores', () => {
  it('reaches exactly the files git lists as untracked and not ignored, from the root and from a subfolder', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { minLength: 1, maxLength: 12 }), ignoresArb, (paths, ignores) => {
        const root = tree(paths, ignores);
        execFileSync('git', ['init', '-q', root], { env: GIT_ENV });
        const files = existing(root);
        for (const sub of ['', 'a', 'b']) {
          const folder = join(root, sub);
          if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) continue;
          const git = gitFiles(root, sub === '' ? '.' : sub).sort();
          const walk = reached(root, folder, files, true);
          // Never fewer than git (a file rg reads must be looked at); the walk keeps more only below a folder
          // a shallower .gitignore excludes and a deeper one re-includes, where it cannot tell.
          expect(git.filter((f) => !walk.includes(f))).toEqual([]);
          const extra = walk.filter((f) => !git.includes(f));
          const negates = Object.values(ignores).some((lines) => lines.some((l) => l.startsWith('!')));
          if (!negates && (sub === '' || !gitIgnores(root, sub))) expect(extra).toEqual([]);
          expect(reached(root, folder, files, false)).toEqual(
            files.filter((f) => sub === '' || f.startsWith(`${sub}/`)),
          );
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('matches git exactly on trees without negations', () => {
    const root = tree(
      [
        'node_modules/p/index.js',
        'src/a.ts',
        'src/build/out.js',
        'build/x',
        'docs/build',
        'a/b/c.log',
        'keep.log',
      ],
      { '': ['node_modules', '/build', '*.log', 'src/**/out.js'], src: ['build/'] },
    );
    execFileSync('git', ['init', '-q', root], { env: GIT_ENV });
    const files = existing(root);
    expect(reached(root, root, files, true)).toEqual(gitFiles(root, '.').sort());
    expect(reached(root, root, files, true)).not.toContain('node_modules/p/index.js');
  });

  it('reads everything outside a git repository, or where an .ignore or .rgignore file sits', () => {
    const plain = tree(['node_modules/p/index.js', 'src/a.ts'], { '': ['node_modules'] });
    expect(reached(plain, plain, existing(plain), true)).toContain('node_modules/p/index.js');
    for (const [where, name] of [
      ['', '.ignore'],
      ['node_modules', '.rgignore'],
      ['', '.rgignore'],
    ] as const) {
      const root = tree(['node_modules/p/index.js', 'src/a.ts', join(where, name)], { '': ['node_modules'] });
      execFileSync('git', ['init', '-q', root], { env: GIT_ENV });
      const files = existing(root);
      const got = reached(root, root, files, true);
      if (where === '') expect(got).toContain('node_modules/p/index.js');
      // An .rgignore inside an ignored folder is never read by rg: the folder is left out.
      else expect(got).not.toContain('node_modules/p/index.js');
    }
  });

  it('reads a folder searched by name even when it is ignored (rg searches a path it is given)', () => {
    const root = tree(['node_modules/p/index.js', 'src/a.ts'], { '': ['node_modules'] });
    execFileSync('git', ['init', '-q', root], { env: GIT_ENV });
    const files = existing(root);
    expect(reached(root, join(root, 'node_modules'), files, true)).toEqual(['node_modules/p/index.js']);
  });
});
