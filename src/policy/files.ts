import { closeSync, type Dirent, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Behavior, PatternRule, PermissionRule } from '../rules/index.js';
import { matchPatternRule } from '../rules/index.js';
import type { DecisionContext } from './context.js';
import { type FolderCheck, findInFolder, MAX_FOLDER_ENTRIES } from './folder-contents.js';
import { historyMatch } from './git-history.js';
import { trackedPaths } from './git-index.js';
import type { PathEntry, PathRuleIndex } from './path-index.js';
import { criticalRemoval, isInside, protectedReason, realPath, seedRealPath } from './paths.js';
import { isExactPath, isShipped } from './tiers.js';
import { isStricter, type PartVerdict, ruleName, ruleRef } from './verdict.js';

export type FileAccessKind = 'read' | 'write' | 'delete';

export interface FileRequest {
  access: FileAccessKind;
  /** chmod, chown, chgrp: decided as a look at the entry, told as the change it is. */
  changesMetadata?: boolean;
  /** What a write throws away (see FileEffect.discards), told instead of the write. */
  discards?: string;
  /** Absolute path, or undefined when it is only known at run time. */
  path: string | undefined;
  /** What to show: the word as written or the tool's path. */
  shown: string;
  /** The tool asking (for pattern rules): Bash, Read, Edit... */
  tool: string;
  /**
   * The command was allowed by a Bash rule: the rule vouches for what the command does inside the permitted
   * folders (as Claude Code runs an allowed command there without asking), never for a file a Read or Edit rule,
   * a protected or critical path, or the folder boundary stops.
   */
  coveredByRule?: PartVerdict;
  /** Only the entry itself is looked at (ls, stat), not its contents. */
  listing?: boolean;
  /** The path is a folder whose contents may all be read (a glob's folder, `grep -r`). */
  folder?: boolean;
  /** Reading the folder skips hidden entries below it (`rg` without `--hidden`). */
  skipsHidden?: boolean;
  /** With `skipsHidden`: the hidden names it reads all the same, as globs. */
  readsHiddenMatching?: readonly string[];
  /** Reading the folder leaves out what the `.gitignore` files of its git repository match (`rg`, the Grep tool). */
  respectsGitignore?: boolean;
  /**
   * Reading the folder reads the files its git history holds too, deleted ones included (`git log -p`):
   * `reachable` from refs and reflogs, or `objects` the store holds that nothing may reach (named by id).
   */
  history?: boolean | 'reachable' | 'objects';
  /** Reading the folder reads only the files git tracks below it (`git diff`, `git grep`). */
  tracked?: boolean;
  /**
   * The word may name a file the program opens (its effects are not modelled): only Read and pattern deny and
   * ask rules decide.
   */
  possible?: boolean;
  /**
   * A write of entries below the path (a folder, whether it exists yet or not) named by an archive, a copied
   * folder, a commit or a patch rather than the command line: protected ones among them cannot be ruled out.
   */
  tree?: boolean;
  /** A delete of entries found below the folder (`find -delete`), not of the folder as such. */
  below?: boolean;
  /**
   * The read follows the links below the folder into the folders they lead to (`find -L`, `ls -RL`): each is
   * decided as a folder read, its own links followed this many more times.
   */
  followsLinks?: number;
}

/** Where the path rules are anchored: the session's project root when known, else the call's folder. */
function ruleContext(ctx: DecisionContext): { cwd: string; home: string; root?: string } {
  return ctx.root ? { cwd: ctx.cwd, home: ctx.home, root: ctx.root } : { cwd: ctx.cwd, home: ctx.home };
}
/** How many links deep a read that follows links is decided; deeper, it asks. */
export const LINK_HOPS = 4;

/** The path and, when a link leads elsewhere, where it leads; `real` is undefined when that cannot be told. */
function candidates(path: string, ctx: DecisionContext): { paths: string[]; real: string | undefined } {
  if (ctx.realPaths && isInside(path, ctx.cwd)) seedRealPath(ctx.cwd, ctx.realPaths);
  const real = realPath(path, ctx.realPaths, 0, ctx.folders);
  return { paths: real === undefined || real === path ? [path] : [path, real], real };
}

function firstPathRule(
  ctx: DecisionContext,
  tool: 'Read' | 'Edit',
  behavior: Behavior,
  paths: string[],
  every: boolean,
): PermissionRule | undefined {
  const index = ctx.index.paths(tool, behavior, ruleContext(ctx));
  if (index.size === 0) return undefined;
  return every ? index.firstOfAll(paths) : index.firstOfAny(paths);
}

/**
 * Rule tiers for paths (see `tiers.ts`): a user's allow rule naming the exact file (no wildcard) overrides the
 * shipped ask rules that match it, when every ask rule matching the path is shipped. Deny rules, asks someone
 * wrote, pattern rules and the checks that are not rules (protected paths, folder contents) still apply.
 */
function shippedAskOverride(
  ctx: DecisionContext,
  tool: 'Read' | 'Edit',
  writing: boolean,
  paths: string[],
): { allow: PermissionRule; asks: PermissionRule[] } | undefined {
  const asks: PermissionRule[] = [];
  for (const t of writing ? (['Edit', 'Read'] as const) : (['Read'] as const)) {
    const index = ctx.index.paths(t, 'ask', ruleContext(ctx));
    for (const p of paths) for (const e of index.matching(p)) if (!asks.includes(e.rule)) asks.push(e.rule);
  }
  if (asks.length === 0 || !asks.every(isShipped)) return undefined;
  const index = ctx.index.paths(tool, 'allow', ruleContext(ctx));
  const [head, ...rest] = paths;
  if (head === undefined) return undefined;
  const allow = index
    .matching(head)
    .find((e) => rest.every((p) => e.compiled.test(p)) && !isShipped(e.rule) && isExactPath(e.rule))?.rule;
  return allow ? { allow, asks } : undefined;
}

function firstPatternRule(
  ctx: DecisionContext,
  behavior: Behavior,
  tool: string,
  paths: string[],
  every: boolean,
): PatternRule | undefined {
  for (const rule of ctx.index.pattern(behavior, 'path', tool)) {
    const hit = every
      ? paths.every((p) => matchPatternRule(rule, p))
      : paths.some((p) => matchPatternRule(rule, p));
    if (hit) return rule;
  }
  return undefined;
}

/** An existing entry that is not a folder: nothing can be written below it. */
function isFile(path: string): boolean {
  try {
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat !== undefined && !stat.isDirectory();
  } catch {
    return false;
  }
}

function isFolder(path: string, ctx: DecisionContext): boolean {
  const known = ctx.folders?.get(path);
  if (known !== undefined) return known;
  try {
    // A missing path is the common case: without throwIfNoEntry, each one costs a thrown error.
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/**
 * Reading a whole folder reads everything in it: a Read deny or ask rule that an existing entry below it
 * matches decides, and a deny rule that could match when the folder is too large to look through asks.
 */
function folderContents(
  ctx: DecisionContext,
  paths: string[],
  folder: boolean,
  skipsHidden: boolean,
  respectsGitignore: boolean,
  readsHiddenMatching: readonly string[] | undefined,
  history: false | 'reachable' | 'objects' = false,
  tracked = false,
): { behavior: 'deny' | 'ask'; rule: PermissionRule; found?: string; history?: true } | undefined {
  const folders = new Map<string, boolean>();
  // Only a folder has contents; the stat is made only for a path some rule could reach inside.
  const isFolderPath = (p: string) => {
    let known = folders.get(p);
    if (known === undefined) {
      known = folder || isFolder(p, ctx);
      folders.set(p, known);
    }
    return known;
  };
  // A configuration file named by RIPGREP_CONFIG_PATH may change what rg leaves out (`--hidden`, `--glob`).
  const respectGitignore = respectsGitignore && !process.env.RIPGREP_CONFIG_PATH;
  const skipHidden = skipsHidden && !process.env.RIPGREP_CONFIG_PATH;
  for (const behavior of ['deny', 'ask'] as const) {
    const index = ctx.index.paths('Read', behavior, ruleContext(ctx));
    for (const folder of paths) {
      // A reader that skips hidden entries (`rg`) still reads those an ignore file's `!` line re-includes, at
      // any depth: the walk, not the rule's name, tells whether it reaches one.
      const rules = index.allInside(folder);
      if (rules.length === 0 || !isFolderPath(folder)) continue;
      const files = tracked ? trackedBelow(folder) : undefined;
      const check = files
        ? firstTracked(files, index, folder)
        : findInFolder(folder, rules, { skipHidden, respectGitignore, readsHiddenMatching });
      if (check.kind === 'match') return { behavior, rule: check.entry.rule, found: check.path };
      // A file the history holds may be gone from the folder. A deny rule that could match it asks (an object no
      // ref reaches may be named by its id); an ask rule asks when the history (every commit a ref or a reflog
      // entry reaches, stashes too) holds a path it matches, or when that cannot be told.
      if (history) {
        const past = behavior === 'ask' && history === 'reachable' ? historyMatch(folder, index) : undefined;
        if (past?.kind === 'match')
          return { behavior, rule: past.entry.rule, found: past.path, history: true };
        if (past === undefined) return { behavior: 'ask', rule: rules[0]!.rule, history: true };
      }
      // Past the limit only deny rules still fail closed. An ask rule is enforced on what the walk reached
      // (breadth first, so the shallow files such as a project's .env); asking for every search of a large tree
      // would make the rule useless.
      if (check.kind === 'too-many' && behavior === 'deny') return { behavior: 'ask', rule: rules[0]!.rule };
    }
  }
  return undefined;
}

/**
 * The files git tracks below a folder, as absolute paths, from the index of the repository the folder lies in
 * (none outside a repository, where git reads nothing); undefined when there is an index that cannot be read (the
 * folder is then looked through whole).
 */
function trackedBelow(folder: string): string[] | undefined {
  for (let root = folder; ; root = dirname(root)) {
    const git = join(root, '.git');
    if (existsSync(git)) {
      if (!statSync(git).isDirectory()) return undefined;
      const paths = trackedPaths(git);
      if (!paths) return undefined;
      const under = folder === root ? '' : `${folder.slice(root.length + 1)}/`;
      return paths.filter((p) => p.startsWith(under)).map((p) => join(root, p));
    }
    if (dirname(root) === root) return [];
  }
}

/** The first tracked file (or a folder above it, below the one read) that a rule matches, in rule order. */
function firstTracked(files: readonly string[], index: PathRuleIndex, folder: string): FolderCheck {
  let best: { entry: PathEntry; path: string } | undefined;
  const seen = new Set<string>();
  for (const file of files) {
    for (let at = file; at.length > folder.length && !seen.has(at); at = dirname(at)) {
      seen.add(at);
      const hit = index.matching(at)[0];
      if (hit && (!best || hit.order < best.entry.order)) best = { entry: hit, path: at };
    }
  }
  return best ? { kind: 'match', ...best } : { kind: 'clear' };
}

/**
 * The folders the links below a folder lead to (not those below the targets), as real paths; undefined when the
 * folder has too many entries to look through.
 */
function linkedFolders(folder: string, ctx: DecisionContext): string[] | undefined {
  const out = new Set<string>();
  const queue = [folder];
  let seen = 0;
  for (let head = 0; head < queue.length; head++) {
    let entries: Dirent[];
    try {
      entries = readdirSync(queue[head]!, { withFileTypes: true });
    } catch {
      continue;
    }
    seen += entries.length;
    if (seen > MAX_FOLDER_ENTRIES) return undefined;
    for (const e of entries) {
      const path = join(queue[head]!, e.name);
      if (e.isDirectory()) queue.push(path);
      else if (e.isSymbolicLink()) {
        const target = realPath(path);
        if (target !== undefined && isFolder(target, ctx)) out.add(target);
      }
    }
  }
  return [...out];
}

/** Names of files that hold a certificate or a key, as PEM text: which one is told by what the file holds. */
const KEY_FILE = /\.(?:pem|key|p8|pk8|crt|cer)$/i;
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----/;

/** A PEM file (by its name) whose first 64 KiB hold a private key. */
function holdsPrivateKey(path: string): boolean {
  if (!KEY_FILE.test(path)) return false;
  let fd: number | undefined;
  try {
    if (!statSync(path).isFile()) return false;
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(65536);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    return PRIVATE_KEY.test(buffer.toString('latin1', 0, size));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Inside cwd or an additional folder, as named or where its links physically lead. */
export function insidePermittedFolders(path: string, ctx: DecisionContext): boolean {
  const inside = (folder: string) => {
    if (isInside(path, folder)) return true;
    const real = realPath(folder, ctx.realPaths);
    return real !== undefined && real !== folder && isInside(path, real);
  };
  return inside(workingFolder(ctx)) || ctx.additionalDirectories.some(inside);
}

/**
 * The folder "inside the working folder" is about: cwd, unless it lies in the project's root as named and a link
 * leads it out (the root is the permitted folder then).
 */
function workingFolder(ctx: DecisionContext): string {
  const root = ctx.root;
  if (root === undefined || root === ctx.cwd || !isInside(ctx.cwd, root)) return ctx.cwd;
  const real = realPath(ctx.cwd, ctx.realPaths);
  const realRoot = realPath(root, ctx.realPaths);
  if (real === undefined || realRoot === undefined) return root;
  return isInside(real, realRoot) ? ctx.cwd : root;
}

/**
 * Decides one file access. Deny rules apply when the path or its symlink target matches; allow rules only
 * when both do. A `Read` deny also blocks writes. Protected and critical paths are never allowed here.
 */
export function decideFile(req: FileRequest, ctx: DecisionContext): PartVerdict {
  const deletes = req.below ? 'deletes entries below' : 'deletes';
  const reads = req.possible ? 'may open' : 'reads';
  const verb = req.changesMetadata
    ? 'changes the mode or owner of'
    : req.access === 'read'
      ? reads
      : req.access === 'delete'
        ? deletes
        : 'writes';
  const subject = req.discards ? `discards ${req.discards}` : `${verb} ${req.shown}`;
  const part = (
    decision: Behavior,
    by: PartVerdict['by'],
    reason: string,
    rule?: PermissionRule | PatternRule,
  ) => {
    const p: PartVerdict = { subject, decision, by, reason };
    if (rule) p.rule = ruleRef(rule);
    return p;
  };
  if (req.path === undefined) {
    return part('ask', 'dynamic', `${subject}: the path is only known at run time`);
  }
  const { paths, real } = candidates(req.path, ctx);
  const writing = req.access !== 'read';
  const editTool = 'Edit';
  const deny =
    firstPathRule(ctx, 'Read', 'deny', paths, false) ??
    (writing ? firstPathRule(ctx, editTool, 'deny', paths, false) : undefined);
  if (deny) return part('deny', 'rule', `${subject}: denied by ${ruleName(deny)}`, deny);
  const denyPattern = firstPatternRule(ctx, 'deny', req.tool, paths, false);
  if (denyPattern) return part('deny', 'rule', `${subject}: ${ruleName(denyPattern)}`, denyPattern);
  const ask =
    firstPathRule(ctx, writing ? editTool : 'Read', 'ask', paths, false) ??
    (writing ? firstPathRule(ctx, 'Read', 'ask', paths, false) : undefined);
  const overriding = ask ? shippedAskOverride(ctx, writing ? editTool : 'Read', writing, paths) : undefined;
  if (ask && !overriding) return part('ask', 'rule', `${subject}: ${ruleName(ask)} asks`, ask);
  const askPattern = firstPatternRule(ctx, 'ask', req.tool, paths, false);
  if (askPattern) return part('ask', 'rule', `${subject}: ${ruleName(askPattern)}`, askPattern);
  if (req.possible) return part('allow', 'file', `${subject}: no rule covers it`);
  if (real === undefined) {
    return part(
      'ask',
      'dynamic',
      `${subject}: cannot tell where the path leads (no permission to look, or a loop of links)`,
    );
  }
  if (!writing && !req.listing) {
    const contents = folderContents(
      ctx,
      paths,
      req.folder === true,
      req.skipsHidden === true,
      req.respectsGitignore === true,
      req.readsHiddenMatching,
      req.history === true || req.history === 'objects'
        ? 'objects'
        : req.history === 'reachable'
          ? 'reachable'
          : false,
      req.tracked === true,
    );
    if (contents?.found !== undefined) {
      const what = isInside(contents.found, ctx.cwd)
        ? contents.found.slice(ctx.cwd.length + 1)
        : contents.found;
      const how = contents.behavior === 'deny' ? 'denied by' : 'which';
      const tail = contents.behavior === 'deny' ? '' : ' asks about';
      return part(
        contents.behavior,
        'rule',
        `${subject}: ${contents.history ? "the repository's history holds" : 'reads'} ${what}, ${how} ${ruleName(contents.rule)}${tail}`,
        contents.rule,
      );
    }
    if (contents) {
      const why = contents.history
        ? `may print files of the repository's history that ${ruleName(contents.rule)} ${contents.rule.behavior === 'deny' ? 'denies' : 'asks about'}`
        : `too large to look through for files ${ruleName(contents.rule)} covers`;
      return part('ask', 'rule', `${subject}: ${why}`, contents.rule);
    }
  }
  if (!writing && req.followsLinks !== undefined) {
    const reached = linkedFolders(real, ctx);
    if (reached === undefined || (reached.length > 0 && req.followsLinks <= 0))
      return part('ask', 'dynamic', `${subject}: follows links below it, too many to look through`);
    let worst: PartVerdict | undefined;
    for (const target of reached) {
      const { coveredByRule: _, ...rest } = req;
      const v = decideFile(
        {
          ...rest,
          path: target,
          shown: `${target} (a link below ${req.shown} leads there)`,
          folder: true,
          followsLinks: req.followsLinks - 1,
          ...(req.coveredByRule ? { coveredByRule: req.coveredByRule } : {}),
        },
        ctx,
      );
      if (v.decision !== 'allow' && (!worst || isStricter(v.decision, worst.decision))) worst = v;
    }
    if (worst) return worst;
  }
  if (!writing && !req.listing) {
    const key = paths.find(holdsPrivateKey);
    if (key) return part('ask', 'protected-path', `${subject}: ${key} holds a private key`);
  }
  if (writing) {
    for (const p of paths) {
      const reason = protectedReason(p);
      if (reason) return part('ask', 'protected-path', `${subject}: ${reason}`);
      const critical = req.access === 'delete' ? criticalRemoval(p, ctx) : undefined;
      if (critical)
        return part('ask', 'critical-path', `${subject}: ${req.below ? 'which is' : 'removes'} ${critical}`);
    }
  }
  if (overriding) {
    const names = overriding.asks.map(ruleName).join(', ');
    const p = part(
      'allow',
      'rule',
      `${subject}: allowed by ${ruleName(overriding.allow)}, which overrides the shipped ask ${names}`,
      overriding.allow,
    );
    p.overrides = overriding.asks.map(ruleRef);
    return p;
  }
  const inside = paths.every((p) => insidePermittedFolders(p, ctx));
  const vouched = req.coveredByRule !== undefined && inside;
  if (!vouched && req.tree && paths.every((p) => !isFile(p)))
    return part(
      'ask',
      'unlisted-writes',
      `${subject}: writes files below it whose names the command line does not show (an archive's, a copied folder's, a commit's or a patch's), protected ones (.claude, .git, .bashrc…) among them`,
    );
  const allow = firstPathRule(ctx, writing ? editTool : 'Read', 'allow', paths, true);
  if (allow) return part('allow', 'rule', `${subject}: allowed by ${ruleName(allow)}`, allow);
  const allowPattern = firstPatternRule(ctx, 'allow', req.tool, paths, true);
  if (allowPattern) return part('allow', 'rule', `${subject}: ${ruleName(allowPattern)}`, allowPattern);
  if (req.coveredByRule && inside) {
    const p = part(
      'allow',
      'rule',
      `${subject}: inside the working folder, part of a command allowed by ${req.coveredByRule.rule?.text}`,
    );
    if (req.coveredByRule.rule) p.rule = req.coveredByRule.rule;
    return p;
  }
  if (!writing) {
    return inside
      ? part('allow', 'file', `${subject}: inside the working folder`)
      : part('ask', 'file', `${subject}: outside the working folder`);
  }
  if (inside && (ctx.mode === 'acceptEdits' || ctx.mode === 'bypassPermissions')) {
    return part('allow', 'mode', `${subject}: ${ctx.mode} accepts edits in the working folder`);
  }
  return part('ask', 'file', `${subject}: no Edit rule allows it`);
}
