import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  OverloadedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { reply, startMessagesServer } from '../support/messages-server.js';
import { useServer } from './helpers.js';

const params = {
  model: 'claude-haiku-5-5',
  max_tokens: 100,
  messages: [{ role: 'user' as const, content: 'hi' }],
};

describe('loopback Messages API server, driven by the real SDK', () => {
  const s = useServer();
  const sdk = (timeout = 2000) =>
    new Anthropic({ apiKey: 'k', baseURL: s.server.url, maxRetries: 0, timeout });

  it('answers JSON and records the request', async () => {
    s.script(reply.text('hello there', { usage: { input_tokens: 12, output_tokens: 3 } }));
    const message = await sdk().messages.create({ ...params, system: 'be brief' });
    expect(message.content).toEqual([{ type: 'text', text: 'hello there', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.model).toBe('claude-haiku-5-5');
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, cache_read_input_tokens: 0 });
    const [request] = s.server.requests;
    expect(request?.body).toMatchObject({ model: 'claude-haiku-5-5', system: 'be brief', max_tokens: 100 });
    expect(request?.headers.authorization).toBe('Bearer k');
    expect(request?.headers['anthropic-version']).toBeTruthy();
  });

  it('streams text that the stream helper and finalMessage() assemble', async () => {
    s.script(reply.text('one two three', { usage: { input_tokens: 7, output_tokens: 4 } }));
    const stream = sdk().messages.stream(params);
    const deltas: string[] = [];
    stream.on('text', (text) => deltas.push(text));
    const message = await stream.finalMessage();
    expect(deltas).toEqual(['one ', 'two ', 'three']);
    expect(message.content).toEqual([{ type: 'text', text: 'one two three', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 7, output_tokens: 4 });
  });

  it('sends the events in the wire order, with a ping', async () => {
    s.script(reply.text('a b'));
    const response = await fetch(`${s.server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...params, stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const names = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('streams a tool call as input_json_delta that the SDK parses', async () => {
    const input = { decision: 'deny', reason: 'deletes the build folder, with "quotes" and ünïcode' };
    s.script(reply.toolUse({ name: 'decide', input, text: 'Thinking.' }));
    const stream = sdk().messages.stream(params);
    const partials: string[] = [];
    stream.on('inputJson', (partial) => partials.push(partial));
    const message = await stream.finalMessage();
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.join('')).toBe(JSON.stringify(input));
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Thinking.' });
    expect(message.content[1]).toMatchObject({ type: 'tool_use', name: 'decide', input });
  });

  it('reports cache usage in JSON and in the stream', async () => {
    const usage = {
      input_tokens: 20,
      output_tokens: 5,
      cache_read_input_tokens: 900,
      cache_creation_input_tokens: 300,
    };
    s.script(reply.text('x', { usage }), reply.text('x', { usage }));
    const json = await sdk().messages.create(params);
    const streamed = await sdk().messages.stream(params).finalMessage();
    for (const m of [json, streamed]) expect(m.usage).toMatchObject(usage);
  });

  it('answers refusal and max_tokens stop reasons', async () => {
    s.script(reply.refusal('I cannot help with that.'), reply.maxTokens());
    expect((await sdk().messages.create(params)).stop_reason).toBe('refusal');
    expect((await sdk().messages.stream(params).finalMessage()).stop_reason).toBe('max_tokens');
  });

  it('answers errors in the API shape, with their headers', async () => {
    s.script(reply.rateLimited({ retryAfter: 7 }), reply.overloaded());
    const limited = await sdk()
      .messages.create(params)
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    const error = limited as RateLimitError;
    expect(error.headers.get('retry-after')).toBe('7');
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
    expect(
      await sdk()
        .messages.create(params)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(OverloadedError);
  });

  it('sends malformed bodies, drops connections and waits as scripted', async () => {
    s.script(reply.malformedJson(), reply.drop(), reply.text('slow', { delayMs: 1000 }));
    expect(
      await sdk()
        .messages.create(params)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(SyntaxError);
    expect(
      await sdk()
        .messages.create(params)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(APIConnectionError);
    const started = Date.now();
    expect(
      await sdk(200)
        .messages.create(params)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(APIConnectionTimeoutError);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('cuts a stream mid-way when told to', async () => {
    s.script(reply.text('a b c d e f', { dropAfterEvents: 5 }));
    await expect(sdk().messages.stream(params).finalMessage()).rejects.toThrow(/terminated/);
  });

  it('takes replies from the queue, then the fallback, and says when nothing is scripted', async () => {
    s.script(reply.text('first'));
    s.server.fallback((request) => reply.text(`echo ${request.body?.max_tokens}`));
    const texts = [];
    for (let i = 0; i < 2; i++) {
      const m = await sdk().messages.create(params);
      texts.push(m.content[0]?.type === 'text' ? m.content[0].text : '');
    }
    expect(texts).toEqual(['first', 'echo 100']);
    s.server.fallback(undefined);
    await expect(sdk().messages.create(params)).rejects.toThrow(/no scripted reply for request #2/);
  });

  it('runs a batch through in_progress to ended, with results from the same responders', async () => {
    s.server.batchPolls = 2;
    s.script(reply.text('one'), reply.badRequest('bad one'));
    const client = sdk();
    const created = await client.messages.batches.create({
      requests: [
        { custom_id: 'a', params },
        { custom_id: 'b', params },
      ],
    });
    expect(created.processing_status).toBe('in_progress');
    expect(created.request_counts.processing).toBe(2);
    expect((await client.messages.batches.retrieve(created.id)).processing_status).toBe('in_progress');
    const ended = await client.messages.batches.retrieve(created.id);
    expect(ended.processing_status).toBe('ended');
    expect(ended.request_counts).toMatchObject({ succeeded: 1, errored: 1, processing: 0 });
    const results = [];
    for await (const r of await client.messages.batches.results(created.id)) results.push(r);
    expect(results[0]).toMatchObject({
      custom_id: 'a',
      result: { type: 'succeeded', message: { role: 'assistant' } },
    });
    expect(results[1]).toMatchObject({
      custom_id: 'b',
      result: { type: 'errored', error: { error: { type: 'invalid_request_error', message: 'bad one' } } },
    });
  });

  it('cancels a batch', async () => {
    s.server.batchPolls = 5;
    s.script(reply.text('never'));
    const client = sdk();
    const batch = await client.messages.batches.create({ requests: [{ custom_id: 'a', params }] });
    expect((await client.messages.batches.cancel(batch.id)).processing_status).toBe('canceling');
    const ended = await client.messages.batches.retrieve(batch.id);
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { canceled: 1 } });
    const results = [];
    for await (const r of await client.messages.batches.results(batch.id)) results.push(r.result.type);
    expect(results).toEqual(['canceled']);
  });
});

describe('closing the server', () => {
  it('ends hanging requests and closes promptly', async () => {
    const server = await startMessagesServer([reply.hang()]);
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0, timeout: 10_000 });
    const pending = client.messages.create(params).catch((e: unknown) => e);
    while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await server.close();
    expect(await pending).toBeInstanceOf(Error);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
