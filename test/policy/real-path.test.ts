import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { realPath, seedRealPath } from '../../src/policy/paths.js';

/**
 * The kernel's walk, one component at a time: an existing prefix is resolved through every link, a dangling
 * link is followed to the target that writing through it would create, and below the first missing entry the
 * rest is taken as written (nothing exists below a file either). Null for link loops.
 */
function reference(path: string): string | null {
  const parts = path.split('/').filter(Boolean);
  let cur = '/';
  let hops = 0;
  while (parts.length > 0) {
    const next = join(cur, parts.shift()!);
    const entry = lstatSync(next, { throwIfNoEntry: false });
    if (!entry) return join(next, ...parts);
    if (entry.isFile() && parts.length > 0) return join(next, ...parts);
    if (entry.isSymbolicLink()) {
      if (++hops > 30) return null;
      parts.unshift(...resolve(cur, readlinkSync(next)).split('/').filter(Boolean));
      cur = '/';
      continue;
    }
    cur = next;
  }
  return cur;
}

const NAMES = ['a', 'b', 'c', 'l1', 'l2', 'new'];

type Entry =
  | { kind: 'dir' | 'file'; at: string[] }
  | { kind: 'link'; at: string[]; target: string[]; absolute: boolean; up: boolean };

const place = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 });
const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constantFrom('dir' as const, 'file' as const), at: place }),
  fc.record({
    kind: fc.constant('link' as const),
    at: place,
    target: place,
    absolute: fc.boolean(),
    up: fc.boolean(),
  }),
);

function build(entries: Entry[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-realpath-')));
  for (const e of entries) {
    const at = join(root, ...e.at);
    try {
      if (e.kind === 'link') {
        const target = e.absolute ? join(root, ...e.target) : join(e.up ? '..' : '.', ...e.target);
        symlinkSync(target, at);
      } else if (e.kind === 'dir') {
        mkdirSync(at, { recursive: true });
      } else {
        writeFileSync(at, '');
      }
    } catch {
      // the place is taken, or its folder is a file or missing: the tree is simply different
    }
  }
  return root;
}

describe('realPath', () => {
  it('agrees with a component-by-component walk on generated trees of folders, files and links', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 14 }),
        fc.array(place, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (entries, queries, seeded) => {
          const root = build(entries);
          const cache = new Map<string, string>();
          if (seeded) seedRealPath(join(root, 'a'), cache);
          for (const q of queries) {
            const path = join(root, ...q);
            const expected = reference(path);
            if (expected === null) {
              expect(realPath(path), `${path} is in a loop of links`).toBeUndefined();
              continue;
            }
            expect(realPath(path), path).toBe(expected);
            expect(realPath(path, cache), `${path} (with the decision's cache)`).toBe(expected);
          }
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });

  it('cannot tell where a loop of links leads', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-realpath-')));
    symlinkSync(join(root, 'b'), join(root, 'a'));
    symlinkSync(join(root, 'a'), join(root, 'b'));
    expect(realPath(join(root, 'a'))).toBeUndefined();
    expect(realPath(join(root, 'a', 'x'))).toBeUndefined();
  });

  it('takes a path below a file as a file that does not exist', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-realpath-')));
    writeFileSync(join(root, 'f'), '');
    expect(realPath(join(root, 'f', 'x', 'y'))).toBe(join(root, 'f', 'x', 'y'));
  });

  it('seeds nothing for a folder that does not exist', () => {
    const cache = new Map<string, string>();
    seedRealPath('/no/such/folder/anywhere', cache);
    expect(cache.size).toBe(0);
    expect(realPath('/no/such/folder/anywhere/x', cache)).toBe('/no/such/folder/anywhere/x');
  });
});
