import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PathEntry, PathRuleIndex } from './path-index.js';

/** A history larger than this, or slower to list than this, is not looked through: the caller asks. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const TIMEOUT_MS = 3000;

/**
 * The paths (from the top of the work tree) of every file and folder the repository's history holds: each
 * commit a ref or a reflog entry reaches, stashes and their untracked files included. Undefined when git cannot
 * say in time. git runs with nothing of the repository's configuration that runs a program on this path
 * (rev-list reads no work tree: no filters, no fsmonitor, no pager).
 */
export function historyPaths(top: string): string[] | undefined {
  const r = spawnSync(
    'git',
    ['-c', 'core.fsmonitor=false', '--no-pager', 'rev-list', '--objects', '--all', '--reflog', '--'],
    {
      cwd: top,
      encoding: 'utf8',
      timeout: TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT_BYTES,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  if (r.status !== 0 || r.error) return undefined;
  const paths: string[] = [];
  for (const line of r.stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && space < line.length - 1) paths.push(line.slice(space + 1));
  }
  return paths;
}

/** The top of the work tree a folder lies in: the nearest folder above it holding `.git`. */
function workTreeTop(folder: string): string | undefined {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return undefined;
  }
}

/**
 * What the history of the repository `folder` lies in holds below it that a rule of `index` matches: the first
 * such path, `clear` when none, undefined when that cannot be told (no repository is also clear: git prints no
 * history there).
 */
export function historyMatch(
  folder: string,
  index: PathRuleIndex,
): { kind: 'match'; entry: PathEntry; path: string } | { kind: 'clear' } | undefined {
  const top = workTreeTop(folder);
  if (top === undefined) return { kind: 'clear' };
  const paths = historyPaths(top);
  if (paths === undefined) return undefined;
  const under = folder === top ? '' : `${folder.slice(top.length + 1)}/`;
  for (const p of paths) {
    if (!p.startsWith(under)) continue;
    const path = join(top, p);
    const entry = index.matching(path)[0];
    if (entry) return { kind: 'match', entry, path };
  }
  return { kind: 'clear' };
}
