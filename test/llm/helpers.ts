import { afterEach, beforeEach } from 'vitest';
import { createModelClient } from '../../src/llm/client.js';
import type { ModelClientOptions, ModelRequest } from '../../src/llm/index.js';
import { type MessagesServer, type Responder, startMessagesServer } from '../support/messages-server.js';

/** A fresh loopback server per test, closed after it. */
export function useServer(): { readonly server: MessagesServer; script(...r: Responder[]): void } {
  let current: MessagesServer | undefined;
  beforeEach(async () => {
    current = await startMessagesServer([]);
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get server() {
      if (!current) throw new Error('no server outside a test');
      return current;
    },
    script(...r) {
      this.server.script(...r);
    },
  };
}

/** A client on the server with fast retries and no environment. */
export function clientFor(server: MessagesServer, options: ModelClientOptions = {}) {
  return createModelClient({
    apiKey: 'test-key',
    baseURL: server.url,
    env: {},
    timeoutMs: 3000,
    attemptTimeoutMs: 2000,
    ...options,
    retry: { baseDelayMs: 10, maxDelayMs: 40, ...options.retry },
  });
}

export const ask: ModelRequest = {
  max_tokens: 256,
  system: 'You decide whether a tool call may run.',
  messages: [{ role: 'user', content: 'rm -rf build' }],
};

export const DECIDE_TOOL = {
  name: 'decide',
  description: 'Record the decision.',
  input_schema: {
    type: 'object' as const,
    properties: { decision: { type: 'string', enum: ['allow', 'ask', 'deny'] }, reason: { type: 'string' } },
    required: ['decision', 'reason'],
  },
};

export const forcedAsk: ModelRequest = {
  ...ask,
  tools: [DECIDE_TOOL],
  tool_choice: { type: 'tool', name: 'decide' },
};
