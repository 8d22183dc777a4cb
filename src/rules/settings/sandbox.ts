import path from 'node:path';
import { isObject, isStrings } from '../../shared/index.js';
import type { SourceName } from '../types.js';
import type { SandboxEntry, SandboxSettings } from './types.js';

export function emptySandbox(): SandboxSettings {
  return {
    excludedCommands: [],
    filesystem: { allowWrite: [], denyWrite: [], denyRead: [], allowRead: [] },
    network: { allowedDomains: [], deniedDomains: [], allowUnixSockets: [] },
  };
}

const FLAGS = [
  'enabled',
  'autoAllowBashIfSandboxed',
  'allowUnsandboxedCommands',
  'failIfUnavailable',
  'enableWeakerNestedSandbox',
] as const;
const NETWORK_FLAGS = ['allowAllUnixSockets', 'allowLocalBinding', 'allowManagedDomainsOnly'] as const;
const PORTS = ['httpProxyPort', 'socksProxyPort'] as const;
const PATH_LISTS = ['allowWrite', 'denyWrite', 'denyRead', 'allowRead'] as const;

/**
 * A sandbox path as Claude Code reads it: `/` absolute (`//` too), `~/` the home folder, anything else relative
 * to the settings file's root.
 */
export function sandboxPath(text: string, root: string, home: string): string {
  if (text.startsWith('/')) return path.resolve(text.replace(/^\/\/+/, '/'));
  if (text === '~' || text.startsWith('~/')) return path.join(home, text.slice(1));
  return path.resolve(root, text);
}

function strings(list: unknown, source: SourceName, map: (s: string) => string = (s) => s): SandboxEntry[] {
  if (!Array.isArray(list)) return [];
  return list.filter((x): x is string => typeof x === 'string').map((x) => ({ value: map(x), source }));
}

/**
 * One file's `sandbox` block: its values, its list entries tagged with the file's source, paths made absolute.
 * Reads what is well typed; ill-typed values are reported by the schema and left out here.
 */
export function readSandboxBlock(
  value: unknown,
  source: SourceName,
  ctx: { root: string; home: string },
): SandboxSettings | undefined {
  if (!isObject(value)) return undefined;
  const block = emptySandbox();
  for (const key of FLAGS) if (typeof value[key] === 'boolean') block[key] = value[key];
  if (isStrings(value.enabledPlatforms)) block.enabledPlatforms = value.enabledPlatforms;
  block.excludedCommands = strings(value.excludedCommands, source);
  const fs = isObject(value.filesystem) ? value.filesystem : {};
  for (const key of PATH_LISTS)
    block.filesystem[key] = strings(fs[key], source, (s) => sandboxPath(s, ctx.root, ctx.home));
  const net = isObject(value.network) ? value.network : {};
  block.network.allowedDomains = strings(net.allowedDomains, source, (s) => s.toLowerCase());
  block.network.deniedDomains = strings(net.deniedDomains, source, (s) => s.toLowerCase());
  block.network.allowUnixSockets = strings(net.allowUnixSockets, source, (s) =>
    sandboxPath(s, ctx.root, ctx.home),
  );
  for (const key of NETWORK_FLAGS) if (typeof net[key] === 'boolean') block.network[key] = net[key];
  for (const key of PORTS) {
    const port = net[key];
    if (typeof port === 'number' && Number.isInteger(port) && port >= 1 && port <= 65535)
      block.network[key] = port;
  }
  if (block.network.allowManagedDomainsOnly !== undefined && source !== 'policySettings')
    delete block.network.allowManagedDomainsOnly;
  return block;
}

/** Blocks in rising precedence: the last one to set a value wins; lists add up. */
export function mergeSandbox(blocks: readonly SandboxSettings[]): SandboxSettings | undefined {
  if (blocks.length === 0) return undefined;
  const out = emptySandbox();
  for (const b of blocks) {
    for (const key of FLAGS) if (b[key] !== undefined) out[key] = b[key];
    if (b.enabledPlatforms !== undefined) out.enabledPlatforms = b.enabledPlatforms;
    out.excludedCommands.push(...b.excludedCommands);
    for (const key of PATH_LISTS) out.filesystem[key].push(...b.filesystem[key]);
    out.network.allowedDomains.push(...b.network.allowedDomains);
    out.network.deniedDomains.push(...b.network.deniedDomains);
    out.network.allowUnixSockets.push(...b.network.allowUnixSockets);
    for (const key of NETWORK_FLAGS) if (b.network[key] !== undefined) out.network[key] = b.network[key];
    for (const key of PORTS) if (b.network[key] !== undefined) out.network[key] = b.network[key];
  }
  return out;
}
