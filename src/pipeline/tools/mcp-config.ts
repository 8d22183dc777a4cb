import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedSettings, SourceName } from '../../rules/index.js';
import { isObject, isStringRecord, isStrings } from '../../shared/index.js';
import { errorText } from '../errors.js';
import type {
  McpHttpServerConfig,
  McpServerConfig,
  McpSseServerConfig,
  McpStdioServerConfig,
} from './mcp.js';

export interface McpConfigOptions {
  /**
   * The environment `${VAR}` and `${VAR:-default}` are expanded from (default `process.env`). The settings'
   * merged `env` is laid over it, as Claude Code applies it to its own environment before starting servers.
   */
  env?: Record<string, string | undefined>;
}

type Json = Record<string, unknown>;

/** Settings sources that may hold `mcpServers` and the `.mcp.json` approvals, lowest precedence first. */
const SETTINGS_ORDER: SourceName[] = [
  'userSettings',
  'projectSettings',
  'localSettings',
  'flagSettings',
  'policySettings',
];

interface Layer {
  /** Where the servers were read from, for problems. */
  where: string;
  servers: Json;
  fromMcpJson: boolean;
}

interface Approvals {
  enableAll: boolean;
  enabled: Set<string>;
  disabled: Set<string>;
}

/**
 * The MCP servers to connect to: the `mcpServers` of the settings files that exist and of the project's
 * `.mcp.json`, with `${VAR}` and `${VAR:-default}` expanded. A name defined in several places is taken from the
 * highest in precedence: user settings, `.mcp.json`, project settings, local settings, flag settings, policy.
 * Claude Code orders its scopes local > project (`.mcp.json`) > user; here `.mcp.json` shares the project rank
 * and yields to the project's `.claude/settings.json`. Stdio servers run in the project folder (`settings.cwd`).
 *
 * A `.mcp.json` server is used only when the settings approve it: its name in `enabledMcpjsonServers` or
 * `enableAllProjectMcpServers: true`, and never when its name is in `disabledMcpjsonServers`. Servers that are
 * invalid, not approved or use an unset variable without a default are reported in `problems` and left out;
 * a same-named server of lower precedence is then kept.
 */
export async function mcpServersFromSettings(
  settings: LoadedSettings,
  options: McpConfigOptions = {},
): Promise<{ servers: Record<string, McpServerConfig>; problems: string[] }> {
  const problems: string[] = [];
  const env = { ...(options.env ?? process.env), ...settings.env };
  const files = settings.files
    .filter((f) => f.exists && SETTINGS_ORDER.includes(f.source))
    .sort((a, b) => SETTINGS_ORDER.indexOf(a.source) - SETTINGS_ORDER.indexOf(b.source));

  const layers: Layer[] = [];
  const approvals: Approvals = { enableAll: false, enabled: new Set(), disabled: new Set() };
  let mcpJsonAt = 0;
  for (const f of files) {
    let json: unknown;
    try {
      json = JSON.parse(await readFile(f.path, 'utf8'));
    } catch {
      continue; // the settings loader reports unreadable files already
    }
    if (!isObject(json)) continue;
    readApprovals(json, f.path, approvals, problems, f.source === 'projectSettings');
    if (json.mcpServers !== undefined && !isObject(json.mcpServers)) {
      problems.push(`${f.path}: mcpServers is not an object; its servers are left out`);
    } else if (json.mcpServers) {
      layers.push({ where: f.path, servers: json.mcpServers, fromMcpJson: false });
    }
    if (f.source === 'userSettings') mcpJsonAt = layers.length;
  }
  const mcpJson = await readMcpJson(settings.cwd, problems);
  if (mcpJson) layers.splice(mcpJsonAt, 0, mcpJson);

  const servers: Record<string, McpServerConfig> = {};
  for (const layer of layers) {
    for (const [name, raw] of Object.entries(layer.servers)) {
      if (layer.fromMcpJson) {
        const refusal = approvalProblem(name, approvals);
        if (refusal) {
          problems.push(`${layer.where}: MCP server "${name}" from .mcp.json ${refusal}; left out`);
          continue;
        }
      }
      const parsed = parseServer(raw, env);
      if (typeof parsed === 'string') {
        problems.push(`${layer.where}: mcpServers.${name} ${parsed}; left out`);
        continue;
      }
      if (parsed.type === undefined || parsed.type === 'stdio') parsed.cwd = settings.cwd;
      servers[name] = parsed;
    }
  }
  return { servers, problems };
}

/**
 * `enableAllProjectMcpServers` from the highest source that sets it; the name lists of all sources together.
 * The project's own `.claude/settings.json` comes with the repository, as `.mcp.json` does: it may disable
 * servers but not approve them, or a cloned repository could start any program it names.
 */
function readApprovals(
  json: Json,
  file: string,
  approvals: Approvals,
  problems: string[],
  shared: boolean,
): void {
  const enableAll = json.enableAllProjectMcpServers;
  const refused = (key: string) =>
    problems.push(
      `${file}: ${key} is ignored in the project's shared settings, which come with the repository; ` +
        'approve .mcp.json servers in .claude/settings.local.json or the user settings',
    );
  if (shared && enableAll === true) refused('enableAllProjectMcpServers');
  else if (typeof enableAll === 'boolean') approvals.enableAll = enableAll;
  else if (enableAll !== undefined)
    problems.push(`${file}: enableAllProjectMcpServers is not a boolean; ignored`);
  for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers'] as const) {
    const names = json[key];
    if (names === undefined) continue;
    if (!isStrings(names)) {
      problems.push(`${file}: ${key} is not a list of server names; ignored`);
      continue;
    }
    if (shared && key === 'enabledMcpjsonServers') {
      refused(key);
      continue;
    }
    const into = key === 'enabledMcpjsonServers' ? approvals.enabled : approvals.disabled;
    for (const n of names) into.add(n);
  }
}

function approvalProblem(name: string, approvals: Approvals): string | undefined {
  if (approvals.disabled.has(name)) return 'is disabled by disabledMcpjsonServers';
  if (approvals.enableAll || approvals.enabled.has(name)) return undefined;
  return (
    'is not approved: add it to enabledMcpjsonServers in the settings ' +
    '(or set enableAllProjectMcpServers: true) if you trust this project'
  );
}

async function readMcpJson(cwd: string, problems: string[]): Promise<Layer | undefined> {
  const file = path.join(cwd, '.mcp.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      problems.push(`${file}: cannot be read (${errorText(e)}); its servers are left out`);
    }
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    problems.push(`${file}: is not valid JSON (${errorText(e)}); its servers are left out`);
    return undefined;
  }
  if (!isObject(json) || !isObject(json.mcpServers)) {
    problems.push(`${file}: has no "mcpServers" object; its servers are left out`);
    return undefined;
  }
  return { where: file, servers: json.mcpServers, fromMcpJson: true };
}

/** The server with its variables expanded, or what is wrong with it. */
function parseServer(raw: unknown, env: Record<string, string | undefined>): McpServerConfig | string {
  if (!isObject(raw)) return 'is not an object';
  const missing = new Set<string>();
  const x = (text: string) => expand(text, env, missing);
  let config: McpServerConfig;
  if (raw.type === undefined || raw.type === 'stdio') {
    if (
      typeof raw.command !== 'string' ||
      (raw.args !== undefined && !isStrings(raw.args)) ||
      (raw.env !== undefined && !isStringRecord(raw.env))
    ) {
      return 'is not a valid stdio server ({"command", "args", "env"})';
    }
    const stdio: McpStdioServerConfig = { command: x(raw.command) };
    if (raw.args) stdio.args = raw.args.map(x);
    if (raw.env) stdio.env = mapValues(raw.env, x);
    config = stdio;
  } else if (raw.type === 'http' || raw.type === 'sse') {
    if (typeof raw.url !== 'string' || (raw.headers !== undefined && !isStringRecord(raw.headers))) {
      return `is not a valid ${raw.type} server ({"type": "${raw.type}", "url", "headers"})`;
    }
    const remote: McpHttpServerConfig | McpSseServerConfig = { type: raw.type, url: x(raw.url) };
    if (raw.headers) remote.headers = mapValues(raw.headers, x);
    if (missing.size === 0 && !isHttpUrl(remote.url)) {
      return `has the url ${JSON.stringify(remote.url)}, not an http(s) URL`;
    }
    config = remote;
  } else {
    return `has the unsupported type ${JSON.stringify(raw.type)} (stdio, http and sse are supported)`;
  }
  if (missing.size === 1) return `uses \${${[...missing][0]}}, which is not set and has no default`;
  if (missing.size > 1) {
    return `uses ${[...missing].map((n) => `\${${n}}`).join(', ')}, which are not set and have no default`;
  }
  return config;
}

/** Claude Code's `.mcp.json` expansion: `${VAR}`, or `${VAR:-default}` when VAR is unset. */
function expand(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(/\$\{([^}]+)\}/g, (whole, body: string) => {
    const dash = body.indexOf(':-');
    const name = dash === -1 ? body : body.slice(0, dash);
    const value = env[name];
    if (value !== undefined) return value;
    if (dash !== -1) return body.slice(dash + 2);
    missing.add(name);
    return whole;
  });
}

function mapValues(record: Record<string, string>, f: (v: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
