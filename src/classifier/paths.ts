import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
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
 * For a word whose only unknown part is a glob (`src/*.ts`), the folder the matches are in: everything the
 * glob can match lies inside it.
 */
export function globBase(word: Word, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  if (word.dynamic.some((d) => d !== 'glob') || word.value.includes(DYN)) return undefined;
  const first = word.value.search(/[*?[]/);
  const head = first < 0 ? word.value : word.value.slice(0, first);
  const folder = head.includes('/') ? head.slice(0, head.lastIndexOf('/') + 1) : '.';
  if (folder.startsWith('~') && !word.text.startsWith('~')) return undefined;
  if (/^~[^/]/.test(folder)) return undefined;
  return resolvePath(folder, ctx, cwd);
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
 * match both the path and this; a deny rule applies when either matches.
 */
export function realPath(path: string, cache?: Map<string, string>, hops = 0): string {
  let head = path;
  const tail: string[] = [];
  const done = (real: string) => {
    cache?.set(head, real);
    return tail.length > 0 ? join(real, ...tail.reverse()) : real;
  };
  for (;;) {
    const known = cache?.get(head);
    if (known !== undefined) return tail.length > 0 ? join(known, ...tail.reverse()) : known;
    const entry = lstatSync(head, { throwIfNoEntry: false });
    if (entry) {
      if (entry.isSymbolicLink() && !existsSync(head) && hops < 40) {
        // A dangling link: writing through it creates its target.
        const target = resolve(dirname(head), readlinkSync(head));
        return realPath(join(target, ...tail.reverse()), cache, hops + 1);
      }
      try {
        return done(realpathSync.native(head));
      } catch {
        return path;
      }
    }
    const parent = dirname(head);
    if (parent === head) return path;
    tail.push(basename(head));
    head = parent;
    // The usual case: a new file in a folder that exists. One call settles it; anything odd takes the long way.
    const cachedParent = cache?.get(head);
    if (cachedParent === undefined) {
      try {
        return done(realpathSync.native(head));
      } catch {
        // missing or a dangling link: look at it with lstat below
      }
    }
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
