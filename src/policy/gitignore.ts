import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** One folder's `.gitignore`, its patterns relative to the folder. */
interface Level {
  dir: string;
  rules: Ignore;
}

/** The `.gitignore` files that apply inside a folder, deepest last; undefined when the folder's contents are all read. */
export type IgnoreStack = readonly Level[] | undefined;

/**
 * Ignore files `rg` reads besides `.gitignore`. `.ignore` and `.rgignore` take precedence over `.gitignore` and
 * may re-include (`!`) what it leaves out, so where one applies nothing is skipped. `.git/info/exclude` and the
 * global excludes file are not read: they come after `.gitignore` and can only leave out more, so not reading
 * them walks more than `rg` reads, never less.
 */
const UNMODELLED = ['.ignore', '.rgignore'];

function readLevel(dir: string): Level | undefined | 'unreadable' {
  const file = join(dir, '.gitignore');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return existsSync(file) ? 'unreadable' : undefined;
  }
  return { dir, rules: ignore({ ignorecase: false }).add(text) };
}

/**
 * The `.gitignore` files that apply to what `rg` finds below `folder`: those from the repository's root down
 * to the folder's parent (the folder's own is read with its entries, by `ignoreStackIn`). Undefined (read everything) outside a git repository, or when a `.ignore` or `.rgignore`
 * sits in the folder or above it, or a `.gitignore` cannot be read.
 */
export function ignoreStackAt(folder: string): IgnoreStack {
  const chain: string[] = [];
  let root: string | undefined;
  for (let at = folder; ; ) {
    chain.push(at);
    if (UNMODELLED.some((name) => existsSync(join(at, name)))) return undefined;
    if (root === undefined && existsSync(join(at, '.git'))) root = at;
    const parent = dirname(at);
    if (parent === at) break;
    at = parent;
  }
  if (root === undefined) return undefined;
  const levels: Level[] = [];
  for (const dir of chain.slice(1, chain.indexOf(root) + 1).reverse()) {
    const level = readLevel(dir);
    if (level === 'unreadable') return undefined;
    if (level) levels.push(level);
  }
  return levels;
}

/** The stack inside `dir`, given the names in it; undefined when `dir` holds an ignore file not modelled. */
export function ignoreStackIn(dir: string, names: readonly string[], above: IgnoreStack): IgnoreStack {
  if (above === undefined) return undefined;
  if (names.some((n) => UNMODELLED.includes(n))) return undefined;
  if (!names.includes('.gitignore')) return above;
  const level = readLevel(dir);
  if (level === 'unreadable') return undefined;
  return level ? [...above, level] : above;
}

/** A `!` line: the file re-includes what it or an earlier one leaves out. */
function negates(file: string): boolean {
  try {
    return /^[ \t]*!/m.test(readFileSync(file, 'utf8'));
  } catch {
    return existsSync(file);
  }
}

/**
 * Whether an ignore file in `dir` may re-include hidden entries: `rg` skips a hidden entry only when no ignore
 * rule matches it, and a `!` rule (in `.gitignore`, `.ignore`, `.rgignore`, or `.git/info/exclude`) that matches
 * one makes `rg` read it. `names` are the folder's entries when they are known.
 */
export function reincludesHidden(dir: string, names?: readonly string[]): boolean {
  const has = (name: string) => (names ? names.includes(name) : existsSync(join(dir, name)));
  for (const name of ['.gitignore', ...UNMODELLED]) if (has(name) && negates(join(dir, name))) return true;
  return has('.git') && negates(join(dir, '.git', 'info', 'exclude'));
}

/** The same, for `folder` or any folder above it. */
export function reincludesHiddenAt(folder: string): boolean {
  for (let at = folder; ; ) {
    if (reincludesHidden(at)) return true;
    const parent = dirname(at);
    if (parent === at) return false;
    at = parent;
  }
}

/**
 * Whether `rg` leaves out the entry `path`, met while walking (its parents were not left out). The deepest
 * `.gitignore` with a pattern matching the entry decides. `ignore` answers "ignored" for a path whose parent
 * folder its patterns exclude; when that parent was kept (a deeper `.gitignore` re-included it, or the walk
 * started inside it) its answer says nothing about the entry, and the entry is kept.
 */
export function isIgnored(stack: IgnoreStack, path: string, isDir: boolean): boolean {
  if (stack === undefined) return false;
  for (let i = stack.length - 1; i >= 0; i--) {
    const level = stack[i]!;
    const rel = path.slice(level.dir.length + (level.dir.endsWith('/') ? 0 : 1));
    try {
      const result = level.rules.test(isDir ? `${rel}/` : rel);
      if (result.unignored) return false;
      if (!result.ignored) continue;
      const cut = rel.lastIndexOf('/');
      return cut < 0 || !level.rules.test(rel.slice(0, cut + 1)).ignored;
    } catch {
      return false;
    }
  }
  return false;
}
