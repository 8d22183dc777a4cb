import path from 'node:path';
import picomatch from 'picomatch';
import type { PathPattern, PermissionRule } from '../types.js';

export interface PathContext {
  cwd: string;
  home: string;
  /**
   * The session's project root, where `path` and `./path` patterns are anchored as Claude Code anchors them (its
   * start folder, not the folder a command has moved to); the call's `cwd` when unknown.
   */
  root?: string;
}

/** Parses a gitignore-style path specifier; `root` is the settings file's root for `/x` patterns. */
export function parsePathPattern(specifier: string, root?: string): PathPattern {
  const source = specifier.trim();
  const [anchor, rest] = splitAnchor(source);
  const directoryOnly = rest.length > 1 && rest.endsWith('/');
  const glob = directoryOnly ? rest.replace(/\/+$/, '') : rest;
  const pattern: PathPattern = {
    source,
    anchor,
    glob,
    anyDepth: anchor === 'cwd' && !source.startsWith('./') && glob !== '' && !glob.includes('/'),
    directoryOnly,
  };
  if (anchor === 'root' && root !== undefined) pattern.root = root;
  return pattern;
}

function splitAnchor(source: string): [PathPattern['anchor'], string] {
  if (source.startsWith('//')) return ['absolute', source.slice(2)];
  if (source === '~') return ['home', ''];
  if (source.startsWith('~/')) return ['home', source.slice(2)];
  if (source.startsWith('/')) return ['root', source.slice(1)];
  if (source.startsWith('./')) return ['cwd', source.slice(2)];
  return ['cwd', source];
}

type PathRuleLike = PathPattern | { pattern: PathPattern } | Pick<PermissionRule, 'parsed'>;

/**
 * Whether an absolute path is covered by a path rule. A pattern also covers everything inside a directory it
 * matches (gitignore semantics), so every ancestor of the path inside the anchor is tried too.
 */
export function matchPathRule(rule: PathRuleLike, absolutePath: string, ctx: PathContext): boolean {
  const pattern = toPattern(rule);
  if (!pattern) return false;
  return compilePathPattern(pattern, ctx).test(absolutePath);
}

export interface CompiledPathPattern {
  glob: string;
  /** The folder every match lies in or below: the glob's literal head. */
  base: string;
  /** The glob after `base` and its slash, as written in `glob` (escapes kept); empty when the glob is literal. */
  rest: string;
  directoryOnly: boolean;
  nocase: boolean;
  test(absolutePath: string): boolean;
  /** The glob against this one absolute, normalised path only, none of its parents. */
  matchOne(absolutePath: string): boolean;
}

/**
 * The pattern resolved against a working folder and home, ready to test many paths. `nocase` compares names
 * as case-insensitive disks do (`.ENV` is `.env` on macOS and Windows): right for deny and ask rules, which
 * must not miss the file; allow rules stay exact.
 */
export function compilePathPattern(
  pattern: PathPattern,
  ctx: PathContext,
  options: { nocase?: boolean } = {},
): CompiledPathPattern {
  const glob = absoluteGlob(pattern, ctx);
  const matcher = compile(glob, options.nocase === true);
  const { base, rest } = literalHead(glob);
  return {
    glob,
    base,
    rest,
    directoryOnly: pattern.directoryOnly,
    nocase: options.nocase === true,
    matchOne: matcher,
    test(absolutePath) {
      const target = path.posix.resolve(ctx.cwd, absolutePath);
      let candidate = pattern.directoryOnly ? path.posix.dirname(target) : target;
      for (;;) {
        if (matcher(candidate)) return true;
        const parent = path.posix.dirname(candidate);
        if (parent === candidate) return false;
        candidate = parent;
      }
    },
  };
}

/** The folder part of a glob before its first wildcard, with escapes removed, and the glob after it. */
function literalHead(glob: string): { base: string; rest: string } {
  let head = '';
  let slash = -1;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\') {
      if (glob[i + 1] === '/') slash = i + 1;
      head += glob[++i] ?? '';
      continue;
    }
    if ('*?[{'.includes(c)) {
      const cut = head.lastIndexOf('/');
      return { base: cut <= 0 ? '/' : head.slice(0, cut), rest: glob.slice(slash + 1) };
    }
    if (c === '/') slash = i;
    head += c;
  }
  return { base: head, rest: '' };
}

function toPattern(rule: PathRuleLike): PathPattern | undefined {
  if ('parsed' in rule) return rule.parsed.kind === 'path' ? rule.parsed.pattern : undefined;
  if ('pattern' in rule) return rule.pattern;
  return rule;
}

/** The pattern as one absolute glob, with the anchor folder escaped so its name is taken literally. */
export function absoluteGlob(pattern: PathPattern, ctx: PathContext): string {
  let base = anchorFolder(pattern, ctx);
  let relative = path.posix.normalize(pattern.anyDepth ? `**/${pattern.glob}` : pattern.glob || '**');
  while (relative === '..' || relative.startsWith('../')) {
    base = path.posix.dirname(base);
    relative = relative.slice(3) || '**';
  }
  if (relative === '.') relative = '**';
  return `${escapeGlob(base).replace(/\/$/, '')}/${escapeLiterals(relative)}`;
}

function anchorFolder(pattern: PathPattern, ctx: PathContext): string {
  switch (pattern.anchor) {
    case 'absolute':
      return '/';
    case 'home':
      return path.posix.resolve(ctx.home);
    case 'root':
      return path.posix.resolve(pattern.root ?? ctx.cwd);
    case 'cwd':
      return path.posix.resolve(ctx.root ?? ctx.cwd);
  }
}

/** Characters picomatch treats specially but gitignore does not. */
function escapeLiterals(glob: string): string {
  return glob.replace(/[(){}!+@|^$]/g, '\\$&');
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\(){}!+@|^$]/g, '\\$&');
}

const matchers = new Map<string, (p: string) => boolean>();

function compile(glob: string, nocase: boolean): (p: string) => boolean {
  const key = nocase ? `i${glob}` : `s${glob}`;
  let matcher = matchers.get(key);
  if (!matcher) {
    // picomatch's `/**/x` needs at least one folder between: at the root (`/.env`) it needs none.
    const source = glob.startsWith('/**/') ? glob.slice(1) : glob;
    matcher = picomatch(source, { dot: true, nobrace: true, noextglob: true, nocase });
    matchers.set(key, matcher);
  }
  return matcher;
}
