import { existsSync, lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs';
import { basename, dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import { DYN, type Word } from '../bash/index.js';

export interface PathContext {
  cwd: string;
  home: string;
  /** Symlink targets looked up during this one decision. */
  realPaths?: Map<string, string>;
}

/**
 * Resolves a shell word to an absolute path when that is possible before the command runs: `~`, static
 * `$HOME`/`${HOME}`/`$PWD` prefixes, `..`. Returns undefined for anything else that is dynamic.
 */
export function resolveWordPath(word: Word, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  const value = wordPath(word, ctx, cwd);
  return value === undefined ? undefined : resolvePath(value, ctx, cwd);
}

/** The word as an absolute path with `~` expanded, `..` and `.` left as written. */
export function spelledPath(word: Word, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  const value = wordPath(word, ctx, cwd);
  if (value === undefined) return undefined;
  const p = expandHome(value, ctx);
  return isAbsolute(p) ? p : `${cwd}/${p}`;
}

function wordPath(word: Word, ctx: PathContext, cwd: string): string | undefined {
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
  return /^~[^/]/.test(value) ? undefined : value;
}

/** `~` and `~/x` as text: a `..` after `~/` is left for resolvePath to apply physically. */
function expandHome(value: string, ctx: PathContext): string {
  if (value === '~') return ctx.home;
  return value.startsWith('~/') ? `${ctx.home.replace(/\/+$/, '')}${value.slice(1)}` : value;
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

const DOT_DOT = /(?:^|\/)\.\.(?:\/|$)/;

/**
 * `~` and `~/x` expand to home; relative paths resolve against cwd. `..` is applied as the kernel applies it:
 * to the folder its prefix physically is (after `link/..` comes the parent of the link's target), and only
 * below the last existing entry as text. Undefined when the file system will not say where a prefix leads.
 */
export function resolvePath(value: string, ctx: PathContext, cwd = ctx.cwd): string | undefined {
  const p = expandHome(value, ctx);
  if (!DOT_DOT.test(p)) return isAbsolute(p) ? normalize(p) : resolve(cwd, p);
  return physicalDotDots(isAbsolute(p) ? p : `${cwd}/${p}`, ctx.realPaths);
}

function physicalDotDots(path: string, cache?: Map<string, string>): string | undefined {
  let folder = '/';
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') {
      folder = folder === '/' ? `/${part}` : `${folder}/${part}`;
      continue;
    }
    const real = realPath(folder, cache);
    if (real === undefined) return undefined;
    folder = dirname(real);
  }
  return folder;
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
        // A dangling link: writing through it creates its target. One that cannot be read (`/proc/1/cwd`) leads
        // nowhere known.
        let target: string;
        try {
          target = resolve(dirname(head), readlinkSync(head));
        } catch {
          return undefined;
        }
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

/**
 * Folders whose contents change how the agent, git, an editor or a tool run on the next ordinary command
 * behaves, or that hold credentials: Claude Code's list (.git, .claude, .vscode, .idea, .mvn, .yarn, as of
 * v2.1.240) and more.
 */
const PROTECTED_DIRS = new Set([
  '.git',
  '.claude',
  '.vscode',
  '.idea',
  '.mvn',
  '.yarn',
  '.husky',
  '.devcontainer',
  '.ssh',
  '.gnupg',
  '.aws',
  '.kube',
  '.docker',
  // automode's service: its token, its record and the automatic services of `automode hook --serve`. An agent
  // that wrote them could stand up a service of its own that the hook trusts.
  '.automode',
]);

/** Folders protected only below a parent of a given name: `.config/git` is git's own config folder. */
const PROTECTED_PAIRS = new Map([
  // containers: podman's containers.conf and storage.conf name the helpers it runs (conmon, the runtime, hooks).
  ['.config', new Set(['git', 'fish', 'direnv', 'containers'])],
  ['.cargo', new Set(['config', 'config.toml'])],
  // automode's compile cache: the compiled code its CLI and hook run.
  ['.cache', new Set(['automode'])],
]);

/**
 * Files that run code or change a program on its next ordinary run: Claude Code's list and more. Claude Code's
 * list as of v2.1.240 adds the build tools' wrappers and configuration (Bazel, Bun, Yarn Plug'n'Play, the Gradle
 * and Maven wrappers, a dev container, Pyright), listed first.
 */
const PROTECTED_FILES = new Set([
  '.bazelrc',
  '.bazelversion',
  '.bazeliskrc',
  '.pnp.cjs',
  '.pnp.loader.mjs',
  'bunfig.toml',
  '.bunfig.toml',
  'gradle-wrapper.properties',
  'maven-wrapper.properties',
  '.devcontainer.json',
  'pyrightconfig.json',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.bash_aliases',
  '.profile',
  '.login',
  '.logout',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.kshrc',
  '.cshrc',
  '.tcshrc',
  '.inputrc',
  '.gitconfig',
  '.gitmodules',
  '.ripgreprc',
  '.curlrc',
  '.wgetrc',
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  '.pypirc',
  '.netrc',
  '.mcp.json',
  '.claude.json',
  '.envrc',
  '.git-credentials',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  'authorized_keys',
]);

/**
 * The names `protectedReason` guards at any depth, as data for what protects them elsewhere (the sandbox's
 * write denials): folders, files, and folders protected below a parent (`.config/git`).
 */
export const PROTECTED_NAMES: {
  readonly dirs: readonly string[];
  readonly files: readonly string[];
  readonly nested: readonly string[];
} = {
  dirs: [...PROTECTED_DIRS],
  files: [...PROTECTED_FILES],
  nested: [...PROTECTED_PAIRS].flatMap(([parent, names]) => [...names].map((n) => `${parent}/${n}`)),
};

/**
 * A name as case-insensitive disks (macOS, Windows) compare it: `.GIT` is `.git` there, and HFS+ ignores
 * zero-width characters (`.g\u200cit`).
 */
function foldName(name: string): string {
  return name.replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/g, '').toLowerCase();
}

/** Writing here changes how the agent, the shell, git or editors behave: never auto-allowed. */
export function protectedReason(path: string): string | undefined {
  const parts = path.split(sep).filter(Boolean);
  const names = parts.map(foldName);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (PROTECTED_DIRS.has(name)) {
      if (name === '.claude' && names[i + 1] === 'worktrees') continue;
      return `${parts[i]} is a protected folder`;
    }
    const below = PROTECTED_PAIRS.get(name);
    if (below && i + 1 < names.length && below.has(names[i + 1]!))
      return `${parts[i]}/${parts[i + 1]} is protected`;
  }
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg) && isInside(path, join(xdg, 'git')))
    return `${xdg}/git is git's own config folder`;
  const name = names[names.length - 1] ?? '';
  if (PROTECTED_FILES.has(name)) return `${parts[parts.length - 1]} is a protected file`;
  if (names[0] === 'etc') return '/etc holds system configuration';
  return undefined;
}

/** `rm` of these removes the system, the home folder, or the project and everything above it. */
export function criticalRemoval(path: string, ctx: PathContext): string | undefined {
  if (path === '/') return 'the root folder';
  const parts = path.split(sep).filter(Boolean);
  if (parts.length === 1) return `the top-level folder ${path}`;
  for (const home of physicalToo(ctx.home, ctx)) {
    if (path === home) return 'the home folder';
    if (isInside(home, path)) return 'a parent of the home folder';
  }
  for (const cwd of physicalToo(ctx.cwd, ctx)) {
    if (path === cwd) return 'the working folder';
    if (isInside(cwd, path)) return 'a parent of the working folder';
  }
  return undefined;
}

/** The folder as given and, when links lead elsewhere, where it physically is. */
function physicalToo(folder: string, ctx: PathContext): string[] {
  const real = realPath(folder, ctx.realPaths);
  return real === undefined || real === folder ? [folder] : [folder, real];
}
