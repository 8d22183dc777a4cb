import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandGlob } from '../../src/policy/globs.js';

function tree(files: string[], links: Record<string, string> = {}): string {
  // One level down, so that `..` is a small folder of our own.
  const root = join(realpathSync(mkdtempSync(join(tmpdir(), 'automode-glob-'))), 'root');
  mkdirSync(root);
  for (const f of files) {
    const at = join(root, f);
    try {
      mkdirSync(join(at, '..'), { recursive: true });
      writeFileSync(at, '');
    } catch {
      // a file where a folder should be, or the reverse: the tree is simply different
    }
  }
  for (const [at, target] of Object.entries(links)) symlinkSync(target, join(root, at));
  return root;
}

function expanded(root: string, pattern: string): string[] {
  const e = expandGlob(`${root}/${pattern}`);
  if (e.kind !== 'paths') throw new Error(e.kind);
  return e.paths.map((p) => (p.startsWith(`${root}/`) ? p.slice(root.length + 1) : p)).sort();
}

/** What bash itself expands the pattern to, run in `root`: the oracle. */
function bash(root: string, pattern: string): string[] {
  const out = execFileSync('bash', ['-c', `printf '%s\\0' ${pattern}`], { cwd: root, encoding: 'utf8' });
  return out.split('\0').filter(Boolean).sort();
}

describe('expanding a glob as bash does', () => {
  it('matches names, leaves dot files to patterns that start with a dot, and keeps the pattern when nothing matches', () => {
    const root = tree(['a.ts', 'b.ts', 'c.js', '.env', '.envrc', 'src/x.ts', 'src/y.js', 'lib/z.ts']);
    expect(expanded(root, '*.ts')).toEqual(['a.ts', 'b.ts']);
    expect(expanded(root, '*')).toEqual(['a.ts', 'b.ts', 'c.js', 'lib', 'src']);
    expect(expanded(root, '.e*')).toEqual(['.env', '.envrc']);
    expect(expanded(root, '?.ts')).toEqual(['a.ts', 'b.ts']);
    expect(expanded(root, '[ab].ts')).toEqual(['a.ts', 'b.ts']);
    expect(expanded(root, '[!a].ts')).toEqual(['b.ts']);
    expect(expanded(root, '*/*.ts')).toEqual(['lib/z.ts', 'src/x.ts']);
    expect(expanded(root, '**/*.ts')).toEqual(['lib/z.ts', 'src/x.ts']);
    expect(expanded(root, 'none*')).toEqual(['none*']);
  });

  it('counts . and .. for a pattern like .* (older bash matches them), so the parent folder is never missed', () => {
    const root = tree(['.env']);
    expect(expanded(root, '.*')).toContain('.env');
    // The match is kept as bash passes it (`root/..`): the kernel, not the text, decides which folder it is.
    expect(expandGlob(join(root, '.*'))).toMatchObject({ paths: expect.arrayContaining([`${root}/..`]) });
  });

  it('lists the folder a `..` before the wildcard physically leads to', () => {
    const root = tree(['real/deep/x.txt', 'real/secret.key', 'a/b/keep.txt']);
    symlinkSync(join(root, 'real', 'deep'), join(root, 'a', 'b', 'deps'));
    const found = expandGlob(`${root}/a/b/deps/../*.key`);
    expect(found).toEqual({ kind: 'paths', paths: [`${root}/a/b/deps/../secret.key`] });
  });

  it('gives up on globs that would take too many entries, and on .. after a wildcard', () => {
    const root = tree(Array.from({ length: 30 }, (_, i) => `f${i}`));
    expect(expandGlob(join(root, '*'), 10)).toEqual({ kind: 'too-many' });
    expect(expandGlob(join(root, '*'), 100)).toMatchObject({ kind: 'paths' });
    expect(expandGlob(`${root}/*/../x`)).toEqual({ kind: 'unsupported' });
  });

  it('reads a large folder entry by entry, stopping at the limit', () => {
    const root = tree(Array.from({ length: 1500 }, (_, i) => `a-rather-long-file-name-number-${i}.txt`));
    expect(statSync(root).size).toBeGreaterThan(16_384);
    expect(expandGlob(`${root}/*.txt`, 100)).toEqual({ kind: 'too-many' });
    const all = expandGlob(`${root}/*.txt`);
    expect(all.kind === 'paths' && all.paths.length).toBe(1500);
  });

  it('lists a link itself; where it leads is decided later', () => {
    const root = tree(['real/secret'], { 'key.txt': '/nowhere/id_rsa' });
    mkdirSync(join(root, 'empty'));
    expect(expanded(root, '*.txt')).toEqual(['key.txt']);
  });

  it('names at least every existing file bash names, on generated trees and patterns', () => {
    const name = fc.constantFrom('a', 'b', 'ab', '.a', '.env', 'a.ts', 'b.js', 'x-1', 'A');
    const segment = fc.constantFrom(
      '*',
      '?',
      'a*',
      '*.ts',
      '.a*',
      '[ab]*',
      '[!a]*',
      '?b',
      'a',
      '.e*',
      '[[:upper:]]*',
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 10 }),
        fc.array(segment, { minLength: 1, maxLength: 3 }),
        (paths, segments) => {
          const root = tree(paths.map((p) => p.join('/')));
          const pattern = segments.join('/');
          const ours = new Set(expanded(root, pattern));
          for (const p of bash(root, pattern)) {
            // When nothing matches, bash passes the pattern on as a name that does not exist.
            if (!existsSync(join(root, p))) continue;
            expect(ours.has(p), `${pattern}: ${p}`).toBe(true);
          }
        },
      ),
      { numRuns: 150, seed: 20261129 },
    );
  });
});
