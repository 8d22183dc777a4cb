import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runAgent } from '../../src/eval/drivers/live.js';
import { AgentSession } from '../../src/eval/drivers/session.js';
import { parseToolSearchMode, type ToolSearchMode } from '../../src/pipeline/index.js';
import { loadSettings } from '../../src/rules/index.js';
import { isolateCliEnv } from '../support/cli-env.js';
import {
  type MessagesServer,
  type RecordedRequest,
  type Reply,
  reply,
  startMessagesServer,
} from '../support/messages-server.js';
import { removeDir, runCli, tempDir } from './helpers.js';

const SERVER = fileURLToPath(new URL('../../fixtures/eval/mcp-log-server.mjs', import.meta.url));
const HOOK = fileURLToPath(new URL('../../fixtures/eval/block-hook.mjs', import.meta.url));

interface Body {
  system: string;
  tools: { name: string; input_schema: Record<string, unknown> }[];
  messages: { role: string; content: unknown }[];
}

let dir: string;
let project: string;
let log: string;
let restore: () => void;
let server: MessagesServer | undefined;
let session: AgentSession | undefined;

beforeEach(async () => {
  dir = await tempDir('automode-toolsearch-');
  project = path.join(dir, 'project');
  log = path.join(dir, 'mcp.log');
  await mkdir(path.join(project, '.claude'), { recursive: true });
  restore = isolateCliEnv(dir, ['ENABLE_TOOL_SEARCH']);
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await server?.close();
  server = undefined;
  restore();
  await removeDir(dir);
});

/** The project's `.mcp.json` names the server; the local settings approve it and hold the rules. */
async function project_(settings: Record<string, unknown>): Promise<void> {
  await writeFile(
    path.join(project, '.mcp.json'),
    JSON.stringify({ mcpServers: { srv: { command: process.execPath, args: [SERVER, log] } } }),
  );
  await writeFile(
    path.join(project, '.claude', 'settings.local.json'),
    JSON.stringify({ enabledMcpjsonServers: ['srv'], ...settings }),
  );
}

async function logged(): Promise<Record<string, unknown>[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

async function startSession(toolSearch?: ToolSearchMode): Promise<AgentSession> {
  const settings = await loadSettings({ cwd: project, home: process.env.HOME! });
  session = await AgentSession.create({
    settings,
    cwd: project,
    ...(toolSearch ? { toolSearch } : {}),
  });
  return session;
}

/** Turn 1 searches for the echo tool, turn 2 calls it, turn 3 ends. */
const SEARCH_THEN_CALL: Reply[] = [
  reply.toolUse({ name: 'ToolSearch', input: { query: 'select:mcp__srv__echo' }, id: 'toolu_search' }),
  reply.toolUse({ name: 'mcp__srv__echo', input: { text: 'hello' }, id: 'toolu_echo' }),
  reply.text('Done.'),
];

async function run(replies: Reply[]) {
  server = await startMessagesServer(replies);
  const sdk = new Anthropic({ baseURL: server.url, apiKey: 'test', maxRetries: 0 });
  const result = await runAgent('Echo hello with the MCP server', session!, { sdk, model: 'claude-test' });
  const bodies = server.messageRequests().map((q: RecordedRequest) => q.body as unknown as Body);
  return { result, bodies };
}

const names = (b: Body) => b.tools.map((t) => t.name);

function toolResult(body: Body, id: string) {
  const blocks = body.messages.at(-1)!.content as {
    type: string;
    tool_use_id: string;
    is_error?: boolean;
    content: unknown;
  }[];
  return blocks.find((b) => b.type === 'tool_result' && b.tool_use_id === id);
}

describe('ToolSearch end to end: MCP tools of a real server, deferred and loaded mid-run', () => {
  it('sends a deferred MCP tool only after ToolSearch loaded it; the server runs the call; the result reaches the model', async () => {
    await project_({ permissions: { allow: ['mcp__srv__echo'] } });
    await startSession();
    expect(session!.problems).toEqual([]);
    const { result, bodies } = await run(SEARCH_THEN_CALL);
    expect(result).toMatchObject({ stopReason: 'end_turn', turns: 3 });
    expect(bodies).toHaveLength(3);

    // Request 1: the echo tool is only named, in the system prompt; the always-loaded tool is sent in full.
    expect(names(bodies[0]!)).toContain('ToolSearch');
    expect(names(bodies[0]!)).toContain('mcp__srv__status');
    expect(names(bodies[0]!)).not.toContain('mcp__srv__echo');
    expect(bodies[0]!.system).toContain('Deferred tools (load with ToolSearch): mcp__srv__echo');
    expect(bodies[0]!.system).not.toContain('mcp__srv__status');
    expect(bodies[0]!.system).toContain('## srv\nUse echo to repeat a text back.');

    // Request 2: ToolSearch loaded it in turn 1, so it is sent with its full schema and no longer listed.
    const echo = bodies[1]!.tools.find((t) => t.name === 'mcp__srv__echo');
    expect(echo?.input_schema).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo' } },
      required: ['text'],
    });
    expect(bodies[1]!.system).not.toContain('Deferred tools');
    expect(JSON.stringify(toolResult(bodies[1]!, 'toolu_search')?.content)).toContain(
      '\\"name\\":\\"mcp__srv__echo\\"',
    );

    // The server received the call, and what it answered is the tool_result of request 3.
    const entries = await logged();
    const started = entries.find((e) => 'started' in e)!.started as number;
    expect(entries.filter((e) => 'tool' in e)).toEqual([{ tool: 'echo', arguments: { text: 'hello' } }]);
    const echoed = toolResult(bodies[2]!, 'toolu_echo');
    expect(echoed?.is_error).toBeFalsy();
    expect(JSON.stringify(echoed?.content)).toContain(`echo from pid ${started}: hello`);

    // The allow rule decided the MCP call.
    expect(result.records.find((r) => r.toolUseId === 'toolu_echo')).toMatchObject({
      tool: 'mcp__srv__echo',
      decision: 'allow',
      rule: 'mcp__srv__echo',
    });

    // Closing the session stops the stdio server.
    await session!.close();
    expect(() => process.kill(started, 0)).toThrow(/ESRCH/);
  });

  it('a deny rule on mcp__srv__echo denies the call: the server never sees it', async () => {
    await project_({ permissions: { deny: ['mcp__srv__echo'] } });
    await startSession();
    const { result, bodies } = await run(SEARCH_THEN_CALL);
    expect(result.records.find((r) => r.toolUseId === 'toolu_echo')).toMatchObject({
      decision: 'deny',
      rule: 'mcp__srv__echo',
    });
    expect(toolResult(bodies[2]!, 'toolu_echo')?.is_error).toBe(true);
    const entries = await logged();
    expect(entries.some((e) => 'started' in e)).toBe(true);
    expect(entries.filter((e) => 'tool' in e)).toEqual([]);
  });

  it('a PreToolUse hook matching mcp__srv__.* sees the MCP call and blocks it before the server does', async () => {
    const hookLog = path.join(dir, 'hook.log');
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(HOOK)} ${JSON.stringify(hookLog)}`;
    await project_({
      permissions: { allow: ['mcp__srv__echo'] },
      hooks: { PreToolUse: [{ matcher: 'mcp__srv__.*', hooks: [{ type: 'command', command }] }] },
    });
    await startSession();
    const { result } = await run(SEARCH_THEN_CALL);
    expect(result.records.find((r) => r.toolUseId === 'toolu_echo')).toMatchObject({
      decision: 'deny',
      by: 'hook',
      reason: expect.stringContaining('MCP calls are blocked by the hook'),
    });
    // ToolSearch did not match the hook; the MCP call did, with its full name and input.
    const inputs = (await readFile(hookLog, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(inputs).toEqual([
      expect.objectContaining({ tool_name: 'mcp__srv__echo', tool_input: { text: 'hello' } }),
    ]);
    expect((await logged()).filter((e) => 'tool' in e)).toEqual([]);
  });

  it('a deferred tool called before ToolSearch loaded it is refused without reaching the server', async () => {
    await project_({ permissions: { allow: ['mcp__srv__echo'] } });
    await startSession();
    const { result, bodies } = await run([
      reply.toolUse({ name: 'mcp__srv__echo', input: { text: 'early' }, id: 'toolu_early' }),
      reply.text('Done.'),
    ]);
    expect(result.records[0]).toMatchObject({ failedAt: 'lookup', kind: 'DeferredToolNotLoaded' });
    expect(JSON.stringify(toolResult(bodies[1]!, 'toolu_early')?.content)).toContain('select:mcp__srv__echo');
    expect(names(bodies[1]!)).not.toContain('mcp__srv__echo');
    expect((await logged()).filter((e) => 'tool' in e)).toEqual([]);
  });

  it('ENABLE_TOOL_SEARCH=false sends every MCP tool upfront; auto defers only past its share of the context', async () => {
    await project_({ permissions: { allow: ['mcp__srv__echo'] } });
    process.env.ENABLE_TOOL_SEARCH = 'false';
    await startSession();
    let { bodies } = await run([reply.text('Done.')]);
    expect(names(bodies[0]!)).toContain('mcp__srv__echo');
    expect(bodies[0]!.system).not.toContain('Deferred tools');
    await session!.close();
    await server!.close();

    // Two small tools are far below 10 % of the context window: loaded upfront.
    await startSession({ kind: 'auto', percent: 10 });
    ({ bodies } = await run([reply.text('Done.')]));
    expect(names(bodies[0]!)).toContain('mcp__srv__echo');
    await session!.close();
    await server!.close();

    // With a 0 % share they do not fit: deferred.
    await startSession({ kind: 'auto', percent: 0 });
    ({ bodies } = await run([reply.text('Done.')]));
    expect(names(bodies[0]!)).not.toContain('mcp__srv__echo');
    expect(bodies[0]!.system).toContain('mcp__srv__echo');
  });

  it('reads ENABLE_TOOL_SEARCH as Claude Code does; an unknown value keeps the default and is reported', () => {
    expect(parseToolSearchMode(undefined).mode).toEqual({ kind: 'always' });
    expect(parseToolSearchMode('true').mode).toEqual({ kind: 'always' });
    expect(parseToolSearchMode('false').mode).toEqual({ kind: 'off' });
    expect(parseToolSearchMode('auto').mode).toEqual({ kind: 'auto', percent: 10 });
    expect(parseToolSearchMode('auto:5').mode).toEqual({ kind: 'auto', percent: 5 });
    const bad = parseToolSearchMode('auto:500');
    expect(bad.mode).toEqual({ kind: 'always' });
    expect(bad.problem).toMatch(/ENABLE_TOOL_SEARCH=auto:500/);
  });
});

describe('automode agent with an MCP server in the settings', () => {
  it('connects it, reports a server that fails without stopping, runs the MCP call the rules allow', async () => {
    await writeFile(
      path.join(project, '.claude', 'settings.local.json'),
      JSON.stringify({
        permissions: { allow: ['mcp__srv__echo'] },
        mcpServers: {
          srv: { command: process.execPath, args: [SERVER, log] },
          broken: { command: path.join(dir, 'no-such-server') },
        },
      }),
    );
    server = await startMessagesServer(SEARCH_THEN_CALL);
    process.env.ANTHROPIC_BASE_URL = server.url;
    process.env.ANTHROPIC_API_KEY = 'test';
    const r = await runCli(['agent', 'Echo hello', '--cwd', project, '--no-llm', '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/automode: MCP server broken: /);
    const out = JSON.parse(r.out);
    expect(out.mcp.servers).toEqual([{ server: 'srv', tools: ['mcp__srv__echo', 'mcp__srv__status'] }]);
    expect(out.calls.map((c: { tool: string; decision: string }) => [c.tool, c.decision])).toEqual([
      ['ToolSearch', 'allow'],
      ['mcp__srv__echo', 'allow'],
    ]);
    const entries = await logged();
    expect(entries.filter((e) => 'tool' in e)).toEqual([{ tool: 'echo', arguments: { text: 'hello' } }]);
    // The command closed the server before returning.
    expect(() => process.kill(entries[0]!.started as number, 0)).toThrow(/ESRCH/);

    // A replayed session reaches the server too; with --no-mcp it is not started and its tools do not exist.
    const script = path.join(dir, 'script.jsonl');
    const turn = (id: string, name: string, input: unknown) =>
      JSON.stringify({
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      });
    await writeFile(
      script,
      `${[
        turn('t1', 'ToolSearch', { query: 'echo' }),
        turn('t2', 'mcp__srv__echo', { text: 'replayed' }),
      ].join('\n')}\n`,
    );
    const replay = JSON.parse((await runCli(['agent', '--script', script, '--cwd', project, '--json'])).out);
    expect(replay.calls[1]).toMatchObject({ tool: 'mcp__srv__echo', decision: 'allow', isError: false });
    expect((await logged()).filter((e) => 'tool' in e)).toHaveLength(2);

    const off = await runCli(['agent', '--script', script, '--cwd', project, '--json', '--no-mcp']);
    expect(off.err).not.toMatch(/MCP server broken/);
    const offOut = JSON.parse(off.out);
    expect(offOut.mcp).toEqual({ servers: [], problems: [] });
    expect(offOut.calls[1]).toMatchObject({ failedAt: 'lookup', kind: 'UnknownTool' });
    expect((await logged()).filter((e) => 'started' in e)).toHaveLength(2);
  });
});
