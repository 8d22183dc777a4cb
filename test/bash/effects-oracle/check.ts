import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import picomatch from 'picomatch';
import {
  type Analysis,
  DYN,
  type FileEffect,
  type SimpleCommand,
  type Word,
} from '../../../src/bash/types.js';
import type { DecisionContext } from '../../../src/policy/context.js';
import { computeWriteSet } from '../../../src/policy/write-names.js';
import type { Observed } from './observe.js';
import type { World } from './world.js';

/** An observed effect no declaration covers. */
export interface Disagreement {
  kind: 'read' | 'write' | 'program' | 'network';
  /** What the command did: `read ~/.ssh/id_rsa (canary in stdout/stderr)`. */
  observed: string;
  /** The declaration that would have covered it. */
  missing: string;
}

/** An effect that cannot matter, and why (fixtures/bash/effects-explained.json). */
export interface ExplainedEffect {
  effect: 'write' | 'program';
  /** A glob: for a write, the path relative to the world (`project/.git/index`) or absolute; for a program, its path. */
  path: string;
  /** The program that must be declared for the effect to be explained. */
  by: string;
  reason: string;
}

export const EXPLAINED_FILE = join(import.meta.dirname, '../../../fixtures/bash/effects-explained.json');

export function loadExplainedEffects(): ExplainedEffect[] {
  return JSON.parse(readFileSync(EXPLAINED_FILE, 'utf8')) as ExplainedEffect[];
}

/**
 * The world's paths as the file system leads to them: every logical path reached from the home and the project
 * following links (a few hops deep, for globs to expand over), with its physical path, and the project paths its
 * `.gitignore` files match.
 */
export class WorldIndex {
  /** Logical path → physical path. */
  readonly logical = new Map<string, string>();
  readonly ignored = new Set<string>();

  constructor(readonly world: World) {
    for (const top of [world.home, world.project]) this.walk(top, 0);
    const inProject = [...this.logical.keys()].filter((p) => p.startsWith(`${world.project}/`));
    const r = spawnSync('git', ['-c', 'safe.directory=*', 'check-ignore', '--no-index', '--stdin', '-z'], {
      cwd: world.project,
      input: inProject.map((p) => relative(world.project, p)).join('\0'),
      encoding: 'utf8',
    });
    for (const rel of r.stdout.split('\0').filter(Boolean)) this.ignored.add(join(world.project, rel));
  }

  private walk(path: string, hops: number): void {
    if (this.logical.size > 20_000 || path.length > 400) return;
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return;
    }
    this.logical.set(path, real);
    const link = lstatSync(path).isSymbolicLink();
    if (link && hops >= 3) return;
    let names: string[] = [];
    try {
      names = readdirSync(path);
    } catch {
      return;
    }
    for (const name of names) this.walk(join(path, name), hops + (link ? 1 : 0));
  }

  /** Paths (logical) a glob pattern expands to. */
  expand(pattern: string): string[] {
    const match = picomatch(pattern, { dot: true });
    return [...this.logical.keys()].filter((p) => match(p));
  }

  /** A path for reports: `./x` in the project, `~/x` in the home. */
  show(path: string): string {
    if (path === this.world.project) return '.';
    if (path.startsWith(`${this.world.project}/`)) return `./${path.slice(this.world.project.length + 1)}`;
    if (path === this.world.home) return '~';
    if (path.startsWith(`${this.world.home}/`)) return `~/${path.slice(this.world.home.length + 1)}`;
    return path;
  }
}

/** The physical path: links resolved as far as the file system has them, the rest as written. */
export function physical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(physical(parent), basename(path));
  }
}

interface DeclaredPath {
  effect: FileEffect;
  /** Absolute paths the word may name (logical and physical); empty for a word known only at run time. */
  paths: string[];
  /** A glob's absolute pattern. */
  pattern?: string;
  unknown: boolean;
}

/**
 * A tree write whose names the policy reads at decision time (an archive, a patch, a revision, a copied folder):
 * the files of that write set, as the classifier decided them; undefined when they cannot be read (the folder
 * then stands for them).
 */
function computedWrites(
  effect: FileEffect,
  cmd: SimpleCommand | undefined,
  index: WorldIndex,
): string[] | undefined {
  if (!effect.tree || !effect.names || effect.names.kind === 'unknown') return undefined;
  const { home, project } = index.world;
  const ctx = { cwd: project, home, realPaths: new Map(), folders: new Map() } as unknown as DecisionContext;
  // The world's project is the top of its repository, where a git command's tree writes start too.
  const folder = effect.path.static
    ? resolve(project, effect.path.value.replace(/^~(?=\/|$)/, home))
    : undefined;
  if (folder === undefined) return undefined;
  const set = computeWriteSet({ names: effect.names, folder, cwd: project, cmd, ctx });
  return set.kind === 'paths' ? set.paths : undefined;
}

function declaredPath(effect: FileEffect, index: WorldIndex, cmd?: SimpleCommand): DeclaredPath {
  const computed = computedWrites(effect, cmd, index);
  if (computed)
    return { effect, paths: [...new Set([...computed, ...computed.map(physical)])], unknown: false };
  const word: Word = effect.path;
  const { home, project } = index.world;
  const onlyGlob = !word.static && word.dynamic.every((d) => d === 'glob') && !word.value.includes(DYN);
  if (!word.static && !onlyGlob) return { effect, paths: [], unknown: true };
  let value = word.value;
  if (word.text.startsWith('~') && (value === '~' || value.startsWith('~/'))) value = home + value.slice(1);
  const absolute = isAbsolute(value) ? resolve(value) : resolve(project, value);
  if (onlyGlob) {
    const paths = index.expand(absolute);
    return {
      effect,
      paths: [...new Set([...paths, ...paths.map(physical)])],
      pattern: absolute,
      unknown: false,
    };
  }
  const spelled = isAbsolute(value) ? value : `${project}/${value}`;
  return { effect, paths: [...new Set([absolute, physical(absolute), physical(spelled)])], unknown: false };
}

function inside(path: string, folder: string): string | undefined {
  if (path === folder) return '';
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
}

/** A folder read covers `rest` below it unless its hidden or gitignored entries are left out. */
function folderCovers(effect: FileEffect, path: string, rest: string, index: WorldIndex): boolean {
  if (effect.skipsHidden && rest.split('/').some((part) => part.startsWith('.'))) return false;
  if (effect.respectsGitignore && index.ignored.has(path)) return false;
  return true;
}

const WRITES = new Set(['write', 'create', 'delete', 'metadata']);

/**
 * Compares what a command was seen to do with what the analysis declares: every secret read must be a declared
 * read of the file or of a folder or glob covering it, every change a declared write, every program a command of
 * the analysis (or hidden code it declares), and no inet connection at all.
 */
export function compare(
  analysis: Analysis,
  observed: Observed,
  index: WorldIndex,
  explained: readonly ExplainedEffect[],
): Disagreement[] {
  const out: Disagreement[] = [];
  const effects: Array<{ effect: FileEffect; cmd?: SimpleCommand }> = analysis.commands.flatMap((c) =>
    c.effects.map((effect) => ({ effect, cmd: c })),
  );
  for (const r of analysis.compoundRedirects) {
    if (r.writes) effects.push({ effect: { access: 'write', path: r.target, via: 'redirect' } });
    if (r.reads) effects.push({ effect: { access: 'read', path: r.target, via: 'redirect' } });
  }
  const declared = effects.map((e) => declaredPath(e.effect, index, e.cmd));
  const reads = declared.filter((d) => d.effect.access === 'read' || d.effect.access === 'execute');
  const writes = declared.filter((d) => WRITES.has(d.effect.access));
  const programs = new Set(
    analysis.commands.flatMap((c) => (c.name ? [c.name.program, basename(c.name.value)] : [])),
  );
  const hiddenCode = analysis.commands.some((c) => c.executes.length > 0);
  const byDeclared = (e: ExplainedEffect) => programs.has(e.by);

  for (const { secret, canary, seen } of observed.reads) {
    // Physical paths only: a folder read does not cover what a link inside the folder leads to.
    const target = physical(secret.path);
    const covered = reads.some((d) => {
      if (d.unknown) return true;
      return d.paths.some((declared) => {
        const p = physical(declared);
        if (secret.kind === 'name' && inside(p, target) !== undefined) return true;
        const rest = inside(target, p);
        return rest !== undefined && (rest === '' || folderCovers(d.effect, target, rest, index));
      });
    });
    if (!covered) {
      const what = secret.kind === 'name' ? 'listed' : 'read';
      out.push({
        kind: 'read',
        observed: `${what} ${index.show(secret.path)} (${canary.replace(/_[0-9a-f]+$/, '')} in ${seen === 'stdout/stderr' ? seen : index.show(seen)})`,
        missing: `a read of ${index.show(secret.path)} or of a folder or glob covering it${
          reads.length
            ? ` (declared reads: ${reads.map((d) => d.effect.path.text).join(', ')})`
            : ' (no read declared)'
        }`,
      });
    }
  }

  const worldRoot = index.world.root;
  for (const change of observed.writes) {
    const rel = inside(change.path, worldRoot);
    const shown = rel === undefined ? change.path : rel;
    if (
      explained.some((e) => e.effect === 'write' && picomatch(e.path, { dot: true })(shown) && byDeclared(e))
    )
      continue;
    const covered = writes.some((d) => {
      if (d.unknown) return true;
      if (d.pattern && picomatch(d.pattern, { dot: true })(change.path)) return true;
      return d.paths.some((p) => inside(change.path, p) !== undefined);
    });
    if (!covered) {
      out.push({
        kind: 'write',
        observed: `${change.kind} ${index.show(change.path)}`,
        missing: `a write of ${index.show(change.path)}${
          writes.length
            ? ` (declared writes: ${writes.map((d) => d.effect.path.text).join(', ')})`
            : ' (no write declared)'
        }`,
      });
    }
  }

  for (const p of observed.programs) {
    const name = basename(p.path);
    if (programs.has(name) || hiddenCode) continue;
    if (
      explained.some(
        (e) => e.effect === 'program' && picomatch(e.path, { dot: true })(p.path) && byDeclared(e),
      )
    )
      continue;
    out.push({
      kind: 'program',
      observed: `ran ${p.path}`,
      missing: `a nested command or hidden code running ${name} (commands: ${[...programs].join(', ') || 'none'})`,
    });
  }

  // A program whose module says it talks to the network (kubectl to its cluster, git fetch) may connect anywhere.
  const network = analysis.commands.some((c) => c.network);
  for (const n of observed.network) {
    if (network) continue;
    out.push({
      kind: 'network',
      observed: `connect ${n}`,
      missing: 'network access (no command is declared to use the network)',
    });
  }
  // Effects the analysis calls unknown do not excuse an allowed command; the report says so for triage.
  const unknown = analysis.commands.filter((c) => !c.effectsKnown && c.name).map((c) => c.name!.program);
  if (unknown.length > 0) {
    for (const d of out) d.missing += `; effects unknown for ${[...new Set(unknown)].join(', ')}`;
  }
  return dedupe(out);
}

function dedupe(list: Disagreement[]): Disagreement[] {
  const seen = new Set<string>();
  return list.filter((d) => {
    const key = `${d.kind}\0${d.observed}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
