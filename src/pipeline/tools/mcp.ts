import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AsyncQueue } from '../async-queue.js';
import { errorText } from '../errors.js';
import type { ResultBlock } from '../messages.js';
import { loadOptional, MissingOptionalPackageError } from '../optional.js';
import { jsonSchemaInput } from '../schema.js';
import { type AnyTool, buildTool, type Tool } from '../tool.js';
import { McpOutputSchema } from './output-schemas.js';

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A remote server over the Streamable HTTP transport. */
export interface McpHttpServerConfig {
  type: 'http';
  url: string;
  /** Sent with every request, e.g. `Authorization`. */
  headers?: Record<string, string>;
}

/** A remote server over the legacy HTTP+SSE transport. */
export interface McpSseServerConfig {
  type: 'sse';
  url: string;
  headers?: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig | McpSseServerConfig;

export interface McpOptions {
  /** Limit for connecting and listing tools (default 30 s). */
  connectTimeoutMs?: number;
  /** Limit for one tool call (default 10 minutes). */
  callTimeoutMs?: number;
  /** MCP tools are deferred (loaded through ToolSearch) unless this is false. */
  defer?: boolean;
}

/**
 * The connected client: the SDK's `Client` (`@modelcontextprotocol/sdk/client/index.js`), typed here by the part
 * automode uses, so that automode's types compile without the optional SDK (cast it to `Client` for the rest).
 */
export interface McpClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  listTools(): Promise<{ tools: object[] }>;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

export interface McpConnection {
  server: string;
  client: McpClient;
  tools: Tool<Record<string, unknown>, McpContent[]>[];
  /** What the server says about using its tools (`instructions` of its initialize result). */
  instructions?: string;
  close(): Promise<void>;
}

/** A content item of a `tools/call` result. */
export type McpContent = Record<string, unknown> & { type: string };

/** The tool reported `isError`; its text is the message. */
export class McpToolCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'McpToolCallError';
  }
}

const normalize = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');

export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalize(server)}__${normalize(tool)}`;
}

function toBlocks(content: McpContent[]): ResultBlock[] {
  return content.map((c): ResultBlock => {
    if (c.type === 'text' && typeof c.text === 'string') return { type: 'text', text: c.text };
    if (c.type === 'image' && typeof c.data === 'string' && typeof c.mimeType === 'string') {
      return { type: 'image', source: { type: 'base64', media_type: c.mimeType, data: c.data } };
    }
    return { type: 'text', text: JSON.stringify(c) };
  });
}

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
  _meta?: Record<string, unknown>;
}

function wrap(server: string, client: Client, t: ListedTool, options: McpOptions) {
  const readOnly = t.annotations?.readOnlyHint === true;
  return buildTool<Record<string, unknown>, McpContent[]>({
    name: mcpToolName(server, t.name),
    description: t.description ?? `${t.name} from the MCP server ${server}`,
    inputSchema: jsonSchemaInput(t.inputSchema),
    outputSchema: McpOutputSchema,
    isConcurrencySafe: () => readOnly,
    isReadOnly: () => readOnly,
    interruptBehavior: () => 'cancel',
    shouldDefer: options.defer !== false,
    alwaysLoad: t._meta?.['anthropic/alwaysLoad'] === true,
    async *call(args, ctx) {
      const progress = new AsyncQueue<unknown>();
      const request = client
        .callTool({ name: t.name, arguments: args }, undefined, {
          signal: ctx.signal,
          timeout: options.callTimeoutMs ?? 600_000,
          onprogress: (p) => progress.push(p),
        })
        .finally(() => progress.close());
      void request.catch(() => undefined);
      for await (const p of progress) yield { type: 'progress', data: p };
      const result = await request;
      const content = (Array.isArray(result.content) ? result.content : []) as McpContent[];
      if (result.isError) {
        const text = content.flatMap((c) => (c.type === 'text' ? [String(c.text)] : [])).join('\n');
        throw new McpToolCallError(text || `${t.name} failed`);
      }
      yield { type: 'result', data: content };
    },
    mapToolResult: (content) => (content.length > 0 ? toBlocks(content) : `${t.name} returned nothing`),
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The MCP SDK, an optional peer dependency: it loads when the first server connects, so that the pipeline without
 * MCP servers never loads it, and a missing SDK fails that server with the command that installs it.
 */
function loadMcpSdk() {
  return loadOptional('@modelcontextprotocol/sdk', 'connecting to MCP servers', async () => {
    const [client, sse, stdio, http, auth] = await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/sse.js'),
      import('@modelcontextprotocol/sdk/client/stdio.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
      import('@modelcontextprotocol/sdk/client/auth.js'),
    ]);
    return {
      Client: client.Client,
      SSEClientTransport: sse.SSEClientTransport,
      SseError: sse.SseError,
      StdioClientTransport: stdio.StdioClientTransport,
      getDefaultEnvironment: stdio.getDefaultEnvironment,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      StreamableHTTPError: http.StreamableHTTPError,
      UnauthorizedError: auth.UnauthorizedError,
    };
  });
}

type McpSdk = Awaited<ReturnType<typeof loadMcpSdk>>;

/** What a remote server answered when it refused the client: its status and `WWW-Authenticate` challenge. */
interface AuthChallenge {
  status: number;
  wwwAuthenticate?: string;
}

/** The server wants an OAuth token (or other credentials) that automode does not obtain. */
export class McpAuthorizationError extends Error {
  constructor(
    readonly server: string,
    readonly challenge: AuthChallenge | undefined,
  ) {
    const header = challenge?.wwwAuthenticate;
    const shown = header && (header.length > 300 ? `${header.slice(0, 300)}…` : header);
    super(
      header || !challenge
        ? `MCP server ${server} needs OAuth authorization (${challenge ? `HTTP ${challenge.status}` : 'unauthorized'}${shown ? `, WWW-Authenticate: ${shown}` : ''}); automode does not run the OAuth flow. Authorize it elsewhere and give its token in the server's headers ("Authorization": "Bearer \${TOKEN}").`
        : `MCP server ${server} refused the connection as unauthorized (HTTP ${challenge.status}, no WWW-Authenticate challenge); check the credentials in its headers.`,
    );
    this.name = 'McpAuthorizationError';
  }
}

/** A fetch that remembers the first 401 answer, whose challenge the SDK's errors leave out. */
function challengeRecorder(): { fetch: FetchLike; challenge(): AuthChallenge | undefined } {
  let seen: AuthChallenge | undefined;
  return {
    async fetch(url, init) {
      const response = await fetch(url, init);
      if (response.status === 401 && !seen) {
        const header = response.headers.get('www-authenticate');
        seen = { status: 401, ...(header ? { wwwAuthenticate: header } : {}) };
      }
      return response;
    },
    challenge: () => seen,
  };
}

/** The connection failed because the server wants authorization: a 401, or the SDK's `UnauthorizedError`. */
function authorizationFailure(
  sdk: McpSdk,
  server: string,
  error: unknown,
  challenge: AuthChallenge | undefined,
): McpAuthorizationError | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  const unauthorized =
    error instanceof sdk.UnauthorizedError ||
    ((error instanceof sdk.StreamableHTTPError || error instanceof sdk.SseError) && code === 401);
  if (!unauthorized && !challenge) return undefined;
  return new McpAuthorizationError(server, challenge);
}

function transportFor(sdk: McpSdk, config: McpServerConfig, fetch?: FetchLike): Transport {
  if (config.type === 'http' || config.type === 'sse') {
    const url = new URL(config.url);
    const requestInit = { headers: { ...config.headers } };
    const options = { requestInit, ...(fetch ? { fetch } : {}) };
    return config.type === 'http'
      ? new sdk.StreamableHTTPClientTransport(url, options)
      : new sdk.SSEClientTransport(url, options);
  }
  return new sdk.StdioClientTransport({
    command: config.command,
    args: config.args ?? [],
    env: { ...sdk.getDefaultEnvironment(), ...config.env },
    stderr: 'ignore',
    ...(config.cwd ? { cwd: config.cwd } : {}),
  });
}

/**
 * Starts a stdio MCP server or connects to a remote one (`http`, `sse`), lists its tools and wraps each as a
 * pipeline tool (`mcp__server__tool`).
 */
export async function connectMcpServer(
  server: string,
  config: McpServerConfig,
  options: McpOptions = {},
): Promise<McpConnection> {
  const sdk = await loadMcpSdk();
  const recorder = challengeRecorder();
  const transport = transportFor(sdk, config, recorder.fetch);
  const client = new sdk.Client({ name: 'automode', version: '0.1.0' }, { capabilities: {} });
  const limit = options.connectTimeoutMs ?? 30_000;
  try {
    await withTimeout(client.connect(transport), limit, `connecting to MCP server ${server}`);
    const listed = await withTimeout(client.listTools(), limit, `listing the tools of MCP server ${server}`);
    const tools = (listed.tools as ListedTool[]).map((t) => wrap(server, client, t, options));
    const instructions = client.getInstructions();
    return { server, client, tools, ...(instructions ? { instructions } : {}), close: () => client.close() };
  } catch (e) {
    await client.close().catch(() => undefined);
    throw authorizationFailure(sdk, server, e, recorder.challenge()) ?? e;
  }
}

export interface McpServers {
  connections: McpConnection[];
  tools: AnyTool[];
  /** Servers that could not be started or listed: their tools are missing, the rest work. */
  errors: { server: string; message: string }[];
  close(): Promise<void>;
}

/**
 * `fetch failed` says little without its cause, e.g. `connect ECONNREFUSED 127.0.0.1:9`. A missing SDK says
 * all there is to say.
 */
function withCauses(error: unknown): string {
  const parts = [errorText(error)];
  let e = error;
  while (
    e instanceof Error &&
    !(e instanceof MissingOptionalPackageError) &&
    e.cause !== undefined &&
    parts.length < 4
  ) {
    e = e.cause;
    const text = errorText(e);
    if (!parts.includes(text)) parts.push(text);
  }
  return parts.join(': ');
}

/** Connects to every server in parallel; one failing server does not stop the others. */
export async function connectMcpServers(
  servers: Record<string, McpServerConfig>,
  options: McpOptions = {},
): Promise<McpServers> {
  const entries = Object.entries(servers);
  const settled = await Promise.allSettled(entries.map(([name, c]) => connectMcpServer(name, c, options)));
  const connections: McpConnection[] = [];
  const errors: McpServers['errors'] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') connections.push(s.value);
    else errors.push({ server: entries[i]![0], message: withCauses(s.reason) });
  });
  return {
    connections,
    tools: connections.flatMap((c) => c.tools),
    errors,
    close: async () => {
      await Promise.all(connections.map((c) => c.close().catch(() => undefined)));
    },
  };
}
