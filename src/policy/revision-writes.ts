import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { RevisionChange, Word } from '../bash/index.js';
import { indexEntries, trackedPaths } from './git-index.js';

/** The remote-tracking branches named `name`, of any remote; undefined when git cannot list them. */
export function remoteBranches(repo: Repository, name: string): string[] | undefined {
  const refs = git(repo, ['for-each-ref', '--format=%(refname)', `refs/remotes/*/${name}`]);
  return refs?.split('\n').filter(Boolean);
}

/** More paths than this are not checked one by one. */
export const MAX_REVISION_PATHS = 20_000;
/** A git process that takes longer than this leaves the write set unknown. */
const GIT_TIMEOUT_MS = 3_000;

export type RevisionWrites = { kind: 'paths'; paths: string[] } | { kind: 'unknown'; why: string };

export interface Repository {
  /** The top of the work tree. */
  root: string;
  /** The git folder (`.git`, or where a `.git` file points). */
  gitDir: string;
}

/** The repository a folder lies in: the nearest folder above holding `.git`; undefined outside any. */
export function repositoryOf(folder: string): Repository | undefined {
  for (let at = folder; ; at = dirname(at)) {
    const dotGit = join(at, '.git');
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { root: at, gitDir: dotGit };
    if (stat?.isFile()) {
      try {
        const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
        if (m) return { root: at, gitDir: isAbsolute(m[1]!) ? m[1]!.trim() : resolve(at, m[1]!.trim()) };
      } catch {
        return undefined;
      }
    }
    if (dirname(at) === at) return undefined;
  }
}

/**
 * The environment automode runs git in to read a repository: the user's PATH, home and XDG config, no prompt, no
 * optional locks, the C locale, and the repository's own git directory.
 */
export function gitEnvironment(repo: Repository): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_DIR: repo.gitDir,
    LC_ALL: 'C',
  };
  if (process.env.XDG_CONFIG_HOME) env.XDG_CONFIG_HOME = process.env.XDG_CONFIG_HOME;
  return env;
}

/**
 * git with every program it could run turned off: no pager, no fsmonitor, no hooks, no external diff or
 * textconv, no signature checks, no prompts; only commands that read objects (rev-parse, diff-tree, log
 * --name-only, ls-tree, for-each-ref). Undefined when git fails or runs out of time.
 */
function git(repo: Repository, args: string[]): string | undefined {
  const env = gitEnvironment(repo);
  env.GIT_CONFIG_NOSYSTEM = '1';
  env.GIT_WORK_TREE = repo.root;
  const result = spawnSync(
    'git',
    [
      '--no-pager',
      '-c',
      'core.fsmonitor=false',
      '-c',
      'core.hooksPath=/dev/null',
      '-c',
      'log.showSignature=false',
      '-c',
      'diff.external=',
      ...args,
    ],
    { cwd: repo.root, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024, encoding: 'utf8' },
  );
  if (result.error || result.status !== 0) return undefined;
  return result.stdout;
}

/** A revision as git would read it from the command line; undefined when the word could be an option. */
function revisionText(word: Word): string | undefined {
  if (!word.static || word.value === '' || word.value.startsWith('-')) return undefined;
  return /[\u0000-\u001f\s]/.test(word.value) ? undefined : word.value;
}

/** The commit a revision names, or undefined when the repository holds none of that name. */
export function commitOf(repo: Repository, rev: string): string | undefined {
  return git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`])?.trim() || undefined;
}

function names(output: string | undefined): string[] | undefined {
  return output?.split('\0').filter((name) => name !== '');
}

const DIFF = ['--no-renames', '--no-ext-diff', '--no-textconv', '--name-only', '-z'];

/** The paths that differ between HEAD and `commit` (every path of `commit` when HEAD is unborn). */
function between(repo: Repository, commit: string): string[] | undefined {
  const head = commitOf(repo, 'HEAD');
  if (!head) return names(git(repo, ['ls-tree', '-r', '--name-only', '-z', commit]));
  return names(git(repo, ['diff-tree', '-r', ...DIFF, head, commit]));
}

/** The tracked files whose stat differs from the index (or that are gone): what a move that discards overwrites. */
function modified(repo: Repository): string[] | undefined {
  const entries = indexEntries(repo.gitDir);
  if (!entries) return existsSync(join(repo.gitDir, 'index')) ? undefined : [];
  const out: string[] = [];
  for (const e of entries) {
    if ((e.mode & 0o170000) === 0o160000) continue;
    const stat = lstatSync(join(repo.root, e.path), { throwIfNoEntry: false });
    if (!stat || stat.size !== e.size || Math.floor(stat.mtimeMs / 1000) !== e.mtimeSeconds) out.push(e.path);
  }
  return out;
}

/** One change's paths relative to the top of the work tree; a string says why they cannot be known. */
function changePaths(repo: Repository, change: RevisionChange): string[] | string {
  const resolveRev = (word: Word): string | undefined => {
    const text = revisionText(word);
    return text === undefined ? undefined : commitOf(repo, text);
  };
  switch (change.kind) {
    case 'modified':
      return modified(repo) ?? 'the index cannot be read';
    case 'tracked': {
      const tracked = trackedPaths(repo.gitDir);
      if (tracked) return [...tracked];
      return existsSync(join(repo.gitDir, 'index')) ? 'the index cannot be read' : [];
    }
    case 'between': {
      // One git process in the common case: HEAD and the target resolved by diff-tree itself.
      const text = revisionText(change.to);
      const direct =
        text === undefined
          ? undefined
          : names(git(repo, ['diff-tree', '-r', ...DIFF, 'HEAD', `${text}^{commit}`]));
      if (direct) return direct;
      let commit = resolveRev(change.to);
      if (!commit && change.guess && revisionText(change.to)) {
        const found = remoteBranches(repo, change.to.value) ?? [];
        if (found.length === 1) commit = commitOf(repo, found[0]!);
      }
      if (!commit) return change.orPath ? [] : `${change.to.text} names no commit this repository holds yet`;
      return between(repo, commit) ?? 'git could not compare the trees';
    }
    case 'files': {
      const commit = resolveRev(change.of);
      if (!commit) return `${change.of.text} names no commit this repository holds yet`;
      return (
        names(git(repo, ['ls-tree', '-r', '--name-only', '-z', commit])) ?? 'git could not list the tree'
      );
    }
    case 'rebase': {
      const commit = resolveRev(change.onto);
      if (!commit) return `${change.onto.text} names no commit this repository holds yet`;
      const moved = between(repo, commit);
      const replayed = names(git(repo, ['log', '--format=', ...DIFF, `${commit}..HEAD`]));
      if (!moved || !replayed) return 'git could not list the commits';
      return [...moved, ...replayed];
    }
    case 'commits': {
      const out: string[] = [];
      for (const word of change.commits) {
        const text = revisionText(word);
        if (text === undefined) return `${word.text} is only known at run time`;
        const listed = text.includes('..')
          ? names(git(repo, ['log', '--format=', ...DIFF, text]))
          : names(git(repo, ['diff-tree', '-r', '-m', '--root', '--no-commit-id', ...DIFF, text]));
        if (!listed) return `${word.text} names no commit this repository holds yet`;
        out.push(...listed);
      }
      return out;
    }
    case 'stash': {
      const text = change.stash ? revisionText(change.stash) : 'stash@{0}';
      if (text === undefined) return 'the stash is only known at run time';
      const stash = commitOf(repo, text);
      if (!stash) return `${text} names no stash`;
      const changed = names(git(repo, ['diff-tree', '-r', ...DIFF, `${stash}^1`, stash]));
      if (!changed) return 'git could not read the stash';
      const untracked = commitOf(repo, `${stash}^3`);
      const added = untracked ? names(git(repo, ['ls-tree', '-r', '--name-only', '-z', untracked])) : [];
      return [...changed, ...(added ?? [])];
    }
  }
}

/**
 * The files a revision move writes into the work tree of `repo`, as absolute paths, a superset read from the
 * repository without running any program it configures; `within` keeps those below the given absolute paths.
 */
export function revisionWrites(
  repo: Repository,
  changes: readonly RevisionChange[],
  within: readonly string[] | undefined,
  resolveWithin: (word: Word) => string | undefined,
): RevisionWrites {
  const out = new Set<string>();
  for (const change of changes) {
    const paths = changePaths(repo, change);
    if (typeof paths === 'string') return { kind: 'unknown', why: paths };
    let limit = within;
    if (change.kind === 'modified' && change.within) {
      const resolved = change.within.map(resolveWithin);
      if (resolved.some((p) => p === undefined))
        return { kind: 'unknown', why: 'a path is only known at run time' };
      limit = resolved as string[];
    }
    for (const p of paths) {
      const abs = join(repo.root, p);
      if (limit && !limit.some((w) => abs === w || abs.startsWith(`${w}/`) || w === '/')) continue;
      out.add(abs);
    }
    if (out.size > MAX_REVISION_PATHS)
      return { kind: 'unknown', why: `it writes more than ${MAX_REVISION_PATHS} files` };
  }
  return { kind: 'paths', paths: [...out] };
}
