import { readFile } from 'node:fs/promises';
import type { LoadedSettings } from '../../rules/settings-types.js';
import type { McpServerConfig } from './mcp.js';

const isObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

/**
 * The `mcpServers` of the settings files that exist, lowest precedence first so that a higher source's server
 * of the same name wins. Only stdio servers are supported; others are reported and left out.
 */
export async function mcpServersFromSettings(
  settings: LoadedSettings,
): Promise<{ servers: Record<string, McpServerConfig>; problems: string[] }> {
  const servers: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  const order = ['userSettings', 'projectSettings', 'localSettings', 'flagSettings', 'policySettings'];
  const files = settings.files
    .filter((f) => f.exists && order.includes(f.source))
    .sort((a, b) => order.indexOf(a.source) - order.indexOf(b.source));
  for (const f of files) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(f.path, 'utf8'));
    } catch {
      continue; // the settings loader reports unreadable files already
    }
    if (!isObject(json) || !isObject(json.mcpServers)) continue;
    for (const [name, raw] of Object.entries(json.mcpServers)) {
      const ok =
        isObject(raw) &&
        (raw.type === undefined || raw.type === 'stdio') &&
        typeof raw.command === 'string' &&
        (raw.args === undefined || isStrings(raw.args)) &&
        (raw.env === undefined ||
          (isObject(raw.env) && Object.values(raw.env).every((v) => typeof v === 'string')));
      if (!ok) {
        problems.push(
          `${f.path}: mcpServers.${name} is not a stdio server ({"command", "args", "env"}); left out`,
        );
        continue;
      }
      const config: McpServerConfig = { command: raw.command as string };
      if (raw.args) config.args = raw.args as string[];
      if (raw.env) config.env = raw.env as Record<string, string>;
      servers[name] = config;
    }
  }
  return { servers, problems };
}
