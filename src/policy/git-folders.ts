import { existsSync, lstatSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Analysis, SimpleCommand } from '../bash/index.js';
import type { DecisionContext } from './context.js';
import { realPath } from './paths.js';
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
  const reason = unsafeFolder(analysis, ctx, cwds);
  if (reason === undefined) return [];
  return gits.map((cmd) => ({
    command: cmd.id,
    subject: subjectOf(cmd),
    decision: 'ask',
    by: 'unseen-code',
    reason: `git ${reason}; that repository's configuration is code automode cannot see`,
  }));
}

function unsafeFolder(
  analysis: Analysis,
  ctx: DecisionContext,
  cwds: string[] | undefined,
): string | undefined {
  const variable = GIT_PLACE.exec(analysis.source);
  if (variable) return `may use another repository: ${variable[0]} is set on the line`;
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
