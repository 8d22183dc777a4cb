import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/llm/client.js';
import { createRecorder, createReplayClient, parseRecording } from '../../src/llm/recording.js';
import type { WebSearchToolOptions } from '../../src/pipeline/tools/web-search.js';
import { type MessagesServer, type Reply, startMessagesServer } from '../support/messages-server.js';
import { run, setup } from './helpers.js';

let api: MessagesServer;

beforeAll(async () => {
  api = await startMessagesServer();
});

afterAll(async () => {
  await api.close();
});

/** What the API answers a web search: the search call, its results, then the model's text. */
const SEARCH_REPLY: Reply = {
  type: 'message',
  content: [
    { type: 'text', text: "I'll search for that." },
    {
      type: 'server_tool_use',
      id: 'srvtoolu_1',
      name: 'web_search',
      input: { query: 'vitest retry option' },
    },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [
        {
          type: 'web_search_result',
          title: 'Test API | Vitest',
          url: 'https://vitest.dev/api/#retry',
          encrypted_content: 'EqgfCioIARgBIiQ3',
          page_age: null,
        },
        {
          type: 'web_search_result',
          title: 'Config | Vitest',
          url: 'https://vitest.dev/config/#retry',
          encrypted_content: 'EqgfCioIARgBIiQ4',
          page_age: '2 days ago',
        },
      ],
    },
    { type: 'text', text: 'Vitest retries a failing test with the `retry` option.' },
  ],
};

const RESULT = [
  'Web search results for query: "vitest retry option"',
  '',
  "I'll search for that.",
  '',
  'Links: [{"title":"Test API | Vitest","url":"https://vitest.dev/api/#retry"},{"title":"Config | Vitest","url":"https://vitest.dev/config/#retry"}]',
  '',
  'Vitest retries a failing test with the `retry` option.',
  '',
  'REMINDER: You MUST include the sources above in your response to the user using markdown hyperlinks.',
].join('\n');

function client(stream = false) {
  return createModelClient({
    apiKey: 'test-key',
    baseURL: api.url,
    model: 'claude-test',
    stream,
    retry: { maxRetries: 0 },
  });
}

async function searchSetup(options: WebSearchToolOptions = { model: client() }) {
  return setup({ project: { permissions: { allow: ['WebSearch'] } }, webSearch: options });
}

describe('WebSearch through the pipeline', () => {
  it("sends the API's web search tool with the allowed domains, and returns the text and the links", async () => {
    api.script(SEARCH_REPLY);
    const { ctx } = await searchSetup();
    const r = await run(ctx, 'WebSearch', { query: 'vitest retry option', allowed_domains: ['vitest.dev'] });
    expect(r.result.error).toBeUndefined();
    expect(r.text).toBe(RESULT);
    const body = api.messageRequests().at(-1)!.body!;
    expect(body.model).toBe('claude-test');
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, allowed_domains: ['vitest.dev'] },
    ]);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Perform a web search for the query: vitest retry option' },
    ]);
  });

  it('passes blocked domains through, and reads a streamed answer', async () => {
    api.script(SEARCH_REPLY);
    const { ctx } = await searchSetup({ model: client(true) });
    const r = await run(ctx, 'WebSearch', {
      query: 'vitest retry option',
      blocked_domains: ['spam.example'],
    });
    expect(r.text).toBe(RESULT);
    const body = api.messageRequests().at(-1)!.body!;
    expect(body.stream).toBe(true);
    expect(body.tools).toEqual([
      { type: 'web_search_20250305', name: 'web_search', max_uses: 8, blocked_domains: ['spam.example'] },
    ]);
  });

  it("reports a search's error code", async () => {
    api.script({
      type: 'message',
      content: [
        { type: 'server_tool_use', id: 'srvtoolu_2', name: 'web_search', input: { query: 'x' } },
        {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_2',
          content: { type: 'web_search_tool_result_error', error_code: 'max_uses_exceeded' },
        },
      ],
    });
    const { ctx } = await searchSetup();
    const r = await run(ctx, 'WebSearch', { query: 'anything at all' });
    expect(r.text).toContain('Web search error: max_uses_exceeded');
  });

  it('refuses allowed and blocked domains together, before any request', async () => {
    const { ctx } = await searchSetup();
    const before = api.messageRequests().length;
    const r = await run(ctx, 'WebSearch', {
      query: 'q q',
      allowed_domains: ['a.test'],
      blocked_domains: ['b.test'],
    });
    expect(r.result.error?.stage).toBe('validation');
    expect(r.text).toContain('Cannot specify both allowed_domains and blocked_domains in the same request');
    expect(api.messageRequests().length).toBe(before);
  });

  it('fails when the model gives no answer', async () => {
    api.script({
      type: 'error',
      status: 400,
      errorType: 'invalid_request_error',
      message: 'web search is off',
    });
    const { ctx } = await searchSetup();
    const r = await run(ctx, 'WebSearch', { query: 'vitest retry option' });
    expect(r.result.error?.stage).toBe('execution');
    expect(r.text).toContain('WebSearch: the model gave no answer (bad-request');
  });

  it('a WebSearch deny rule stops the call before the model is asked', async () => {
    const { ctx } = await setup({
      project: { permissions: { deny: ['WebSearch'] } },
      webSearch: { model: client() },
    });
    const before = api.messageRequests().length;
    const r = await run(ctx, 'WebSearch', { query: 'vitest retry option' });
    expect(r.result.error?.stage).toBe('permission');
    expect(api.messageRequests().length).toBe(before);
  });

  it('records the answer and replays it without the API', async () => {
    api.script(SEARCH_REPLY);
    const file = path.join(os.tmpdir(), `automode-websearch-${process.pid}-${Date.now()}.jsonl`);
    const recorder = createRecorder(client(), file);
    const live = await searchSetup({ model: recorder });
    expect((await run(live.ctx, 'WebSearch', { query: 'vitest retry option' })).text).toBe(RESULT);
    expect(await recorder.flush()).toEqual({ ok: true, written: 1 });
    const parsed = parseRecording(await readFile(file, 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    const before = api.messageRequests().length;
    const replayed = await searchSetup({
      model: createReplayClient(parsed.exchanges, { model: 'claude-test' }),
    });
    expect((await run(replayed.ctx, 'WebSearch', { query: 'vitest retry option' })).text).toBe(RESULT);
    expect(api.messageRequests().length).toBe(before);
  });
});
