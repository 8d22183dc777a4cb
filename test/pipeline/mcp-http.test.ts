import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpHttpFixture, startMcpHttpServer } from '../../fixtures/pipeline/mcp-http-server.mjs';
import { loadBash } from '../../src/bash/analyze.js';
import type { ToolUseContext } from '../../src/pipeline/context.js';
import { connectMcpServers, type McpServers } from '../../src/pipeline/tools/mcp.js';
import { mcpServersFromSettings } from '../../src/pipeline/tools/mcp-config.js';
import { run, type SetupOptions, setup } from './helpers.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/pipeline', import.meta.url));

/** A port nothing listens on: taken from the system, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('MCP tools over HTTP', () => {
  let http: McpHttpFixture;
  let mcp: McpServers;
  let ctx: ToolUseContext;
  let problems: string[];

  beforeAll(async () => {
    await loadBash();
    http = await startMcpHttpServer();
    const headers = {
      Authorization: `Bearer \${MCP_TOKEN}`,
      'X-Team': `\${MCP_TEAM:-platform}`,
      'X-Region': `\${MCP_REGION}`,
    };
    const s = await setup({
      project: {
        permissions: { allow: ['mcp__remote', 'mcp__legacy'] },
        env: { MCP_REGION: 'eu-west' },
        mcpServers: {
          remote: { type: 'http', url: `http://\${MCP_HOST}/mcp`, headers },
          legacy: { type: 'sse', url: http.sseUrl, headers },
          down: { type: 'http', url: `http://127.0.0.1:${await closedPort()}/mcp` },
          unset: { type: 'http', url: http.url, headers: { Authorization: `Bearer \${NO_SUCH_TOKEN}` } },
        },
      },
    });
    ctx = s.ctx;
    const config = await mcpServersFromSettings(ctx.permissions.classifier.settings, {
      env: { MCP_TOKEN: 'secret-123', MCP_HOST: http.host },
    });
    problems = config.problems;
    mcp = await connectMcpServers(config.servers, { connectTimeoutMs: 10_000 });
    for (const tool of mcp.tools) ctx.registry.add(tool);
  });

  afterAll(async () => {
    await mcp?.close();
    await http?.close();
  });

  it('lists the tools of http and sse servers as mcp__server__tool; an unreachable server is only reported', () => {
    const names = mcp.tools.map((t) => t.name);
    for (const server of ['remote', 'legacy']) {
      expect(names.filter((n) => n.startsWith(`mcp__${server}__`))).toEqual([
        `mcp__${server}__echo`,
        `mcp__${server}__add`,
        `mcp__${server}__slow`,
        `mcp__${server}__header`,
      ]);
    }
    expect(mcp.connections.map((c) => c.server).sort()).toEqual(['legacy', 'remote']);
    expect(mcp.errors).toEqual([
      {
        server: 'down',
        message: expect.stringMatching(/^fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/),
      },
    ]);
  });

  it(`expands \${VAR} and \${VAR:-default} in url and headers; an unset variable leaves the server out`, () => {
    expect(problems).toEqual([
      expect.stringMatching(
        /mcpServers\.unset uses \$\{NO_SUCH_TOKEN\}, which is not set and has no default; left out$/,
      ),
    ]);
    expect(mcp.errors.map((e) => e.server)).not.toContain('unset');
    const seen = http.requests.filter(
      (r) => r.path === '/mcp' || r.path === '/sse' || r.path === '/messages',
    );
    expect(new Set(seen.map((r) => r.path))).toEqual(new Set(['/mcp', '/sse', '/messages']));
    for (const r of seen) {
      expect(r.headers).toMatchObject({
        authorization: 'Bearer secret-123',
        'x-team': 'platform',
        'x-region': 'eu-west',
      });
    }
  });

  it('round trip over Streamable HTTP: ToolSearch, validation, permission, the call, progress', async () => {
    const search = await run(ctx, 'ToolSearch', {
      query: 'select:mcp__remote__echo,mcp__remote__add,mcp__remote__slow',
    });
    expect(search.text).toContain('"name":"mcp__remote__add"');

    const echo = await run(ctx, 'mcp__remote__echo', { text: 'over http' });
    expect(echo.result.block).toMatchObject({
      content: [{ type: 'text', text: 'echo: over http' }],
      is_error: false,
    });
    expect(echo.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      rule: { text: 'mcp__remote' },
    });

    expect((await run(ctx, 'mcp__remote__add', { a: 2, b: 40 })).text).toBe('42');
    const invalid = await run(ctx, 'mcp__remote__add', { a: 1 });
    expect(invalid.result.error).toEqual({ stage: 'validation', kind: 'InputValidationError' });

    const slow = await run(ctx, 'mcp__remote__slow', { ms: 60 });
    expect(slow.text).toBe('waited 60 ms');
    expect(slow.messages.filter((m) => m.type === 'progress').map((m) => m.data)).toEqual([
      expect.objectContaining({ progress: 1, total: 2 }),
      expect.objectContaining({ progress: 2, total: 2 }),
    ]);
  });

  it('the server sees the expanded Authorization header on the request that carries the tool call', async () => {
    await run(ctx, 'ToolSearch', { query: 'select:mcp__remote__header,mcp__legacy__header' });
    expect((await run(ctx, 'mcp__remote__header', { name: 'Authorization' })).text).toBe('Bearer secret-123');
    expect((await run(ctx, 'mcp__legacy__header', { name: 'X-Team' })).text).toBe('platform');
  });

  it('round trip over legacy HTTP+SSE', async () => {
    await run(ctx, 'ToolSearch', { query: 'select:mcp__legacy__echo' });
    expect((await run(ctx, 'mcp__legacy__echo', { text: 'over sse' })).text).toBe('echo: over sse');
  });
});

describe('project .mcp.json', () => {
  const stdio = (name: string) => ({ command: name });

  /** `mcpJson`: the file's text, a value written as JSON, or a function that makes the file. */
  async function configFor(
    options: SetupOptions,
    mcpJson: unknown,
    env: Record<string, string> = {},
  ): Promise<Awaited<ReturnType<typeof mcpServersFromSettings>> & { file: string; cwd: string }> {
    const s = await setup(options);
    const file = path.join(s.cwd, '.mcp.json');
    if (typeof mcpJson === 'function') await mcpJson(file);
    else if (mcpJson !== undefined) {
      await writeFile(file, typeof mcpJson === 'string' ? mcpJson : JSON.stringify(mcpJson));
    }
    const config = await mcpServersFromSettings(s.ctx.permissions.classifier.settings, { env });
    return { ...config, file, cwd: s.cwd };
  }

  it('uses a server approved in enabledMcpjsonServers, with variables expanded, and it runs', async () => {
    const { servers, problems, file, cwd } = await configFor(
      { user: { enabledMcpjsonServers: ['approved'] } },
      {
        mcpServers: {
          approved: {
            command: `\${NODE_BIN}`,
            args: [`\${FIXTURES}/mcp-server.mjs`],
            env: { MODE: `\${MODE:-test}` },
          },
          stranger: stdio('curl'),
        },
      },
      { NODE_BIN: process.execPath, FIXTURES },
    );
    expect(servers).toEqual({
      approved: {
        command: process.execPath,
        args: [path.join(FIXTURES, 'mcp-server.mjs')],
        env: { MODE: 'test' },
        cwd,
      },
    });
    expect(problems).toEqual([
      `${file}: MCP server "stranger" from .mcp.json is not approved: add it to enabledMcpjsonServers in the ` +
        'settings (or set enableAllProjectMcpServers: true) if you trust this project; left out',
    ]);

    const mcp = await connectMcpServers(servers);
    try {
      expect(mcp.errors).toEqual([]);
      expect(mcp.tools.map((t) => t.name)).toContain('mcp__approved__echo');
    } finally {
      await mcp.close();
    }
  });

  it('leaves every server out without an approval', async () => {
    const { servers, problems } = await configFor({}, { mcpServers: { a: stdio('a'), b: stdio('b') } });
    expect(servers).toEqual({});
    expect(problems).toEqual([
      expect.stringContaining('"a" from .mcp.json is not approved'),
      expect.stringContaining('"b" from .mcp.json is not approved'),
    ]);
  });

  it('disabledMcpjsonServers wins over enableAllProjectMcpServers and enabledMcpjsonServers', async () => {
    const { servers, problems } = await configFor(
      {
        user: { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['blocked'] },
        project: { disabledMcpjsonServers: ['blocked'] },
      },
      { mcpServers: { blocked: stdio('blocked'), other: stdio('other') } },
    );
    expect(Object.keys(servers)).toEqual(['other']);
    expect(problems).toEqual([
      expect.stringMatching(/"blocked" from \.mcp\.json is disabled by disabledMcpjsonServers; left out$/),
    ]);
  });

  it("the project's shared settings may disable .mcp.json servers but not approve them", async () => {
    const { servers, problems } = await configFor(
      { project: { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['a'] } },
      { mcpServers: { a: stdio('a') } },
    );
    expect(servers).toEqual({});
    expect(problems).toEqual([
      expect.stringMatching(/enableAllProjectMcpServers is ignored in the project's shared settings/),
      expect.stringMatching(/enabledMcpjsonServers is ignored in the project's shared settings/),
      expect.stringContaining('"a" from .mcp.json is not approved'),
    ]);
  });

  it('a higher source decides enableAllProjectMcpServers', async () => {
    const { servers, problems } = await configFor(
      { user: { enableAllProjectMcpServers: true }, project: { enableAllProjectMcpServers: false } },
      { mcpServers: { a: stdio('a') } },
    );
    expect(servers).toEqual({});
    expect(problems).toEqual([expect.stringContaining('"a" from .mcp.json is not approved')]);
  });

  it('sits above user settings and below project settings; a refused server keeps the lower one', async () => {
    const { servers } = await configFor(
      {
        user: {
          enabledMcpjsonServers: ['a', 'b'],
          mcpServers: { a: stdio('user-a'), c: stdio('user-c') },
        },
        project: { mcpServers: { b: stdio('project-b') } },
      },
      { mcpServers: { a: stdio('mcpjson-a'), b: stdio('mcpjson-b'), c: stdio('mcpjson-c') } },
    );
    expect(
      Object.fromEntries(Object.entries(servers).map(([n, c]) => [n, 'command' in c && c.command])),
    ).toEqual({ a: 'mcpjson-a', b: 'project-b', c: 'user-c' });
  });

  it('invalid JSON, a wrong shape or an unreadable .mcp.json is a problem naming the file; no file is none', async () => {
    const settings = {
      user: { enableAllProjectMcpServers: true },
      project: { mcpServers: { kept: stdio('kept') } },
    };

    const broken = await configFor(settings, '{ "mcpServers": ');
    expect(broken.servers).toEqual({ kept: expect.objectContaining({ command: 'kept' }) });
    expect(broken.problems).toEqual([
      expect.stringMatching(/is not valid JSON \(.+\); its servers are left out$/),
    ]);
    expect(broken.problems[0]!.startsWith(`${broken.file}: `)).toBe(true);

    const shapeless = await configFor(settings, { servers: {} });
    expect(shapeless.problems).toEqual([
      `${shapeless.file}: has no "mcpServers" object; its servers are left out`,
    ]);

    const unreadable = await configFor(settings, (file: string) => mkdir(file));
    expect(unreadable.servers).toEqual({ kept: expect.objectContaining({ command: 'kept' }) });
    expect(unreadable.problems).toEqual([
      `${unreadable.file}: cannot be read (EISDIR: illegal operation on a directory, read); its servers are left out`,
    ]);

    const missing = await configFor(settings, undefined);
    expect(missing.servers).toEqual({ kept: expect.objectContaining({ command: 'kept' }) });
    expect(missing.problems).toEqual([]);
  });

  it('reports invalid and unsupported server entries of .mcp.json and keeps the valid ones', async () => {
    const { servers, problems, file } = await configFor(
      { user: { enableAllProjectMcpServers: true } },
      {
        mcpServers: {
          ok: { type: 'http', url: 'https://mcp.example.com/mcp' },
          socket: { type: 'ws', url: 'ws://localhost:1' },
          nourl: { type: 'http' },
          relative: { type: 'sse', url: '/mcp' },
        },
      },
    );
    expect(servers).toEqual({ ok: { type: 'http', url: 'https://mcp.example.com/mcp' } });
    expect(problems).toEqual([
      `${file}: mcpServers.socket has the unsupported type "ws" (stdio, http and sse are supported); left out`,
      `${file}: mcpServers.nourl is not a valid http server ({"type": "http", "url", "headers"}); left out`,
      `${file}: mcpServers.relative has the url "/mcp", not an http(s) URL; left out`,
    ]);
  });
});
