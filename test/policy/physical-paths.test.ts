import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protectedReason, realPath, resolvePath } from '../../src/policy/paths.js';

const NAMES = ['a', 'b', 'l1', 'l2'];

type Entry =
  | { kind: 'dir' | 'file'; at: string[] }
  | { kind: 'link'; at: string[]; target: string[]; up: number };

const place = fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 3 });
const entry: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({ kind: fc.constantFrom('dir' as const, 'file' as const), at: place }),
  fc.record({
    kind: fc.constant('link' as const),
    at: place,
    target: place,
    up: fc.integer({ min: 0, max: 2 }),
  }),
);

/** A query path: names, `.` and `..` mixed, relative to the tree's `a` folder or absolute. */
const query = fc.array(fc.constantFrom(...NAMES, '..', '..', '.'), { minLength: 1, maxLength: 7 });

function build(entries: Entry[]): string {
  // Two levels down, so that `..` from the tree stays in a folder of our own.
  const root = join(realpathSync(mkdtempSync(join(tmpdir(), 'automode-physical-'))), 'r', 'root');
  mkdirSync(join(root, 'a'), { recursive: true });
  let n = 0;
  for (const e of entries) {
    const at = join(root, ...e.at);
    try {
      if (e.kind === 'link') symlinkSync(join(...Array(e.up).fill('..'), ...e.target), at);
      else if (e.kind === 'dir') mkdirSync(at, { recursive: true });
      else writeFileSync(at, `file ${n++}`);
    } catch {
      // the place is taken, or its folder is a file or missing: the tree is simply different
    }
  }
  return root;
}

/** What the kernel opens for the path as written: its canonical path, or null when it does not exist. */
function kernel(path: string): string | null {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
}

describe('resolvePath applies `..` as the kernel does', () => {
  it('agrees with the kernel on generated trees of folders, files and links, wherever the path exists', () => {
    fc.assert(
      fc.property(
        fc.array(entry, { minLength: 1, maxLength: 14 }),
        fc.array(query, { maxLength: 8 }),
        (entries, queries) => {
          const root = build(entries);
          const cwd = join(root, 'a');
          for (const q of queries) {
            const written = q.join('/');
            const expected = kernel(`${join(cwd, '.')}/${written}`);
            if (expected === null) continue;
            const resolved = resolvePath(written, { cwd, home: root });
            expect(resolved, written).toBeDefined();
            expect(realPath(resolved!), written).toBe(expected);
            if (statSync(expected).isFile()) {
              expect(readFileSync(resolved!, 'utf8'), written).toBe(
                readFileSync(`${cwd}/${written}`, 'utf8'),
              );
            }
          }
        },
      ),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it('follows `..` out of a linked folder to the parent of its target, for `cat` and the Read tool alike', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-physical-')));
    const home = join(root, 'home');
    const proj = join(root, 'proj');
    mkdirSync(join(home, 'lib', 'deep'), { recursive: true });
    mkdirSync(join(home, '.ssh'), { recursive: true });
    writeFileSync(join(home, '.ssh', 'id_rsa'), 'PRIVATE');
    mkdirSync(join(proj, 'a', 'b'), { recursive: true });
    symlinkSync(join(home, 'lib', 'deep'), join(proj, 'a', 'b', 'deps'));
    const ctx = { cwd: proj, home };
    const written = 'a/b/deps/../../.ssh/id_rsa';
    expect(resolvePath(written, ctx)).toBe(join(home, '.ssh', 'id_rsa'));
    expect(execFileSync('cat', [written], { cwd: proj, encoding: 'utf8' })).toBe('PRIVATE');
    expect(resolvePath('a/b/deps/../..', ctx)).toBe(home);
    expect(resolvePath(`~/lib/deep/../../.ssh/id_rsa`, ctx)).toBe(join(home, '.ssh', 'id_rsa'));
    // No link before the `..`: the text is the answer.
    expect(resolvePath('a/b/../b/x', ctx)).toBe(join(proj, 'a', 'b', 'x'));
  });

  it('folds `..` as text only below the last entry that exists', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-physical-')));
    mkdirSync(join(root, 'real', 'in'), { recursive: true });
    symlinkSync(join(root, 'real', 'in'), join(root, 'link'));
    const ctx = { cwd: root, home: root };
    expect(resolvePath('link/new/../x', ctx)).toBe(join(root, 'real', 'in', 'x'));
    expect(resolvePath('link/../new/deeper/../y', ctx)).toBe(join(root, 'real', 'new', 'y'));
    expect(existsSync(join(root, 'real', 'new'))).toBe(false);
  });

  it('cannot tell where `..` leads inside a loop of links', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'automode-physical-')));
    symlinkSync(join(root, 'y'), join(root, 'x'));
    symlinkSync(join(root, 'x'), join(root, 'y'));
    expect(resolvePath('x/../z', { cwd: root, home: root })).toBeUndefined();
  });
});

describe('protected names', () => {
  it('are compared as case-insensitive disks compare them', () => {
    expect(protectedReason('/p/.GIT/config')).toMatch(/\.GIT is a protected folder/);
    expect(protectedReason('/p/.Git/hooks/pre-commit')).toBeDefined();
    expect(protectedReason('/h/.BASHRC')).toBeDefined();
    expect(protectedReason('/p/.g\u200cit/config')).toBeDefined();
    expect(protectedReason('/p/.VSCode/settings.json')).toBeDefined();
  });

  it('cover Claude Code list and the configuration of tools that run code on their next ordinary run', () => {
    for (const path of [
      '/p/.git/config',
      '/p/.claude/settings.json',
      '/p/.vscode/tasks.json',
      '/p/.idea/workspace.xml',
      '/p/.husky/pre-commit',
      '/h/.gitconfig',
      '/p/.gitmodules',
      '/h/.bashrc',
      '/h/.zprofile',
      '/h/.profile',
      '/p/.ripgreprc',
      '/p/.mcp.json',
      '/h/.claude.json',
      '/p/.cargo/config.toml',
      '/h/.cargo/config',
      '/p/.pre-commit-config.yaml',
      '/p/.devcontainer/devcontainer.json',
      '/p/lefthook.yml',
      '/p/.lefthook.yml',
      '/p/lefthook-local.yml',
      '/h/.config/git/config',
      '/h/.config/git/attributes',
      '/p/.envrc',
      '/p/.npmrc',
      '/p/.yarnrc.yml',
      '/p/.pnpmfile.cjs',
      '/h/.cache/automode/compile-cache/v22.23.5-x64-0/x',
      '/h/.cache/automode',
      '/h/.automode/token',
      '/h/.automode/service.json',
      '/h/.automode/auto/0123abcd/service.sock',
    ]) {
      expect(protectedReason(path), path).toBeDefined();
    }
  });

  it('leave ordinary project files alone', () => {
    for (const path of [
      '/p/src/git.ts',
      '/p/.github/workflows/ci.yml',
      '/p/.cargo/registry/x',
      '/h/.cache/pip/x',
      '/p/.config/app.json',
      '/p/Cargo.toml',
      '/p/.claude/worktrees/w/src/a.ts',
    ]) {
      expect(protectedReason(path), path).toBeUndefined();
    }
  });
});
