import path from 'node:path';
import { EDIT_TOOLS } from '../../policy/index.js';
import type { LoadedSettings, PathPattern, PermissionRule, Rule } from '../../rules/index.js';
import { protectedWrites } from './protected.js';

function permissionRules(rules: readonly Rule[]): PermissionRule[] {
  return rules.filter((r): r is PermissionRule => r.type === 'permission');
}

/** A path rule as the sandbox's path or glob: `Edit(src/**)` in the project is `<cwd>/src`. */
function rulePath(pattern: PathPattern, settings: LoadedSettings, cwd: string): string {
  const base =
    pattern.anchor === 'absolute'
      ? '/'
      : pattern.anchor === 'home'
        ? settings.home
        : pattern.anchor === 'root'
          ? (pattern.root ?? cwd)
          : cwd;
  const glob = pattern.glob.replace(/(^|\/)\*\*$/, '');
  return path.join(base, pattern.anyDepth ? `**/${glob}` : glob);
}

function pathsOf(
  rules: readonly PermissionRule[],
  behavior: 'allow' | 'deny',
  tools: (tool: string) => boolean,
  settings: LoadedSettings,
  cwd: string,
): string[] {
  return rules.flatMap((r) =>
    r.behavior === behavior && r.parsed.kind === 'path' && tools(r.parsed.tool)
      ? [rulePath(r.parsed.pattern, settings, cwd)]
      : [],
  );
}

function domainsOf(
  rules: readonly PermissionRule[],
  behavior: 'allow' | 'deny',
  managedOnly: boolean,
): string[] {
  return rules.flatMap((r) =>
    r.behavior === behavior &&
    r.parsed.kind === 'domain' &&
    (!managedOnly || behavior === 'deny' || r.provenance.source === 'policySettings')
      ? [r.parsed.pattern.subdomains ? `*.${r.parsed.pattern.domain}` : r.parsed.pattern.domain]
      : [],
  );
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/**
 * What automode configures of the runtime: a part of its `SandboxConfig`, written out so that automode's
 * own declarations do not reach into the runtime's types (`runtime.ts` checks that it fits).
 */
export interface SandboxConfig {
  network: {
    allowedDomains: string[];
    deniedDomains: string[];
    allowUnixSockets?: string[];
    allowAllUnixSockets?: boolean;
    allowLocalBinding?: boolean;
    httpProxyPort?: number;
    socksProxyPort?: number;
  };
  filesystem: { allowWrite: string[]; denyWrite: string[]; denyRead: string[]; allowRead: string[] };
  enableWeakerNestedSandbox?: boolean;
}

/** The project folder and every added working folder, where the agent's own configuration is protected. */
function projectFolders(settings: LoadedSettings, cwd: string): string[] {
  return unique([path.resolve(cwd), ...settings.additionalDirectories.map((d) => d.path)]);
}

/** Every settings file of every source, present or not (an inline `--settings` has no file). */
function settingsFiles(settings: LoadedSettings): string[] {
  return settings.files.filter((f) => path.isAbsolute(f.path)).map((f) => f.path);
}

/**
 * The runtime's configuration (the path rules of the tools that write files widen or narrow where commands may
 * write): writes in the working folder, the sandbox's private temp folder and what `sandbox.filesystem` and
 * Edit allow rules add, minus `denyWrite`, Edit deny rules and the agent's own configuration
 * (`protectedWrites`, as the disk is now: `below` also looks for it below the project folders, as `Sandbox.wrap`
 * does for each command); reads everywhere but `denyRead` and Read deny rules; network only to
 * `sandbox.network.allowedDomains` and WebFetch(domain:…) allow rules.
 */
export function sandboxRuntimeConfig(
  settings: LoadedSettings,
  cwd: string,
  tempDir: string,
  below = false,
): SandboxConfig {
  const sandbox = settings.sandbox;
  const rules = permissionRules(settings.rules);
  const values = (entries: readonly { value: string }[] | undefined) => (entries ?? []).map((e) => e.value);
  const managedOnly = sandbox?.network.allowManagedDomainsOnly === true;
  const allowedDomains = (sandbox?.network.allowedDomains ?? [])
    .filter((e) => !managedOnly || e.source === 'policySettings')
    .map((e) => e.value);
  const network: SandboxConfig['network'] = {
    allowedDomains: unique([...allowedDomains, ...domainsOf(rules, 'allow', managedOnly)]),
    deniedDomains: unique([
      ...values(sandbox?.network.deniedDomains),
      ...domainsOf(rules, 'deny', managedOnly),
    ]),
  };
  const sockets = values(sandbox?.network.allowUnixSockets);
  if (sockets.length > 0) network.allowUnixSockets = sockets;
  for (const key of [
    'allowAllUnixSockets',
    'allowLocalBinding',
    'httpProxyPort',
    'socksProxyPort',
  ] as const) {
    const value = sandbox?.network[key];
    if (value !== undefined) (network as Record<string, unknown>)[key] = value;
  }
  const config: SandboxConfig = {
    network,
    filesystem: {
      allowWrite: unique([
        path.resolve(cwd),
        tempDir,
        ...values(sandbox?.filesystem.allowWrite),
        ...pathsOf(rules, 'allow', (t) => EDIT_TOOLS.has(t), settings, cwd),
      ]),
      denyWrite: unique([
        ...values(sandbox?.filesystem.denyWrite),
        ...pathsOf(rules, 'deny', (t) => EDIT_TOOLS.has(t), settings, cwd),
        ...protectedWrites(
          {
            folders: projectFolders(settings, cwd),
            home: settings.home,
            settingsFiles: settingsFiles(settings),
          },
          below,
        ),
      ]),
      denyRead: unique([
        ...values(sandbox?.filesystem.denyRead),
        ...pathsOf(rules, 'deny', (t) => t === 'Read', settings, cwd),
      ]),
      allowRead: unique(values(sandbox?.filesystem.allowRead)),
    },
  };
  if (sandbox?.enableWeakerNestedSandbox !== undefined)
    config.enableWeakerNestedSandbox = sandbox.enableWeakerNestedSandbox;
  return config;
}
