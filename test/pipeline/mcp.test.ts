import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import type { ToolUseContext } from '../../src/pipeline/context.js';
import type { ToolResultMessage } from '../../src/pipeline/messages.js';
import { runTools } from '../../src/pipeline/run-tools.js';
import { connectMcpServers, type McpServers } from '../../src/pipeline/tools/mcp.js';
import { mcpServersFromSettings } from '../../src/pipeline/tools/mcp-config.js';
import { collect, run, setup } from './helpers.js';

const SERVER = fileURLToPath(new URL('../../fixtures/pipeline/mcp-server.mjs', import.meta.url));

let mcp: McpServers;
let ctx: ToolUseContext;

beforeAll(async () => {
  await loadBash();
  const s = await setup({
    project: {
      permissions: { allow: ['mcp__fixture'] },
      mcpServers: {
        fixture: { command: process.execPath, args: [SERVER] },
        remote: { type: 'ws', url: 'wss://example.invalid/mcp' },
      },
    },
  });
  ctx = s.ctx;
  const { servers, problems } = await mcpServersFromSettings(ctx.permissions.classifier.settings);
  expect(problems).toEqual([expect.stringMatching(/mcpServers\.remote has the unsupported type "ws"/)]);
  mcp = await connectMcpServers({ ...servers, broken: { command: path.join(s.root, 'no-such-server') } });
  for (const tool of mcp.tools) ctx.registry.add(tool);
});

afterAll(async () => {
  await mcp?.close();
});

describe('MCP tools over stdio', () => {
  it('lists the server tools as deferred mcp__server__tool tools; a server that fails to start is reported', async () => {
    expect(mcp.tools.map((t) => t.name)).toEqual([
      'mcp__fixture__echo',
      'mcp__fixture__add',
      'mcp__fixture__fail',
      'mcp__fixture__slow',
    ]);
    expect(mcp.errors.map((e) => e.server)).toEqual(['broken']);
    expect(ctx.registry.definitions().map((d) => d.name)).not.toContain('mcp__fixture__echo');
  });

  it('round trip: ToolSearch loads them, the pipeline validates with ajv, calls the server and maps the result', async () => {
    const search = await run(ctx, 'ToolSearch', {
      query: 'select:mcp__fixture__echo,mcp__fixture__add,mcp__fixture__fail,mcp__fixture__slow',
    });
    expect(search.text).toContain('"name":"mcp__fixture__add"');
    expect(search.text).toContain('"required":["a","b"]');

    const echo = await run(ctx, 'mcp__fixture__echo', { text: 'hi' });
    expect(echo.result.block).toMatchObject({
      content: [{ type: 'text', text: 'echo: hi' }],
      is_error: false,
    });
    expect(echo.messages.find((m) => m.type === 'permission')).toMatchObject({
      decision: 'allow',
      by: 'classifier',
      rule: { text: 'mcp__fixture' },
    });

    expect((await run(ctx, 'mcp__fixture__add', { a: '2', b: 3 })).text).toBe('5');
    const invalid = await run(ctx, 'mcp__fixture__add', { a: 1, c: 2 });
    expect(invalid.result.error).toEqual({ stage: 'validation', kind: 'InputValidationError' });
    expect(invalid.text).toBe(
      [
        '<tool_use_error>InputValidationError: mcp__fixture__add failed due to the following issues:',
        'The required parameter `b` is missing',
        'An unexpected parameter `c` was provided</tool_use_error>',
      ].join('\n'),
    );

    const fail = await run(ctx, 'mcp__fixture__fail', {});
    expect(fail.result.error).toEqual({ stage: 'execution', kind: 'McpToolCallError' });
    expect(fail.text).toBe('Error: it failed on purpose');

    const slow = await run(ctx, 'mcp__fixture__slow', { ms: 100 });
    expect(slow.text).toBe('waited 100 ms');
    expect(slow.messages.filter((m) => m.type === 'progress').map((m) => m.data)).toEqual([
      expect.objectContaining({ progress: 1, total: 2 }),
      expect.objectContaining({ progress: 2, total: 2 }),
    ]);
  });

  it('read-only MCP tools run in parallel', async () => {
    const blocks = ['x', 'y'].map((text, i) => ({
      type: 'tool_use' as const,
      id: `toolu_p${i}`,
      name: 'mcp__fixture__echo',
      input: { text },
    }));
    const out = (await collect(runTools(blocks, ctx))).filter(
      (m): m is ToolResultMessage => m.type === 'tool_result',
    );
    expect(out.map((r) => r.block.content)).toEqual([
      [{ type: 'text', text: 'echo: x' }],
      [{ type: 'text', text: 'echo: y' }],
    ]);
  });
});
