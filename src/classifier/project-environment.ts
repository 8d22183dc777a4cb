import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { type ProseEntry, type ProseRules, readRegularFileSync } from '../rules/index.js';

/**
 * What automode can see of the project at classify time, as `environment` entries for the model: the working
 * folder, its git repository and remotes (read from the git config, git is never run), and the services on this
 * machine (localhost, local Kubernetes clusters, LocalStack). Loaded with the judge only: the rules never pay.
 */

export interface EnvironmentSources {
  /** The home folder, for ~/.kube/config and ~/.aws/config (default: the user's). */
  home?: string;
  /** For KUBECONFIG and AWS_ENDPOINT_URL (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * What each path the facts were read from was (its stat signature), while facts are being detected: the facts
 * are detected again once one of them changes (another kubectl context, a new remote), as settings are.
 */
let seen: Map<string, string> | undefined;

function signature(path: string): string {
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}` : '-';
  } catch (e) {
    return `!${(e as NodeJS.ErrnoException).code}`;
  }
}

function note(path: string): void {
  if (seen && !seen.has(path)) seen.set(path, signature(path));
}

/** A regular file's text (never a FIFO's or a device's, which a project can plant), noted for the refresh. */
function readText(path: string): string | undefined {
  note(path);
  return readRegularFileSync(path)?.toString('utf8');
}

function isDir(path: string): boolean {
  note(path);
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export interface GitRepository {
  /** The folder that holds `.git`. */
  root: string;
  /** Remote name → URL, in the order the config lists them. */
  remotes: { name: string; url: string }[];
}

/** The git folder a `.git` entry stands for: itself, or what a worktree's or submodule's `.git` file points to. */
function gitDirOf(dotGit: string): string | undefined {
  if (isDir(dotGit)) return dotGit;
  const text = readText(dotGit);
  const m = text?.match(/^gitdir:\s*(.+?)\s*$/m);
  if (!m) return undefined;
  return isAbsolute(m[1]!) ? m[1]! : resolve(dirname(dotGit), m[1]!);
}

/** The remotes of a git config file: `[remote "name"]` sections and their `url`. */
export function remotesOf(config: string): { name: string; url: string }[] {
  const remotes: { name: string; url: string }[] = [];
  let remote: string | undefined;
  for (const raw of config.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      remote = line.match(/^\[\s*remote\s+"([^"]*)"\s*\]/)?.[1];
      continue;
    }
    const m = remote !== undefined ? line.match(/^url\s*=\s*(.*?)\s*$/i) : null;
    if (m && remote !== undefined && !remotes.some((r) => r.name === remote)) {
      remotes.push({ name: remote, url: m[1]!.replace(/^"(.*)"$/, '$1') });
    }
  }
  return remotes;
}

/** The git repository that holds `cwd`, found by walking up to a `.git` folder or file. */
export function gitRepository(cwd: string): GitRepository | undefined {
  let folder = resolve(cwd);
  for (;;) {
    const gitDir = gitDirOf(join(folder, '.git'));
    if (gitDir) {
      // A linked worktree's git folder names the repository's own in `commondir`; its config lives there.
      const common = readText(join(gitDir, 'commondir'))?.trim();
      const configDir = common ? resolve(gitDir, common) : gitDir;
      return { root: folder, remotes: remotesOf(readText(join(configDir, 'config')) ?? '') };
    }
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** A remote URL as host/path, without credentials or `.git`: `git@github.com:org/repo.git` → `github.com/org/repo`. */
export function displayRemote(url: string): string {
  const bare = (path: string) => path.replace(/\/$/, '').replace(/\.git$/, '');
  if (url.includes('://')) {
    try {
      const u = new URL(url);
      return u.protocol === 'file:' ? bare(u.pathname) : `${u.hostname}${bare(u.pathname)}`;
    } catch {
      return bare(url);
    }
  }
  // scp-like syntax, as git reads it: a colon before any slash.
  const scp = url.match(/^(?:[^@/]+@)?([^/:]+):(.+)$/);
  return scp ? `${scp[1]}/${bare(scp[2]!.replace(/^\//, ''))}` : bare(url);
}

const LOCAL_CONTEXT = /^(kind-.+|minikube|docker-desktop|docker-for-desktop|rancher-desktop|k3d-.+|colima)$/;

export interface KubeContexts {
  current?: string;
  local: string[];
}

/** The kubectl contexts named like local clusters (kind-*, minikube, docker-desktop, rancher-desktop…). */
export function kubeContexts(home: string, env: NodeJS.ProcessEnv): KubeContexts {
  const files = env.KUBECONFIG
    ? env.KUBECONFIG.split(delimiter).filter(Boolean)
    : [join(home, '.kube', 'config')];
  const result: KubeContexts = { local: [] };
  for (const file of files) {
    const text = readText(file);
    if (!text) continue;
    let doc: unknown;
    try {
      doc = parseYaml(text);
    } catch {
      continue;
    }
    if (!doc || typeof doc !== 'object') continue;
    const d = doc as { 'current-context'?: unknown; contexts?: unknown };
    if (result.current === undefined && typeof d['current-context'] === 'string' && d['current-context'])
      result.current = d['current-context'];
    for (const c of Array.isArray(d.contexts) ? d.contexts : []) {
      const name = (c as { name?: unknown } | null)?.name;
      if (typeof name === 'string' && LOCAL_CONTEXT.test(name) && !result.local.includes(name))
        result.local.push(name);
    }
  }
  return result;
}

/** Whether the project or the user points AWS at LocalStack (localhost:4566). */
function usesLocalStack(root: string | undefined, home: string, env: NodeJS.ProcessEnv): boolean {
  const mentions = (text: string | undefined) =>
    !!text && /localstack|(localhost|127\.0\.0\.1):4566/i.test(text);
  if (Object.entries(env).some(([k, v]) => k.startsWith('AWS_ENDPOINT_URL') && mentions(v))) return true;
  if (mentions(readText(join(home, '.aws', 'config')))) return true;
  if (!root) return false;
  let names: string[] = [];
  note(root);
  try {
    names = readdirSync(root);
  } catch {
    return false;
  }
  return names
    .filter((n) => /^(docker-)?compose[\w.-]*\.ya?ml$/i.test(n))
    .some((n) => mentions(readText(join(root, n))));
}

/** The facts, as the texts of environment entries. */
export function detectProjectEnvironment(cwd: string, sources: EnvironmentSources = {}): string[] {
  const home = sources.home ?? homedir();
  const env = sources.env ?? process.env;
  const facts: string[] = [];
  const repo = gitRepository(cwd);
  facts.push(`Working folder: ${resolve(cwd)} (the folder the agent works in).`);
  if (repo) {
    facts.push(`Git repository: ${repo.root} (the git repository that holds the working folder).`);
    for (const r of repo.remotes)
      facts.push(`Trusted repository: ${displayRemote(r.url)} (the working folder's git remote ${r.name}).`);
  }
  facts.push(
    'Local services: localhost, 127.0.0.1 and ::1 are services on this machine, not remote systems.',
  );
  const kube = kubeContexts(home, env);
  if (kube.local.length > 0) {
    const current = kube.current && kube.local.includes(kube.current) ? ` (current: ${kube.current})` : '';
    facts.push(
      `Local Kubernetes: the kubectl contexts ${kube.local.join(', ')}${current} are local clusters on this machine.`,
    );
  }
  if (usesLocalStack(repo?.root, home, env)) {
    facts.push(
      'LocalStack: AWS calls to localhost:4566 go to LocalStack, a local emulator, not to real AWS.',
    );
  }
  return facts;
}

const cache = new Map<string, { facts: string[]; env: string; read: Map<string, string> }>();

/** The variables the facts read, as one string: another value detects them again. */
function envKey(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(
    Object.entries(env)
      .filter(([k]) => k === 'KUBECONFIG' || k.startsWith('AWS_ENDPOINT_URL'))
      .sort(),
  );
}

/**
 * The project's facts for `cwd`, detected again whenever a file or folder they were read from changed (each call
 * stats them: a few paths) or the variables they read did, so a long-running service tells the model the
 * kubectl context and remotes of now, not of its start.
 */
export function projectEnvironment(cwd: string, sources?: EnvironmentSources): string[] {
  const env = envKey(sources?.env ?? process.env);
  const cached = cache.get(cwd);
  if (cached && cached.env === env && [...cached.read].every(([path, sig]) => signature(path) === sig))
    return cached.facts;
  seen = new Map();
  try {
    const facts = detectProjectEnvironment(cwd, sources);
    cache.set(cwd, { facts, env, read: seen });
    return facts;
  } finally {
    seen = undefined;
  }
}

/** The prose rules with the project's facts after the configured environment entries. */
export function withProjectEnvironment(prose: ProseRules, facts: readonly string[]): ProseRules {
  const added: ProseEntry[] = facts.map((text, index) => ({
    section: 'environment',
    label: text.slice(0, text.indexOf(':')),
    text,
    provenance: { source: 'defaults', pointer: `/environment/project/${index}`, index },
  }));
  return { ...prose, environment: [...prose.environment, ...added] };
}
