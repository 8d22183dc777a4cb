import { closeSync, openSync, readSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

/** The most of a settings file read; a longer one is not looked through. */
const MAX_BYTES = 1024 * 1024;

const PROGRAMS = new Set(['npm', 'pnpm']);

/**
 * Why a command of npm's that talks to the registry may send credentials elsewhere or write where the project
 * says: the first `.npmrc` in a working folder or above that sets a key not known to be harmless. Undefined
 * when none does.
 */
export function registryRedirect(
  program: string,
  network: boolean,
  cwds: readonly string[] | undefined,
  home: string,
): string | undefined {
  if (!network || !PROGRAMS.has(program)) return undefined;
  if (!cwds) return 'a project .npmrc in a folder only known at run time may name another registry';
  const own = join(home, '.npmrc');
  for (const cwd of cwds) {
    for (let at = cwd; ; at = dirname(at)) {
      const file = join(at, '.npmrc');
      if (file !== own) {
        const key = unsafeKey(file);
        if (key)
          return `${file} sets ${key}: ${program} may send the registry's credentials or write elsewhere`;
      }
      const pnpm = program === 'pnpm' ? pnpmProblem(at) : undefined;
      if (pnpm) return pnpm;
      if (dirname(at) === at) break;
    }
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
  const json = readBounded(manifest);
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = json instanceof Error ? undefined : JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return `${manifest} cannot be read`;
  const fields = parsed as Record<string, unknown>;
  const manager = fields.packageManager;
  if (manager !== undefined && !(typeof manager === 'string' && PNPM_RELEASE.test(manager)))
    return `${manifest} names the package manager ${String(manager).slice(0, 60)}: pnpm may fetch and run it`;
  if (fields.devEngines !== undefined)
    return `${manifest} sets devEngines: pnpm may fetch and run the package manager it names`;
  return undefined;
}

/** A file's text; undefined when there is none; an Error when it cannot be read or is too long. */
function readBounded(file: string): string | Error | undefined {
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_BYTES + 1);
      const read = readSync(fd, buffer, 0, buffer.length, 0);
      if (read > MAX_BYTES) return new Error('more than can be read');
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : (error as Error);
  }
}

/** The first key of the file not known to be harmless (or why it cannot be read); undefined when none. */
function unsafeKey(file: string): string | undefined {
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

/** Tables of cargo's configuration that change neither what it runs nor where it connects or reads. */
const CARGO_TABLES = new Set(['alias', 'term', 'cargo-new']);

/**
 * cargo reads `.cargo/config.toml` (and `.cargo/config`) in the working folder and every folder above: there
 * `build.rustc` or `build.rustc-wrapper` names a program that `cargo tree` and `cargo info` run to learn the
 * target, and `source`, `registries` and `credential-provider` send what it fetches and the tokens it holds
 * elsewhere. A read stays read-only only where every such file (CARGO_HOME's, the user's own, aside) sets
 * nothing but aliases and terminal settings. Undefined when none sets more.
 */
export function cargoConfig(
  program: string,
  cwds: readonly string[] | undefined,
  home: string,
): string | undefined {
  if (program !== 'cargo') return undefined;
  if (!cwds) return 'a .cargo/config.toml in a folder only known at run time may name a program cargo runs';
  const own = join(home, '.cargo');
  for (const cwd of cwds) {
    for (let at = cwd; ; at = dirname(at)) {
      const folder = join(at, '.cargo');
      for (const name of folder === own ? [] : ['config.toml', 'config']) {
        const file = join(folder, name);
        const text = readBounded(file);
        if (text instanceof Error) return `${file} cannot be read`;
        const table = text === undefined ? undefined : unsafeTable(text);
        if (table) return `${file} sets ${table}: cargo may run a program or connect where it says`;
      }
      if (dirname(at) === at) break;
    }
  }
  return undefined;
}

/** The first table or top-level key of a TOML file outside CARGO_TABLES; undefined when none is. */
function unsafeTable(text: string): string | undefined {
  let root: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const header = /^\[\[?\s*([A-Za-z0-9_-]+)\s*(?:[.\]])/.exec(line);
    if (line.startsWith('[')) {
      root = header?.[1];
      if (!root || !CARGO_TABLES.has(root)) return line.slice(0, 60);
      continue;
    }
    const key = /^([A-Za-z0-9_-]+)/.exec(line)?.[1];
    if (root === undefined && (!key || !CARGO_TABLES.has(key))) return line.slice(0, 60);
  }
  return undefined;
}

/** `.yarnrc.yml` settings that shape output, the lock file or what an install would do, and nothing else. */
const YARNRC_YML_KEYS = new Set([
  'checksumBehavior',
  'compressionLevel',
  'defaultSemverRangePrefix',
  'enableColors',
  'enableGlobalCache',
  'enableHyperlinks',
  'enableImmutableCache',
  'enableImmutableInstalls',
  'enableInlineBuilds',
  'enableMessageNames',
  'enableProgressBars',
  'enableScripts',
  'enableTelemetry',
  'enableTimers',
  'nmHoistingLimits',
  'nmMode',
  'nodeLinker',
  'pnpMode',
  'preferInteractive',
  'preferReuse',
  'progressBarStyle',
  'tsEnableAutoTypes',
]);

/** Classic `.yarnrc` settings of the same kind. */
const YARNRC_KEYS = new Set([
  'disable-self-update-check',
  'save-prefix',
  'save-exact',
  '--install.frozen-lockfile',
  '--install.pure-lockfile',
  '--install.ignore-engines',
  '--add.exact',
  'ignore-engines',
  'lastUpdateCheck',
]);

/** A yarn release from the registry, as `packageManager` names one. */
const YARN_RELEASE = /^yarn@\d+\.\d+\.\d+(?:-[\w.]+)?(?:\+[\w.-]+)?$/;

/**
 * yarn runs and sends what the project's configuration says: berry loads `.yarnrc.yml`'s `yarnPath` (a yarn of
 * the project's) and `plugins` for every command, classic `.yarnrc`'s `yarn-path`; both send the registry's
 * credentials to the registry `.yarnrc.yml`, `.yarnrc` or `.npmrc` names, and corepack fetches the release
 * package.json's `packageManager` names. Berry runs the project's script named like a classic read command
 * (`yarn list`). A read stays read-only only where every such file in the working folder or above (the user's
 * own in the home folder aside) sets nothing but harmless keys, and no package.json there has a script of the
 * command's name. Undefined when none does.
 */
export function yarnConfig(
  program: string,
  command: string | undefined,
  scriptNames: ReadonlySet<string>,
  cwds: readonly string[] | undefined,
  home: string,
): string | undefined {
  if (program !== 'yarn' || command === undefined) return undefined;
  if (!cwds) return 'a .yarnrc.yml in a folder only known at run time may name code yarn runs';
  const first = command.split(' ')[0]!;
  for (const cwd of cwds) {
    for (let at = cwd; ; at = dirname(at)) {
      if (at !== home) {
        const problem = yarnFolderProblem(at, scriptNames.has(first) ? first : undefined);
        if (problem) return problem;
      }
      if (dirname(at) === at) break;
    }
  }
  return undefined;
}

function yarnFolderProblem(folder: string, script: string | undefined): string | undefined {
  const yml = join(folder, '.yarnrc.yml');
  const text = readBounded(yml);
  if (text instanceof Error) return `${yml} cannot be read`;
  for (const line of text?.split(/\r?\n/) ?? []) {
    if (line.trim() === '' || line.trimStart().startsWith('#') || line === '---' || /^\s/.test(line))
      continue;
    const key = /^["']?([A-Za-z][\w-]*)["']?\s*:/.exec(line)?.[1];
    if (!key || !YARNRC_YML_KEYS.has(key))
      return `${yml} sets ${key ?? line.slice(0, 60)}: yarn may run or send what it says`;
  }
  const rc = join(folder, '.yarnrc');
  const classic = readBounded(rc);
  if (classic instanceof Error) return `${rc} cannot be read`;
  for (const raw of classic?.split(/\r?\n/) ?? []) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const key = /^"?([^\s"]+)"?/.exec(line)?.[1];
    if (!key || !YARNRC_KEYS.has(key))
      return `${rc} sets ${key ?? line.slice(0, 60)}: yarn may run or send what it says`;
  }
  const npmrc = join(folder, '.npmrc');
  const key = unsafeKey(npmrc);
  if (key) return `${npmrc} sets ${key}: yarn may send the registry's credentials elsewhere`;
  const manifest = join(folder, 'package.json');
  const json = readBounded(manifest);
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = json instanceof Error ? undefined : JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return `${manifest} cannot be read`;
  const fields = parsed as Record<string, unknown>;
  const manager = fields.packageManager;
  if (manager !== undefined && !(typeof manager === 'string' && YARN_RELEASE.test(manager)))
    return `${manifest} names the package manager ${String(manager).slice(0, 60)}: yarn may fetch and run it`;
  const scripts = fields.scripts;
  if (script && typeof scripts === 'object' && scripts !== null && Object.hasOwn(scripts, script))
    return `${manifest} has a script ${script}, which yarn 2 and later run for yarn ${script}`;
  return undefined;
}
