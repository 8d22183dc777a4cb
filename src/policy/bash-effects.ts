import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FileEffect, SimpleCommand, Word, WriteNames } from '../bash/index.js';
import type { DecisionContext } from './context.js';
import { decideFile, type FileAccessKind, LINK_HOPS } from './files.js';
import { expandGlob, MAX_GLOB_ENTRIES } from './globs.js';
import { globPattern, homeGlob, isInside, resolvePath, resolveWordPath } from './paths.js';
import { type PartVerdict, strictestPart } from './verdict.js';
import { computeWriteSet } from './write-names.js';

/** Programs that look at names and metadata, never at contents. */
const LISTING = new Set([
  'ls',
  'du',
  'stat',
  'find',
  'fd',
  'fdfind',
  'tree',
  'df',
  'file',
  'realpath',
  'readlink',
  'basename',
  'dirname',
]);

/** bash opens a network connection for a redirection to `/dev/tcp/HOST/PORT` or `/dev/udp/HOST/PORT`. */
const NETWORK_REDIRECT = /^\/dev\/(?:tcp|udp)\/[\s\S]*\//;

/** Programs that, their input and output on a connection, hand a remote end a shell. */
const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'busybox', 'exec']);

function networkRedirect(effect: FileEffect, cmd: SimpleCommand | undefined): PartVerdict | undefined {
  if (effect.via !== 'redirect' || !NETWORK_REDIRECT.test(effect.path.value)) return undefined;
  const program = cmd?.name?.program ?? '';
  const shell = SHELLS.has(program);
  const target = effect.path.value;
  return {
    subject: `connects to ${target}`,
    decision: shell ? 'deny' : 'ask',
    by: 'file',
    reason: shell
      ? `${program} with a redirection to ${target} gives a remote end a shell (a reverse shell)`
      : `a redirection to ${target} opens a network connection`,
  };
}

/**
 * A git command that may print objects no ref or reflog entry reaches: named by their id, or every object the
 * store holds (`cat-file --batch-all-objects`, `unpack-file`, `fsck --lost-found`).
 */
function namesObjects(cmd: SimpleCommand | undefined): boolean {
  return (
    cmd === undefined ||
    cmd.argv.some(
      (w) =>
        !w.static ||
        /^(?:--batch-all-objects|--unreachable|--lost-found|--dangling|unpack-file)$/.test(w.value) ||
        /(?:^|[^0-9a-z])[0-9a-f]{7,64}(?:$|[^0-9a-z])/i.test(w.value),
    )
  );
}

/**
 * Whether a write whose names are read at decision time writes nothing in every folder the command may run in:
 * only for SQLite's journals (`sqlite3 -readonly` on a database in rollback-journal mode), which keeps the
 * command read-only.
 */
export function writesNothing(
  effect: FileEffect,
  cmd: SimpleCommand,
  ctx: DecisionContext,
  cwds: readonly string[] | undefined,
): boolean {
  const names = effect.names;
  if (effect.access !== 'write' || !effect.tree || names?.kind !== 'sqlite' || !cwds) return false;
  return cwds.every((cwd) => {
    const folder = resolveAll(effect.path, ctx, [cwd])[0];
    if (folder === undefined) return false;
    const set = computeWriteSet({ names, folder, cwd, cmd, ctx });
    return set.kind === 'paths' && set.paths.length === 0;
  });
}

export function decideEffect(
  effect: FileEffect,
  cmd: SimpleCommand | undefined,
  ctx: DecisionContext,
  cwds: string[] | undefined,
  covered?: PartVerdict,
  possible = false,
  stale?: string,
): PartVerdict {
  const network = networkRedirect(effect, cmd);
  if (network) {
    if (cmd) network.command = cmd.id;
    return network;
  }
  if (effect.access === 'write' && effect.tree && effect.names) {
    const result = decideWriteSet(effect, effect.names, cmd, ctx, cwds, covered, stale);
    if (cmd) result.command = cmd.id;
    return result;
  }
  const access: FileAccessKind =
    effect.access === 'read' || effect.access === 'metadata'
      ? 'read'
      : effect.access === 'delete'
        ? 'delete'
        : 'write';
  const glob = access === 'read' && isGlobOnly(effect.path);
  const listing =
    possible || effect.access === 'metadata' || (cmd !== undefined && LISTING.has(cmd.name?.program ?? ''));
  const tree = effect.access === 'write' && effect.tree === true;
  let worst: PartVerdict | undefined;
  const keep = (p: PartVerdict) => {
    worst = strictestPart(worst, p);
  };
  const decide = (path: string | undefined, shown: string) => {
    const req = {
      access,
      path,
      shown,
      tool: 'Bash',
      listing,
      skipsHidden: effect.skipsHidden === true,
      ...(effect.readsHiddenMatching ? { readsHiddenMatching: effect.readsHiddenMatching } : {}),
      respectsGitignore: effect.respectsGitignore === true,
      history: effect.history === true ? (namesObjects(cmd) ? 'objects' : 'reachable') : false,
      tracked: effect.tracked === true,
      ...(effect.followsLinks ? { followsLinks: LINK_HOPS } : {}),
      possible,
      ...(tree ? { tree } : {}),
      ...(access === 'delete' && effect.below ? { below: true } : {}),
      ...(effect.changesMetadata ? { changesMetadata: true } : {}),
      ...(effect.discards ? { discards: effect.discards } : {}),
    } as const;
    keep(decideFile(covered ? { ...req, coveredByRule: covered } : req, ctx));
  };
  if (glob) {
    const shown = effect.path.value;
    for (const pattern of globPatterns(effect.path, ctx, cwds)) {
      const expansion = pattern === undefined ? undefined : expandGlob(pattern);
      if (expansion === undefined) decide(undefined, shown);
      else if (expansion.kind !== 'paths') keep(globPart(shown, expansion.kind));
      else
        for (const path of expansion.paths)
          decide(resolvePath(path, ctx), matchedName(path, pattern!, shown, ctx));
    }
  } else {
    const folders = effect.fromRepositoryRoot ? cwds?.map(repositoryRoot) : cwds;
    for (const path of resolveAll(effect.path, ctx, folders)) decide(path, effect.path.value);
  }
  const result = worst!;
  if (cmd) result.command = cmd.id;
  return result;
}

/** The top of the git work tree a folder lies in (the nearest folder above it holding `.git`), else the folder. */
function repositoryRoot(folder: string): string {
  for (let at = folder; ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return at;
    if (dirname(at) === at) return folder;
  }
}

function isGlobOnly(word: Word): boolean {
  return (word.dynamic.length > 0 && word.dynamic.every((d) => d === 'glob')) || homeGlob(word);
}

function globPatterns(
  word: Word,
  ctx: DecisionContext,
  cwds: string[] | undefined,
): Array<string | undefined> {
  const absolute = word.value.startsWith('/') || word.text.startsWith('~') || homeGlob(word);
  return inEachFolder(absolute, cwds, (cwd) => globPattern(word, ctx, cwd));
}

/** A file a glob matched, shown as `key.txt (k*)`; the pattern itself when nothing matched. */
function matchedName(path: string, pattern: string, shown: string, ctx: DecisionContext): string {
  if (path === pattern) return shown;
  const name = isInside(path, ctx.cwd) && path !== ctx.cwd ? path.slice(ctx.cwd.length + 1) : path;
  return `${name} (${shown})`;
}

function globPart(shown: string, kind: 'too-many' | 'unsupported'): PartVerdict {
  const why =
    kind === 'too-many'
      ? `matches more than ${MAX_GLOB_ENTRIES.toLocaleString('en-US')} entries, too many to check one by one`
      : '`..` after a wildcard leads wherever the matched links lead';
  return { subject: `reads ${shown}`, decision: 'ask', by: 'dynamic', reason: `reads ${shown}: ${why}` };
}

/** A relative path is checked against every folder the command may be in; a dynamic `cd` makes it unknown. */
function resolveAll(word: Word, ctx: DecisionContext, cwds: string[] | undefined): Array<string | undefined> {
  const absolute =
    (word.static && (word.value.startsWith('/') || word.value.startsWith('~'))) ||
    /^"?\$\{?HOME/.test(word.text);
  return inEachFolder(absolute, cwds, (cwd) => resolveWordPath(word, ctx, cwd));
}

/** One answer for a path that does not depend on the folder; else one per folder, or unknown without them. */
function inEachFolder<T>(
  absolute: boolean,
  cwds: string[] | undefined,
  resolve: (cwd?: string) => T,
): Array<T | undefined> {
  if (absolute) return [resolve()];
  return cwds ? cwds.map((cwd) => resolve(cwd)) : [undefined];
}

/** A path as shown in a reason: relative to the working folder when inside it. */
function shownPath(path: string, ctx: DecisionContext): string {
  if (path === ctx.cwd) return '.';
  return isInside(path, ctx.cwd) ? path.slice(ctx.cwd.length + 1) : path;
}

/**
 * A write of entries an archive, a patch, a revision or a copied folder names: the names are read at decision
 * time (`write-names.ts`) and each path is decided as a write of its own, so a protected path among them asks
 * whatever allow rule matched the command. Names that cannot be known ask (`unlisted-writes`, which auto mode's
 * model weighs), unless the folder itself is protected; an allow rule naming the command vouches for content a
 * remote holds, inside the permitted folders.
 */
function decideWriteSet(
  effect: FileEffect,
  names: WriteNames,
  cmd: SimpleCommand | undefined,
  ctx: DecisionContext,
  cwds: string[] | undefined,
  covered: PartVerdict | undefined,
  stale: string | undefined,
): PartVerdict {
  let worst: PartVerdict | undefined;
  const keep = (p: PartVerdict) => {
    worst = strictestPart(worst, p);
  };
  const discards = effect.discards ? { discards: effect.discards } : {};
  const below = (shown: string) =>
    effect.discards ? `discards ${effect.discards}` : `writes below ${shown}`;
  const write = (path: string | undefined, shown: string, vouch: PartVerdict | undefined) => {
    const req = { access: 'write', path, shown, tool: 'Bash', ...discards } as const;
    return decideFile(vouch ? { ...req, coveredByRule: vouch } : req, ctx);
  };
  for (const cwd of cwds ?? [undefined]) {
    const base = cwd !== undefined && effect.fromRepositoryRoot ? repositoryRoot(cwd) : cwd;
    const folder = resolveAll(effect.path, ctx, base === undefined ? undefined : [base])[0];
    const shown = effect.path.value === '.' && base ? shownPath(base, ctx) : effect.path.value;
    if (folder === undefined) {
      keep(write(undefined, shown, undefined));
      continue;
    }
    const set = computeWriteSet({ names, folder, cwd, cmd, ctx, ...(stale ? { stale } : {}) });
    if (set.kind === 'paths') {
      if (set.paths.length === 0)
        keep({
          subject: below(shown),
          decision: 'allow',
          by: 'file',
          reason: `writes no file below ${shown}`,
        });
      for (const path of new Set(set.paths)) keep(write(path, shownPath(path, ctx), covered));
      continue;
    }
    // The folder itself: its rules, whether it is protected, whether it lies inside the permitted folders.
    const vouch = set.remote ? covered : undefined;
    const own = write(folder, shown, vouch);
    keep(own);
    if (vouch && own.decision === 'allow') continue;
    keep({
      subject: below(shown),
      decision: 'ask',
      by: 'unlisted-writes',
      reason: `writes files below ${shown} whose names cannot be read before it runs: ${set.why}`,
    });
  }
  return worst!;
}
