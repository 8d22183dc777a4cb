import { existsSync, lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Analysis, parseOptions, programSpec, type SimpleCommand } from '../bash/index.js';
import type { DecisionContext } from './context.js';
import { realPath, resolveWordPath } from './paths.js';
import type { PartVerdict } from './verdict.js';

/** Variables that make git use another repository, or look for one elsewhere. */
const GIT_PLACE =
  /\bGIT_(?:DIR|WORK_TREE|COMMON_DIR|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG(?:_GLOBAL|_SYSTEM|_COUNT|_PARAMETERS)?)\b/;

/** Where git's discovery stops, walking up from a folder: a `.git` entry, or a folder that is a git directory. */
interface Found {
  at: string;
  kind: 'dot-git' | 'git-dir';
}

/**
 * git run in a folder reads the configuration of the repository it discovers there, and that configuration
 * runs programs (`core.fsmonitor` on `git status`, `core.pager`, aliases). A folder is safe only when git's
 * discovery from it ends at the project's own `.git`: no folder between has a `.git` entry or is laid out as a
 * git directory (HEAD, objects/, refs/: a bare repository committed as plain files). Any other folder, one only
 * known at run time, or a variable that moves the repository makes every git command on the line ask.
 */
export function foreignRepositories(
  analysis: Analysis,
  ctx: DecisionContext,
  cwds: string[] | undefined,
): PartVerdict[] {
  const gits = analysis.commands.filter((c) => c.name?.program === 'git' && !c.name.dynamic);
  if (gits.length === 0) return [];
  const variable = GIT_PLACE.exec(analysis.source);
  const line = variable
    ? `may use another repository: ${variable[0]} is set on the line`
    : unsafeFolder(ctx, cwds);
  const out: PartVerdict[] = [];
  for (const cmd of gits) {
    const reason = line ?? (cwds && unsafeFolder(ctx, gitFolders(cmd, cwds, ctx)));
    if (reason === undefined) continue;
    out.push({
      command: cmd.id,
      subject: subjectOf(cmd),
      decision: 'ask',
      by: 'unseen-code',
      reason: `git ${reason}; that repository's configuration is code automode cannot see`,
    });
  }
  return out;
}

/**
 * The folders git starts from: each working folder, moved by every `-C DIR` in turn (a relative one from the
 * folder before); undefined when a `-C` names a folder only known at run time.
 */
export function gitFolders(cmd: SimpleCommand, cwds: string[], ctx: DecisionContext): string[] | undefined {
  const spec = programSpec('git');
  if (!spec) return undefined;
  const parsed = parseOptions(cmd.argv, 1, spec.grammar);
  if (!parsed.ok) return undefined;
  const moves = parsed.options.filter((o) => o.name === 'C');
  if (moves.length === 0) return cwds;
  const out: string[] = [];
  for (const cwd of cwds) {
    let at: string | undefined = cwd;
    for (const move of moves) {
      // `-C ''` leaves git where it is.
      if (at === undefined || move.value === undefined) return undefined;
      if (move.value.static && move.value.value === '') continue;
      at = resolveWordPath(move.value, ctx, at);
    }
    if (at === undefined) return undefined;
    out.push(at);
  }
  return out;
}

function unsafeFolder(ctx: DecisionContext, cwds: string[] | undefined): string | undefined {
  if (cwds === undefined) return 'runs in a folder only known at run time';
  const start = realPath(ctx.cwd, ctx.realPaths);
  if (start === undefined) return 'runs in a folder whose place cannot be told';
  const top = projectTop(start);
  for (const folder of cwds) {
    const real = folder === ctx.cwd ? start : realPath(folder, ctx.realPaths);
    if (real === undefined) return `runs in ${folder}, whose place cannot be told`;
    const found = discover(real);
    if (found === undefined ? top === undefined : found.kind === 'dot-git' && found.at === top) continue;
    if (found === undefined) return `runs in ${folder}, outside the project's repository`;
    const what = found.kind === 'git-dir' ? 'is laid out as a git directory' : 'has its own .git';
    return `runs in ${folder}, where ${found.at} ${what}, not the project's repository`;
  }
  return undefined;
}

/** The folder holding the `.git` of the repository the project is in. */
function projectTop(start: string): string | undefined {
  for (let at = start; ; at = dirname(at)) {
    if (entryExists(`${at === '/' ? '' : at}/.git`)) return at;
    if (at === '/') return undefined;
  }
}

/** What git finds walking up from the folder, checking `.git` first at each level, as git does. */
function discover(start: string): Found | undefined {
  for (let at = start; ; at = dirname(at)) {
    const base = at === '/' ? '' : at;
    if (entryExists(`${base}/.git`)) return { at, kind: 'dot-git' };
    if (entryExists(`${base}/HEAD`) && existsSync(`${base}/objects`) && existsSync(`${base}/refs`))
      return { at, kind: 'git-dir' };
    if (at === '/') return undefined;
  }
}

function entryExists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    // Below a file nothing exists; a folder that cannot be looked at may hold anything.
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

function subjectOf(cmd: SimpleCommand): string {
  return cmd.argv.map((w) => w.value).join(' ');
}
