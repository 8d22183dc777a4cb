import { join } from 'node:path';
import type { ProjectPlace } from './place.js';
import { foldersUp, readBounded, readManifest } from './read.js';

/**
 * npm reads `.npmrc` from the project it runs in (the nearest folder with a package.json or node_modules, the
 * workspace root above it), and every command that talks to the registry (update notifier included) sends the
 * credentials the configuration holds for it. A project's `.npmrc` that names another registry with
 * `//host/:_authToken=${NPM_TOKEN}` sends the user's token there; `cache` or `logs-dir` move npm's writes.
 * A read stays read-only only when every `.npmrc` in the working folder or above (the user's own `~/.npmrc`
 * aside) sets nothing but the keys below, which shape output, the lock file or what an install would do, and
 * never where npm connects, what it sends or what it writes.
 */
const SAFE_KEYS = new Set([
  'audit',
  'audit-level',
  'color',
  'engine-strict',
  'fund',
  'git-tag-version',
  'ignore-scripts',
  'include',
  'init-author-email',
  'init-author-name',
  'init-author-url',
  'init-license',
  'init-version',
  'install-links',
  'install-strategy',
  'legacy-peer-deps',
  'lockfile-version',
  'loglevel',
  'message',
  'omit',
  'package-lock',
  'prefer-dedupe',
  'prefer-offline',
  'prefer-online',
  'progress',
  'save',
  'save-exact',
  'save-prefix',
  'sign-git-tag',
  'strict-peer-deps',
  'tag-version-prefix',
  'unicode',
  'update-notifier',
  // pnpm's keys of the same kind, read from the same file.
  'auto-install-peers',
  'dedupe-peer-dependents',
  'hoist',
  'hoist-pattern',
  'link-workspace-packages',
  'node-linker',
  'prefer-workspace-packages',
  'public-hoist-pattern',
  'resolution-mode',
  'save-workspace-protocol',
  'shamefully-hoist',
  'strict-peer-dependencies',
]);

/**
 * Why a command of npm's that talks to the registry may send credentials elsewhere or write where the project
 * says: the first `.npmrc` in a working folder or above that sets a key not known to be harmless. Undefined
 * when none does.
 */
export function npmSettings({ program, network, cwds, ctx }: ProjectPlace): string | undefined {
  if (!network) return undefined;
  if (!cwds) return 'a project .npmrc in a folder only known at run time may name another registry';
  const own = join(ctx.home, '.npmrc');
  for (const at of foldersUp(cwds)) {
    const file = join(at, '.npmrc');
    if (file !== own) {
      const key = unsafeKey(file);
      if (key)
        return `${file} sets ${key}: ${program} may send the registry's credentials or write elsewhere`;
    }
    const pnpm = program === 'pnpm' ? pnpmProblem(at) : undefined;
    if (pnpm) return pnpm;
  }
  return undefined;
}

/** pnpm-workspace.yaml's keys that only list the workspace's packages and version catalogs. */
const WORKSPACE_KEYS = new Set(['packages', 'catalog', 'catalogs']);

/** A pnpm release from the registry, as `packageManager` names one (not a URL or a file). */
const PNPM_RELEASE = /^pnpm@\d+\.\d+\.\d+(?:-[\w.]+)?(?:\+[\w.-]+)?$/;

/**
 * What pnpm reads in a folder that runs code or changes what it reads: a `.pnpmfile.cjs` (loaded by every
 * command, `list` and `root` included), pnpm-workspace.yaml settings beyond the package list and catalogs, and a
 * `packageManager` (or `devEngines`) in package.json naming anything but a registry release of pnpm.
 */
function pnpmProblem(folder: string): string | undefined {
  for (const name of ['.pnpmfile.cjs', '.pnpmfile.mjs']) {
    const file = join(folder, name);
    if (readBounded(file) !== undefined) return `pnpm runs ${file}, which the project may have written`;
  }
  const workspace = join(folder, 'pnpm-workspace.yaml');
  const yaml = readBounded(workspace);
  if (yaml instanceof Error) return `${workspace} cannot be read`;
  for (const line of yaml?.split(/\r?\n/) ?? []) {
    if (line.trim() === '' || line.startsWith('#') || line === '---' || /^\s/.test(line)) continue;
    const key = /^([A-Za-z][\w-]*):/.exec(line)?.[1];
    if (!key || !WORKSPACE_KEYS.has(key))
      return `${workspace} sets ${key ?? line.slice(0, 60)}: pnpm may run or fetch what it says`;
  }
  const manifest = join(folder, 'package.json');
  const fields = readManifest(manifest);
  if (typeof fields !== 'object') return fields;
  const manager = fields.packageManager;
  if (manager !== undefined && !(typeof manager === 'string' && PNPM_RELEASE.test(manager)))
    return `${manifest} names the package manager ${String(manager).slice(0, 60)}: pnpm may fetch and run it`;
  if (fields.devEngines !== undefined)
    return `${manifest} sets devEngines: pnpm may fetch and run the package manager it names`;
  return undefined;
}

/** The first key of the file not known to be harmless (or why it cannot be read); undefined when none. */
export function unsafeKey(file: string): string | undefined {
  const text = readBounded(file);
  if (text === undefined) return undefined;
  if (text instanceof Error) return 'settings that cannot be read';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const key = /^([a-z][a-z0-9-]*)\s*=/.exec(line)?.[1];
    if (!key || !SAFE_KEYS.has(key)) return key ?? line.slice(0, 60);
  }
  return undefined;
}
