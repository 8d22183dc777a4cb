import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcpServer, connectMcpServers, McpAuthorizationError } from '../../src/pipeline/tools/mcp.js';

/** A loopback server that refuses every request: 401, with an OAuth challenge on the paths that send one. */
let server: Server;
let base: string;
const seen: string[] = [];
const CHALLENGE = 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp"';

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (!req.url?.startsWith('/plain')) headers['www-authenticate'] = CHALLENGE;
    res.writeHead(401, headers);
    res.end(JSON.stringify({ error: 'invalid_token' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('an MCP server that needs OAuth', () => {
  it('over Streamable HTTP: the error says it needs OAuth authorization, with the challenge', async () => {
    const error = await connectMcpServer(
      'linear',
      { type: 'http', url: `${base}/mcp` },
      { connectTimeoutMs: 5000 },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpAuthorizationError);
    expect((error as Error).message).toBe(
      `MCP server linear needs OAuth authorization (HTTP 401, WWW-Authenticate: ${CHALLENGE}); automode does not run the OAuth flow. Authorize it elsewhere and give its token in the server's headers ("Authorization": "Bearer \${TOKEN}").`,
    );
    expect(seen).toContain('POST /mcp');
  });

  it('over legacy SSE too', async () => {
    const error = await connectMcpServer(
      'legacy',
      { type: 'sse', url: `${base}/sse` },
      { connectTimeoutMs: 5000 },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpAuthorizationError);
    expect((error as Error).message).toMatch(
      /^MCP server legacy needs OAuth authorization \(HTTP 401, WWW-Authenticate: Bearer resource_metadata=.*automode does not run the OAuth flow/,
    );
  });

  it('is listed among the errors of connectMcpServers, beside a 401 without a challenge, and the others still connect', async () => {
    const mcp = await connectMcpServers(
      {
        oauth: { type: 'http', url: `${base}/mcp` },
        plain: { type: 'http', url: `${base}/plain/mcp`, headers: { Authorization: 'Bearer wrong' } },
      },
      { connectTimeoutMs: 5000 },
    );
    try {
      expect(mcp.connections).toEqual([]);
      expect(mcp.errors).toEqual([
        {
          server: 'oauth',
          message: expect.stringMatching(
            /^MCP server oauth needs OAuth authorization \(HTTP 401, WWW-Authenticate: Bearer/,
          ),
        },
        {
          server: 'plain',
          message:
            'MCP server plain refused the connection as unauthorized (HTTP 401, no WWW-Authenticate challenge); check the credentials in its headers.',
        },
      ]);
    } finally {
      await mcp.close();
    }
  });
});
