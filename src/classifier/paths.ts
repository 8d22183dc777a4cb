import { existsSync, lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { DYN, type Word } from '../bash/types.js';

export interface PathContext {
  cwd: string;
  home: string;
}

/**
 * Resolves a shell word to an absolute path when that is possible before the command runs: `~`, static
 * `$HOME`/`${HOME}`/`$PWD` prefixes, `..`. Returns undefined for anything else that is dynamic.
 */
export function resolveWordPath(word: Word, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  let value: string;
  if (word.static) {
    value = word.value.startsWith('~') && !word.text.startsWith('~') ? `./${word.value}` : word.value;
  } else {
    if (word.dynamic.some((d) => d !== 'parameter')) return undefined;
    const text = /^[^'\\]*$/.test(word.text) ? word.text.replace(/"/g, '') : '';
    const m = /^\$(?:(HOME|PWD)|\{(HOME|PWD)\})((?:\/[^$`*?[\]{}]*)?)$/.exec(text);
    if (!m) return undefined;
    const name = m[1] ?? m[2];
    value = (name === 'HOME' ? ctx.home : cwd) + (m[3] ?? '');
  }
  if (/^~[^/]/.test(value)) return undefined;
  return resolvePath(value, ctx, cwd);
}

/**
 * For a word whose only unknown part is a glob (`src/*.ts`), the absolute pattern to expand (`~` resolved,
 * `..` left for the expansion to see); undefined when the word holds anything else only known at run time.
 */
export function globPattern(word: Word, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  if (homeGlob(word)) return ctx.home + word.value.slice(DYN.length);
  if (word.dynamic.some((d) => d !== 'glob') || word.value.includes(DYN)) return undefined;
  const value = word.value;
  if (value.startsWith('~')) {
    if (!word.text.startsWith('~') || /^~[^/]/.test(value)) return undefined;
    return ctx.home + value.slice(1);
  }
  return isAbsolute(value) ? value : `${cwd}/${value}`;
}

/** `$HOME/*.txt`, `"${HOME}"/.config/*`: a glob below the home folder, the only expansion being `$HOME`. */
export function homeGlob(word: Word): boolean {
  if (!word.dynamic.includes('glob') || word.dynamic.some((d) => d !== 'glob' && d !== 'parameter'))
    return false;
  if (!/^"?\$(?:HOME|\{HOME\})"?\//.test(word.text)) return false;
  return word.value.startsWith(`${DYN}/`) && !word.value.includes(DYN, DYN.length);
}

/** `~` and `~/x` expand to home; relative paths resolve against cwd; `..` and `.` are folded. */
export function resolvePath(value: string, ctx: PathContext, cwd = ctx.cwd): string {
  let p = value;
  if (p === '~') p = ctx.home;
  else if (p.startsWith('~/')) p = join(ctx.home, p.slice(2));
  return isAbsolute(p) ? normalize(p) : resolve(cwd, p);
}

/**
 * The path with symlinks resolved where the file (or its nearest existing parent) exists. An allow rule must
 * match both the path and this; a deny rule applies when either matches. Undefined when the file system will
 * not say (no permission to look, a loop of links). `cache` holds what this one decision has already looked
 * up; it is never shared between decisions, since a link can be swapped between them.
 */
export function realPath(
  path: string,
  cache?: Map<string, string>,
  hops = 0,
  folders?: Map<string, boolean>,
): string | undefined {
  let head = path;
  const tail: string[] = [];
  const done = (real: string) => {
    cache?.set(head, real);
    return tail.length > 0 ? join(real, ...tail.reverse()) : real;
  };
  for (;;) {
    const known = cache?.get(head);
    if (known !== undefined) return tail.length > 0 ? join(known, ...tail.reverse()) : known;
    const parent = dirname(head);
    if (parent === head) return done(head);
    // Missing entries are walked past with lstat, which reports absence without throwing: a failed realpath
    // costs several times more.
    const entry = entryAt(head);
    if (entry === null) return undefined;
    // What the path itself is, for free: a later "is it a folder?" needs no second look (links excepted).
    if (folders && tail.length === 0 && !entry?.isSymbolicLink())
      folders.set(path, entry?.isDirectory() ?? false);
    if (entry) {
      const link = entry.isSymbolicLink();
      if (link && !existsSync(head) && hops < 40) {
        // A dangling link: writing through it creates its target.
        const target = resolve(dirname(head), readlinkSync(head));
        return realPath(join(target, ...tail.reverse()), cache, hops + 1, folders);
      }
      const realParent = link ? undefined : cache?.get(parent);
      if (realParent !== undefined) return done(join(realParent, basename(head)));
      try {
        return done(realpathSync.native(head));
      } catch {
        return undefined;
      }
    }
    tail.push(basename(head));
    head = parent;
  }
}

/** The entry itself (links not followed); undefined when missing, null when it cannot be looked at. */
function entryAt(path: string): Stats | undefined | null {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // Below a file nothing can exist, nor be created.
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? undefined : null;
  }
}

/** Looks up a folder most paths of a decision lie in (the working folder) once, up front. */
export function seedRealPath(folder: string, cache: Map<string, string>): void {
  if (cache.has(folder)) return;
  try {
    cache.set(folder, realpathSync.native(folder));
  } catch {
    // a missing folder: realPath walks up from it as from any other path
  }
}

/** True when `path` is `folder` or inside it (not a sibling that only shares a prefix). */
export function isInside(path: string, folder: string): boolean {
  if (path === folder) return true;
  const base = folder.endsWith(sep) ? folder : folder + sep;
  return path.startsWith(base);
}

const PROTECTED_DIRS = [
  '.git',
  '.claude',
  '.vscode',
  '.idea',
  '.husky',
  '.ssh',
  '.gnupg',
  '.aws',
  '.kube',
  '.docker',
];
const PROTECTED_FILES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.gitconfig',
  '.gitmodules',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '.netrc',
  '.mcp.json',
  '.envrc',
  '.git-credentials',
  'authorized_keys',
]);

/** Writing here changes how the agent, the shell, git or editors behave: never auto-allowed. */
export function protectedReason(path: string): string | undefined {
  const parts = path.split(sep).filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (PROTECTED_DIRS.includes(part)) {
      if (part === '.claude' && parts[i + 1] === 'worktrees') continue;
      return `${part} is a protected folder`;
    }
  }
  const name = parts[parts.length - 1] ?? '';
  if (PROTECTED_FILES.has(name)) return `${name} is a protected file`;
  if (path.startsWith('/etc/') || path === '/etc') return '/etc holds system configuration';
  return undefined;
}

/** `rm` of these removes the system, the home folder, or the project and everything above it. */
export function criticalRemoval(path: string, ctx: PathContext): string | undefined {
  if (path === '/') return 'the root folder';
  const parts = path.split(sep).filter(Boolean);
  if (parts.length === 1) return `the top-level folder ${path}`;
  if (path === ctx.home) return 'the home folder';
  if (isInside(ctx.home, path)) return `a parent of the home folder`;
  if (path === ctx.cwd) return 'the working folder';
  if (isInside(ctx.cwd, path)) return 'a parent of the working folder';
  return undefined;
}
