import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { remoteRead, type SimpleCommand } from '../../bash/index.js';
import type { DecisionContext } from '../context.js';
import { gitFolders } from '../git-folders.js';
import { indexEntries } from '../git-index.js';
import { isInside, realPath } from '../paths.js';
import { gitEnvironment, type Repository, repositoryOf } from '../revision-writes.js';

const GIT_TIMEOUT_MS = 3_000;
const GITLINK = 0o160000;

/**
 * Why a read-only `git fetch`, `git ls-remote` or `git remote show NAME` is not a read of the repository's own
 * remote, or undefined when it is. The repository's configuration (`.git/config`, a protected path, and the
 * user's own) names the remote, so the words can only pick among the user's remotes: each one the line names
 * must be configured, and every one it may reach must be a network address (a path or `file://` remote reads
 * files the line does not show, as a URL written on the line could point anywhere). fetch also updates refs,
 * which runs the reference-transaction hook (and `gc --auto` the pre-auto-gc one) from `core.hooksPath`: that
 * folder must not be one the agent writes without asking. And it goes on into submodules, whose configuration
 * may lie in the work tree: the index must hold none, or the line say `--no-recurse-submodules`.
 */
export function remoteReadProblem(
  cmd: SimpleCommand,
  cwds: readonly string[] | undefined,
  ctx: DecisionContext,
): string | undefined {
  if (cmd.name?.program !== 'git') return undefined;
  const read = remoteRead(cmd.argv);
  if (!read) return undefined;
  const what = `git ${read.command}`;
  const folders = cwds && gitFolders(cmd, [...cwds], ctx);
  if (!folders) return `${what} runs in a folder only known at run time`;
  for (const folder of folders) {
    const real = realPath(folder, ctx.realPaths);
    const repo = real === undefined ? undefined : repositoryOf(real);
    if (!repo) return `${what} runs in ${folder}, outside a repository whose remotes can be read`;
    const config = remoteConfig(repo);
    if (!config) return `${what}: the repository's remotes cannot be read`;
    for (const word of read.remotes) {
      if (!word.static || !config.urls.has(word.value))
        return `${what} ${word.text}: not a remote the repository's configuration names (a URL or path could point anywhere)`;
    }
    // Without a remote, fetch reads the current branch's (`git push -u URL` may have set a URL there).
    const upstream = config.upstreams.find((name) => !config.urls.has(name));
    if (read.remotes.length === 0 && upstream !== undefined)
      return `${what}: a branch tracks ${upstream}, not a remote the repository's configuration names`;
    const reached = read.remotes.length > 0 ? read.remotes.map((w) => w.value) : [...config.urls.keys()];
    for (const name of reached) {
      const url = config.urls.get(name)!;
      if (url.includes('::') || (!NETWORK_URL.test(url) && !SCP_LIKE.test(url)))
        return `${what}: the remote ${name} is ${url}, not a network address (a path reads files here)`;
    }
    if (read.runsHooks) {
      const hooks = hooksFolder(config.hooksPath, repo, ctx);
      if (hooks) return `${what} runs the hooks in ${hooks}, a folder the agent can write`;
    }
    if (read.submodules) {
      const entries = indexEntries(repo.gitDir);
      if (!entries && existsSync(join(repo.gitDir, 'index')))
        return `${what} may go on into submodules: the index cannot be read`;
      const sub = entries?.find((entry) => (entry.mode & 0o170000) === GITLINK);
      if (sub) return `${what} goes on into the submodule ${sub.path} (--no-recurse-submodules keeps it out)`;
    }
  }
  return undefined;
}

/**
 * Remote addresses read over the network: scheme URLs, and ssh's `[user@]host:path` (a host has no slash). Not
 * `TRANSPORT::ADDRESS`, which runs the program git-remote-TRANSPORT.
 */
const NETWORK_URL = /^(?:https?|ssh|git|git\+ssh|ssh\+git):\/\/[^/\s]+/i;
const SCP_LIKE = /^(?:[\w.+-]+@)?[\w.-]+:(?!\/\/)[^\s]*$/;

interface RemoteConfig {
  /** Each configured remote's name and fetch URL. */
  urls: Map<string, string>;
  /** The remotes branches track (`branch.NAME.remote`): a fetch without a remote reads the current one's. */
  upstreams: string[];
  hooksPath?: string;
}

/** The remotes and hooks folder the repository's configuration (system, global, its own, includes) names. */
function remoteConfig(repo: Repository): RemoteConfig | undefined {
  const env = gitEnvironment(repo);
  const result = spawnSync(
    'git',
    [
      '--no-pager',
      'config',
      '-z',
      '--get-regexp',
      '^(remote\\..+\\.url|branch\\..+\\.remote|core\\.hookspath)$',
    ],
    { cwd: repo.root, env, timeout: GIT_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, encoding: 'utf8' },
  );
  // git config exits 1 when nothing matches.
  if (result.error || (result.status !== 0 && result.status !== 1)) return undefined;
  const config: RemoteConfig = { urls: new Map(), upstreams: [] };
  for (const entry of result.stdout.split('\0').filter(Boolean)) {
    const newline = entry.indexOf('\n');
    const key = newline < 0 ? entry : entry.slice(0, newline);
    const value = newline < 0 ? '' : entry.slice(newline + 1);
    if (key === 'core.hookspath') config.hooksPath = value;
    else if (key.startsWith('branch.')) config.upstreams.push(value);
    // The first url of a remote is the one fetch reads.
    else if (!config.urls.has(key.slice('remote.'.length, -'.url'.length)))
      config.urls.set(key.slice('remote.'.length, -'.url'.length), value);
  }
  return config;
}

/**
 * The hooks folder when it is one the agent may write without asking (the work tree, the project, the
 * working folder, an added folder), else undefined. The default, `.git/hooks`, is a protected path.
 */
function hooksFolder(
  hooksPath: string | undefined,
  repo: Repository,
  ctx: DecisionContext,
): string | undefined {
  if (!hooksPath) return undefined;
  const expanded = hooksPath.startsWith('~/') ? resolve(ctx.home, hooksPath.slice(2)) : hooksPath;
  const path = isAbsolute(expanded) ? expanded : resolve(repo.root, expanded);
  const real = realPath(path, ctx.realPaths) ?? path;
  const gitDir = realPath(repo.gitDir, ctx.realPaths) ?? repo.gitDir;
  if (isInside(real, gitDir)) return undefined;
  const writable = [repo.root, ctx.root, ctx.cwd, ...ctx.additionalDirectories]
    .filter((folder): folder is string => folder !== undefined)
    .map((folder) => realPath(folder, ctx.realPaths) ?? folder);
  return writable.some((folder) => isInside(real, folder) || isInside(path, folder)) ? hooksPath : undefined;
}
