import { type Dirent, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import picomatch from 'picomatch';
import {
  type IgnoreStack,
  ignoreStackAt,
  ignoreStackIn,
  isIgnored,
  reincludesHidden,
  reincludesHiddenAt,
} from './gitignore.js';
import type { PathEntry } from './path-index.js';

/** Entries looked at below a folder before it is given up as too large to check. */
export const MAX_FOLDER_ENTRIES = 10_000;

export type FolderCheck =
  | { kind: 'match'; entry: PathEntry; path: string }
  | { kind: 'too-many' }
  | { kind: 'clear' };

/**
 * How a rule's glob meets a path strictly below its base, so that an entry is tested once, on its own:
 * `exact` and `all` (`base/**`) never decide there (their base, met as an entry, does), `name` (`base/**\/x*`)
 * tests the entry's name, `fixed` (no `**`) the whole path at one depth only, `deep` the whole path.
 */
type Shape = 'exact' | 'all' | 'name' | 'fixed' | 'deep';

interface Prepared {
  entry: PathEntry;
  order: number;
  /** `base` with a trailing slash, lower-cased when the rule ignores case. */
  under: string;
  nocase: boolean;
  dirOnly: boolean;
  shape: Shape;
  /** `fixed`: how many names the glob has below the base. */
  segments: number;
  /** `name`: the glob of the last name. */
  name?: (name: string) => boolean;
  /** The name every path the glob matches ends in, when the glob's last name is literal (lower-cased as `under`). */
  last?: string;
}

const MAGIC = /[*?[\\]/;
/** A name with none of the characters a glob (or its escapes) gives a meaning to: it matches only itself. */
const LITERAL_NAME = /^(?!\.+$)[\w.~%=,-]+$/;

const prepared = new WeakMap<PathEntry, Prepared>();

function prepare(entry: PathEntry): Prepared {
  let p = prepared.get(entry);
  if (!p) {
    p = prepareNew(entry);
    prepared.set(entry, p);
  }
  return p;
}

function prepareNew(entry: PathEntry): Prepared {
  const c = entry.compiled;
  const base = c.nocase ? c.base.toLowerCase() : c.base;
  const p: Prepared = {
    entry,
    order: entry.order,
    under: base.endsWith('/') ? base : `${base}/`,
    nocase: c.nocase,
    dirOnly: c.directoryOnly,
    shape: 'deep',
    segments: 0,
  };
  const last = c.glob.slice(c.glob.lastIndexOf('/') + 1);
  if (LITERAL_NAME.test(last)) p.last = c.nocase ? last.toLowerCase() : last;
  const rest = c.rest;
  if (rest === '') p.shape = 'exact';
  else if (rest === '**') p.shape = 'all';
  else if (rest.startsWith('**/') && !rest.slice(3).includes('/') && !rest.slice(3).includes('**')) {
    p.shape = 'name';
    p.name = picomatch(rest.slice(3), { dot: true, nobrace: true, noextglob: true, nocase: c.nocase });
  } else if (!rest.includes('**') && !rest.includes('[') && !rest.includes('\\')) {
    p.shape = 'fixed';
    p.segments = rest.split('/').length;
  }
  return p;
}

/** Whether an entry of this name can match the glob: false only when its literal last name is another. */
function named(p: Prepared, name: string, lower: string): boolean {
  return p.last === undefined || p.last === (p.nocase ? lower : name);
}

function isUnder(p: Prepared, path: string, lower: string): boolean {
  return (p.nocase ? lower : path).startsWith(p.under);
}

/** Names below the base `depth` (`a/b` below `/x` of `/x/a/b` is 2). */
function depthBelow(p: Prepared, path: string): number {
  let n = 1;
  for (let i = p.under.length; i < path.length; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

function isAscii(c: string): boolean {
  return c.charCodeAt(0) < 128;
}

/** The `name` rules, looked up by an entry's name: literal names by the name, others by its first or last letter. */
class NameRules {
  private readonly literal = new Map<string, Prepared[]>();
  private readonly first = new Map<string, Prepared[]>();
  private readonly last = new Map<string, Prepared[]>();
  private readonly any: Prepared[] = [];

  constructor(rules: readonly Prepared[]) {
    for (const r of rules) {
      const glob = r.entry.compiled.rest.slice(3);
      const key = (text: string) => (r.nocase ? text.toLowerCase() : text);
      const start = glob[0]!;
      const end = glob[glob.length - 1]!;
      if (!MAGIC.test(glob) && [...glob].every(isAscii)) add(this.literal, key(glob), r);
      else if (!MAGIC.test(start) && isAscii(start)) add(this.first, key(start), r);
      else if (!glob.includes('[') && !MAGIC.test(end) && isAscii(end) && glob[glob.length - 2] !== '\\')
        add(this.last, key(end), r);
      else this.any.push(r);
    }
  }

  /** The lists of rules whose last-name glob may match (a superset; `Prepared.name` decides). */
  lists(name: string, out: (readonly Prepared[] | undefined)[]): void {
    const lower = name.toLowerCase();
    const first = name[0] ?? '';
    const last = name[name.length - 1] ?? '';
    out.length = 0;
    out.push(this.literal.get(name), this.first.get(first), this.last.get(last), this.any);
    if (lower !== name) {
      out.push(
        this.literal.get(lower),
        this.first.get(first.toLowerCase()),
        this.last.get(last.toLowerCase()),
      );
    }
  }
}

function add(map: Map<string, Prepared[]>, key: string, p: Prepared): void {
  const list = map.get(key);
  if (list) list.push(p);
  else map.set(key, [p]);
}

/** A folder waiting to be read, with what its parents already settled. */
interface Pending {
  dir: string;
  lower: string;
  /** The first rule (by order) that matches the folder or one of its parents: it covers everything inside. */
  cover: number;
  /** `fixed` and `deep` rules whose base is the folder or a parent of it. */
  inner: Prepared[];
  /** Whether some `name` rule's base is the folder or a parent of it. */
  names: boolean;
  /** The `.gitignore` files above the folder, when the reader leaves out what they match. */
  ignores?: IgnoreStack;
  /** An ignore file at or above the folder may re-include hidden entries: none is skipped. */
  keepsHidden?: boolean;
}

const NONE = Number.POSITIVE_INFINITY;

/**
 * The rules of one walk, compiled once: grouped by base, so that an entry meets only the rules whose base
 * is above it (by its name, or at its depth) and the rules whose base sits beside it in its folder.
 */
class FolderRules {
  readonly prepared: Prepared[];
  private readonly byBase = new Map<string, Prepared[]>();
  /** Rules by the folder holding their base: entries there are tested whole (the base itself, and its look-alikes). */
  private readonly byParent = new Map<string, Prepared[]>();
  private readonly names: NameRules;
  /** Every base, lower-cased and sorted: whether a folder has some rule's base inside it. */
  private readonly bases: string[];

  constructor(rules: readonly PathEntry[]) {
    this.prepared = rules.map(prepare);
    for (const p of this.prepared) {
      const base = p.under.length > 1 ? p.under.slice(0, -1) : '/';
      add(this.byBase, base, p);
      const cut = base.lastIndexOf('/');
      if (base !== '/') add(this.byParent, cut <= 0 ? '/' : base.slice(0, cut), p);
    }
    this.names = new NameRules(this.prepared.filter((p) => p.shape === 'name'));
    this.bases = [...new Set(this.prepared.map((p) => p.under.toLowerCase()))].sort();
  }

  /** The folder the walk starts from: what covers it from above, and the rules live inside it. */
  start(folder: string): Pending {
    let cover = NONE;
    const self = `${folder}/`;
    const selfLower = self.toLowerCase();
    for (const p of this.prepared) {
      // Only a rule whose base begins the folder's path can match the folder or a parent of it.
      if (p.order >= cover || !(p.nocase ? selfLower : self).startsWith(p.under.slice(0, -1))) continue;
      for (let at = folder; ; ) {
        if (p.entry.compiled.matchOne(at)) {
          cover = p.order;
          break;
        }
        const cut = at.lastIndexOf('/');
        const parent = cut <= 0 ? '/' : at.slice(0, cut);
        if (parent === at) break;
        at = parent;
      }
    }
    const path = folder === '/' ? '/' : `${folder}/`;
    const lower = path.toLowerCase();
    const above = this.prepared.filter((p) => (p.nocase ? lower : path).startsWith(p.under));
    const depth = (p: Prepared) => (path.length === p.under.length ? 0 : depthBelow(p, folder));
    return {
      dir: folder,
      lower: folder.toLowerCase(),
      cover,
      inner: above.filter((p) => p.shape === 'deep' || (p.shape === 'fixed' && depth(p) < p.segments)),
      names: above.some((p) => p.shape === 'name'),
    };
  }

  /**
   * The first rule matching the entry (`file`), and the first matching it or a parent (`cover`, what a
   * folder passes to its contents); only rules before `bound` are looked for.
   */
  private file = NONE;
  private cover = NONE;
  private bound = NONE;
  private folder = false;
  private readonly found: (readonly Prepared[] | undefined)[] = [];

  private wanted(p: Prepared): boolean {
    return p.order < this.bound && p.order < (p.dirOnly ? (this.folder ? this.cover : -1) : this.file);
  }

  private hit(p: Prepared): void {
    if (!p.dirOnly && p.order < this.file) this.file = p.order;
    if (p.order < this.cover) this.cover = p.order;
  }

  private testAll(list: readonly Prepared[] | undefined, path: string, name: string, lower: string): void {
    if (!list) return;
    for (const p of list)
      if (this.wanted(p) && named(p, name, lower) && p.entry.compiled.matchOne(path)) this.hit(p);
  }

  entry(
    path: string,
    name: string,
    at: Pending,
    bound: number,
    folder: boolean,
  ): { file: number; cover: number } {
    this.file = at.cover;
    this.cover = at.cover;
    this.bound = bound;
    this.folder = folder;
    const lowerName = name.toLowerCase();
    if (at.names) {
      this.names.lists(name, this.found);
      let lower: string | undefined;
      for (const list of this.found) {
        if (!list) continue;
        for (const p of list) {
          if (!this.wanted(p)) continue;
          lower ??= path.toLowerCase();
          if (isUnder(p, path, lower) && p.name!(name)) this.hit(p);
        }
      }
    }
    for (const p of at.inner) {
      if (!this.wanted(p) || !named(p, name, lowerName)) continue;
      if (p.shape === 'fixed' && depthBelow(p, path) !== p.segments) continue;
      if (p.entry.compiled.matchOne(path)) this.hit(p);
    }
    this.testAll(this.byParent.get(at.lower), path, name, lowerName);
    if (at.lower !== at.dir) this.testAll(this.byParent.get(at.dir), path, name, lowerName);
    return { file: this.file, cover: this.cover };
  }

  /** The folder's own state, below its parent's. */
  child(path: string, parent: Pending, cover: number, ignores: IgnoreStack): Pending {
    const lower = path.toLowerCase();
    const own = [...(this.byBase.get(path) ?? []), ...(lower === path ? [] : (this.byBase.get(lower) ?? []))];
    const inner = parent.inner.filter((p) => p.shape === 'deep' || depthBelow(p, path) < p.segments);
    for (const p of own) if (p.shape === 'deep' || p.shape === 'fixed') inner.push(p);
    if (own.length > 0) inner.sort((a, b) => a.order - b.order);
    const names = parent.names || own.some((p) => p.shape === 'name');
    return { dir: path, lower, cover, inner, names, ignores };
  }

  /** Whether anything inside the folder can still match a rule before `bound`. */
  live(at: Pending, bound: number): boolean {
    if (at.cover < bound || at.names || at.inner.length > 0) return true;
    const prefix = `${at.dir.toLowerCase()}/`;
    let low = 0;
    let high = this.bases.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.bases[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    return low < this.bases.length && this.bases[low]!.startsWith(prefix);
  }
}

/**
 * Whether anything that exists below the folder matches one of the rules: what reading the whole folder
 * (`grep -r`, the Grep tool) would reach. Links below the folder are not followed, as `grep -r` and `rg` do
 * not follow them; `skipHidden` leaves out dot entries, as `rg` does without `--hidden`; `respectGitignore`
 * leaves out what the `.gitignore` files of the folder's git repository leave out, as `rg` does by default. Among several matching
 * rules the first in rule order is reported. Folders inside which no rule can match anything are not read.
 */
export function findInFolder(
  folder: string,
  rules: readonly PathEntry[],
  options: {
    max?: number;
    skipHidden?: boolean;
    respectGitignore?: boolean;
    /** With `skipHidden`: hidden names read all the same, as globs. */
    readsHiddenMatching?: readonly string[];
  } = {},
): FolderCheck {
  const readsHidden = options.readsHiddenMatching?.length
    ? picomatch([...options.readsHiddenMatching], { dot: true })
    : () => false;
  const max = options.max ?? MAX_FOLDER_ENTRIES;
  if (rules.length === 0) return { kind: 'clear' };
  const compiled = new FolderRules(rules);
  const byOrder = new Map<number, PathEntry>();
  let first = NONE;
  for (const r of rules) {
    byOrder.set(r.order, r);
    if (r.order < first) first = r.order;
  }
  const root = compiled.start(resolve(folder));
  if (options.respectGitignore) root.ignores = ignoreStackAt(root.dir);
  if (options.skipHidden) root.keepsHidden = reincludesHiddenAt(root.dir);
  const queue: Pending[] = [root];
  let seen = 0;
  let best: { entry: PathEntry; path: string } | undefined;
  for (let head = 0; head < queue.length; head++) {
    const at = queue[head]!;
    const bound = best?.entry.order ?? NONE;
    if (!compiled.live(at, bound)) continue;
    let entries: Dirent[];
    try {
      entries = readdirSync(at.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    const names = entryNames(entries);
    const ignores = at.ignores && ignoreStackIn(at.dir, names, at.ignores);
    const skipHidden = options.skipHidden && !at.keepsHidden && !reincludesHidden(at.dir, names);
    if (ignores)
      entries = entries.filter((e) => !isIgnored(ignores, inside(at.dir, e.name), e.isDirectory()));
    seen += entries.length;
    if (seen > max) return best ? { kind: 'match', ...best } : { kind: 'too-many' };
    for (const e of entries) {
      if (skipHidden && e.name.startsWith('.') && !readsHidden(e.name)) continue;
      const path = inside(at.dir, e.name);
      const isDir = e.isDirectory();
      const found = compiled.entry(path, e.name, at, best?.entry.order ?? NONE, isDir);
      if (found.file !== NONE && found.file < (best?.entry.order ?? NONE)) {
        best = { entry: byOrder.get(found.file)!, path };
      }
      if (isDir) queue.push({ ...compiled.child(path, at, found.cover, ignores), keepsHidden: !skipHidden });
    }
    if (best?.entry.order === first) break;
  }
  return best ? { kind: 'match', ...best } : { kind: 'clear' };
}

/** The path of an entry `readdir` listed in a resolved folder: `path.join` less the normalising it needs not do. */
function inside(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`;
}

function entryNames(entries: readonly Dirent[]): string[] {
  return entries.map((e) => e.name);
}
