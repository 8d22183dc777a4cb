import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { type RuffLine, ruffCheckLine } from '../../bash/index.js';
import type { ProjectPlace } from './place.js';
import { readBounded } from './read.js';

/** Settings of ruff's that make `ruff check` write: fixing, its cache's place, and what it walks. */
const RUFF_WRITES = new Set(['fix', 'fix-only', 'cache-dir', 'exclude']);

/** Folders ruff leaves out by default (its `exclude`): configuration files below them are never read. */
const RUFF_SKIPS = new Set(
  (
    '.bzr .direnv .eggs .git .git-rewrite .hg .ipynb_checkpoints .mypy_cache .nox .pants.d .pyenv ' +
    '.pytest_cache .pytype .ruff_cache .svn .tox .venv .vscode __pypackages__ _build buck-out dist node_modules ' +
    'site-packages venv'
  ).split(' '),
);

/** The most folders looked through below the paths a check names; a larger tree is not decided. */
const MAX_FOLDERS = 5000;

const RUFF_FILES = ['.ruff.toml', 'ruff.toml', 'pyproject.toml'];

/**
 * Why a `ruff check` may write, from the configuration files it reads (ruff's "Config file discovery"): the
 * closest `.ruff.toml`, `ruff.toml` or `pyproject.toml` with a `[tool.ruff]` table in the working folder or above
 * (the user's `~/.config/ruff` when there is none), each file in a folder below the paths checked (hierarchical
 * configuration), and every file they `extend`. Every such file is read here, closest or not: one that says
 * `fix = true` (or `fix-only`) rewrites the files checked, `cache-dir` moves the cache out of `.ruff_cache`,
 * `exclude` replaces the folders skipped. The default cache, `.ruff_cache` beside the configuration or in the
 * working folder, is ruff's own record of results it writes inside the project: a working folder outside the
 * project is not decided. Undefined when nothing in them writes.
 */
export function ruffConfig(
  line: RuffLine | 'unknown' | undefined,
  cwds: readonly string[] | undefined,
  home: string,
  root: string | undefined,
): string | undefined {
  if (line === undefined || (line !== 'unknown' && line.noFix && line.noCache)) return undefined;
  if (line === 'unknown')
    return 'ruff check names a path only known at run time, below which its configuration may turn fixing on';
  if (!cwds) return 'ruff’s configuration in a folder only known at run time may turn fixing on';
  const files = new Set<string>();
  for (const cwd of cwds) {
    if (!line.noCache && !(root && (cwd === root || cwd.startsWith(`${root}${sep}`))))
      return `ruff writes its cache in ${cwd}, outside the project`;
    if (line.isolated) continue;
    let used: string | undefined;
    for (let at = cwd; ; at = dirname(at)) {
      for (const name of RUFF_FILES) {
        const file = join(at, name);
        files.add(file);
        if (used === undefined && usedByRuff(file)) used = at;
      }
      if (dirname(at) === at) break;
    }
    if (!line.noCache && used !== undefined && !(root && (used === root || used.startsWith(`${root}${sep}`))))
      return `ruff writes its cache beside ${used}'s configuration, outside the project`;
    const config = process.env.XDG_CONFIG_HOME || join(home, '.config');
    for (const name of RUFF_FILES) files.add(join(config, 'ruff', name));
    let budget = MAX_FOLDERS;
    for (const path of line.paths) {
      const top = resolve(cwd, path);
      const below = foldersBelow(top, budget);
      if (below === undefined)
        return `${top} holds more folders than are looked through for ruff’s configuration`;
      budget -= below.length;
      for (const folder of below) for (const name of RUFF_FILES) files.add(join(folder, name));
    }
  }
  for (const file of files) {
    const problem = ruffFileProblem(file, line, new Set());
    if (problem) return problem;
  }
  return undefined;
}

/** Whether ruff takes its settings from the file: any ruff.toml, a pyproject.toml with a [tool.ruff] table. */
function usedByRuff(file: string): boolean {
  const text = readBounded(file);
  if (text === undefined) return false;
  if (!file.endsWith('pyproject.toml') || text instanceof Error) return true;
  return /^\s*\[\s*tool\.ruff\b/m.test(text);
}

/** Every folder at or below `top` ruff would walk (its default excludes left out); undefined past `budget`. */
function foldersBelow(top: string, budget: number): string[] | undefined {
  const found: string[] = [];
  const queue = [top];
  while (queue.length > 0) {
    const folder = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    found.push(folder);
    if (found.length > budget) return undefined;
    for (const entry of entries)
      if (entry.isDirectory() && !RUFF_SKIPS.has(entry.name)) queue.push(join(folder, entry.name));
  }
  return found;
}

/** Why one configuration file (or one it extends) makes `ruff check` write; undefined when it does not. */
function ruffFileProblem(file: string, line: RuffLine, seen: Set<string>): string | undefined {
  if (seen.has(file)) return undefined;
  seen.add(file);
  const content = readBounded(file);
  if (content === undefined) return undefined;
  if (content instanceof Error) return `${file} cannot be read`;
  const pyproject = file.endsWith(`${sep}pyproject.toml`) || file === 'pyproject.toml';
  let table = pyproject ? undefined : '';
  for (const raw of content.split(/\r?\n/)) {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const header = /^\[\[?\s*([^\]]*?)\s*\]\]?\s*(?:#.*)?$/.exec(text);
    if (text.startsWith('[') && header) {
      const name = header[1]!.replace(/["']/g, '');
      if (pyproject)
        table = name === 'tool.ruff' || name.startsWith('tool.ruff.') ? name.slice(9) : undefined;
      else table = name;
      continue;
    }
    const key = /^["']?([A-Za-z0-9_.-]+)["']?\s*=\s*(.*)$/.exec(text);
    if (!key) continue;
    const [name, value] = [key[1]!, key[2]!.trim()];
    if (pyproject && table === undefined) {
      // `[tool]` with `ruff = { … }` or `ruff.fix = …`, or `tool.ruff…` at the top.
      if (/^(?:tool\.)?ruff(?:\.|$)/.test(name)) return `${file} sets ${name} outside a [tool.ruff] table`;
      continue;
    }
    if (table !== '') continue;
    if (name === 'extend') {
      const target = /^["']([^"']*)["']\s*(?:#.*)?$/.exec(value)?.[1];
      if (target === undefined) return `${file} extends a configuration ruff reads at run time`;
      const path = target.startsWith('~')
        ? target
        : isAbsolute(target)
          ? target
          : join(dirname(file), target);
      if (path.startsWith('~')) return `${file} extends ${target}, in the user's home`;
      const extended = readBounded(path);
      if (extended === undefined) return `${file} extends ${target}, which is not there`;
      const problem = ruffFileProblem(path, line, seen);
      if (problem) return problem;
      continue;
    }
    if ((name === 'fix' || name === 'fix-only') && (line.noFix || /^false\s*(?:#.*)?$/.test(value))) continue;
    if (name === 'cache-dir' && line.noCache) continue;
    if (RUFF_WRITES.has(name)) return `${file} sets ${name}: ruff check may rewrite files or write elsewhere`;
  }
  return undefined;
}

/** `ruff check` as the line gives it, against the configuration files it would read. */
export function ruffSettings({ cmd, cwds, ctx }: ProjectPlace): string | undefined {
  return ruffConfig(ruffCheckLine(cmd.argv), cwds, ctx.home, ctx.root);
}
