import { basename, dirname } from 'node:path';
import type { PermissionRule } from '../rules/index.js';
import { type CompiledPathPattern, compilePathPattern, type PathContext } from '../rules/index.js';
import { isShipped } from './tiers.js';

/**
 * The files a project commits so that others know which variables to set (`.env.example`, `.env.sample`,
 * `.env.template`, `.env.dist`…): they hold no secret, so the shipped `Read(.env.*)` does not cover them.
 */
export const ENV_TEMPLATE = /^\.env(?:\.[^/]+)?\.(?:example|sample|template|dist|defaults|tpl|schema)$/i;

/** The shipped `Read(.env.*)` ask, less the template files (see `ENV_TEMPLATE`); any other rule as compiled. */
function leavesOutTemplates(rule: PermissionRule, compiled: CompiledPathPattern): CompiledPathPattern {
  if (!isShipped(rule) || rule.text !== 'Read(.env.*)') return compiled;
  const template = (path: string) => ENV_TEMPLATE.test(basename(path)) && !compiled.test(dirname(path));
  return {
    ...compiled,
    test: (path) => compiled.test(path) && !template(path),
    matchOne: (path) => compiled.matchOne(path) && !ENV_TEMPLATE.test(basename(path)),
  };
}

export interface PathEntry {
  rule: PermissionRule;
  compiled: CompiledPathPattern;
  /** Position in rule order: among several matches the first rule decides. */
  order: number;
}

/**
 * Path rules compiled for one working folder and home, grouped by the folder their matches lie in, so a
 * lookup only tests rules whose folder is the path or one of its parents.
 */
export class PathRuleIndex {
  private readonly byBase = new Map<string, PathEntry[]>();
  private readonly all: PathEntry[] = [];

  /** Folder names as the rules compare them: lower-cased when they ignore case. */
  private readonly fold: (path: string) => string;

  constructor(rules: readonly PermissionRule[], ctx: PathContext, options: { nocase?: boolean } = {}) {
    this.fold = options.nocase ? (path) => path.toLowerCase() : (path) => path;
    for (const rule of rules) {
      if (rule.parsed.kind !== 'path') continue;
      const compiled = leavesOutTemplates(rule, compilePathPattern(rule.parsed.pattern, ctx, options));
      const entry = { rule, compiled, order: this.all.length };
      this.all.push(entry);
      const base = this.fold(compiled.base);
      const list = this.byBase.get(base);
      if (list) list.push(entry);
      else this.byBase.set(base, [entry]);
    }
  }

  get size(): number {
    return this.all.length;
  }

  /** Every rule matching the path, in rule order. */
  matching(path: string): PathEntry[] {
    if (this.all.length === 0) return [];
    const found: PathEntry[] = [];
    const key = this.fold(path);
    const visit = (folder: string) => {
      const list = this.byBase.get(folder);
      if (list) for (const entry of list) if (entry.compiled.test(path)) found.push(entry);
    };
    visit(key);
    for (let cut = key.lastIndexOf('/'); cut > 0; cut = key.lastIndexOf('/', cut - 1))
      visit(key.slice(0, cut));
    visit('/');
    return found.length > 1 ? found.sort((a, b) => a.order - b.order) : found;
  }

  /** The first rule matching any of the paths (deny and ask: either a link or its target is enough). */
  firstOfAny(paths: readonly string[]): PermissionRule | undefined {
    let best: PathEntry | undefined;
    for (const p of paths) {
      const hit = this.matching(p)[0];
      if (hit && (!best || hit.order < best.order)) best = hit;
    }
    return best?.rule;
  }

  /** The first rule matching all of the paths (allow: a link and its target must both be covered). */
  firstOfAll(paths: readonly string[]): PermissionRule | undefined {
    const [head, ...rest] = paths;
    if (head === undefined) return undefined;
    return this.matching(head).find((e) => rest.every((p) => e.compiled.test(p)))?.rule;
  }

  private sortedBases: string[] | undefined;

  /** Every rule that can match something inside the folder (its folder is an ancestor of it, or lies below it), in rule order. */
  allInside(path: string): PathEntry[] {
    if (this.all.length === 0) return [];
    const folder = this.fold(path);
    const found: PathEntry[] = [];
    const add = (base: string) => {
      const list = this.byBase.get(base);
      if (list) found.push(...list);
    };
    add(folder);
    for (let cut = folder.lastIndexOf('/'); cut > 0; cut = folder.lastIndexOf('/', cut - 1)) {
      add(folder.slice(0, cut));
    }
    if (folder !== '/') add('/');
    this.sortedBases ??= [...this.byBase.keys()].sort();
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    const bases = this.sortedBases;
    let low = 0;
    let high = bases.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (bases[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    for (let k = low; k < bases.length && bases[k]!.startsWith(prefix); k++) add(bases[k]!);
    return found.length > 1 ? found.sort((a, b) => a.order - b.order) : found;
  }
}
