import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { STAGE1_TOOL, STAGE2_TOOL } from '../../src/classifier/model-parts.js';
import {
  type MessagesServer,
  type RecordedRequest,
  reply,
  startMessagesServer,
} from '../support/messages-server.js';
import { decisionOf, hookInput, modelAt, send, startTestService } from './helpers.js';

let model: MessagesServer | undefined;
let running: Awaited<ReturnType<typeof startTestService>> | undefined;

beforeAll(async () => {
  await loadBash();
});

afterEach(async () => {
  await running?.service.close();
  await model?.close();
  running = undefined;
  model = undefined;
});

const flag = (value: boolean) => reply.toolUse({ name: STAGE1_TOOL, input: { flag: value, rule: '' } });
const hardDeny = reply.toolUse({
  name: STAGE2_TOOL,
  input: { reason: 'no', decision: 'hard_deny', rule: '', allow_exception: '', user_requested: false },
});
const stage = (r: RecordedRequest) => JSON.stringify(r.body?.tools ?? []).includes(STAGE2_TOOL);

async function start(responder: Parameters<typeof startMessagesServer>[0]) {
  model = await startMessagesServer(responder);
  running = await startTestService({ model: modelAt(model.url) });
  return running;
}

const install = (pkg: string, fields: Record<string, unknown> = {}) =>
  hookInput({
    tool_name: 'Bash',
    tool_input: { command: `npm install ${pkg}` },
    permission_mode: 'auto',
    cwd: running?.project,
    ...fields,
  });

describe('automode serve remembers sessions', () => {
  it('the same call in a session is judged by the model once', async () => {
    const { service } = await start(flag(false));
    for (let i = 0; i < 3; i++)
      expect(decisionOf((await send(service, { body: install('left-pad') })).body)).toBe('allow');
    expect(model?.messageRequests()).toHaveLength(1);
  });

  it('after the model denies 3 calls in a row the 4th asks, and another session is not affected', async () => {
    const { service } = await start((r) => (stage(r) ? hardDeny : flag(true)));
    const answers: string[] = [];
    for (const pkg of ['a', 'b', 'c', 'd'])
      answers.push(decisionOf((await send(service, { body: install(pkg) })).body));
    expect(answers).toEqual(['deny', 'deny', 'deny', 'ask']);
    const other = await send(service, { body: install('e', { session_id: 's2' }) });
    expect(decisionOf(other.body)).toBe('deny');
    const again = await send(service, { body: install('f') });
    expect(decisionOf(again.body)).toBe('ask');
  });

  it('a PermissionRequest after the PreToolUse of the same call reuses its classification', async () => {
    const { service, decider } = await start([flag(false)]);
    const pre = send(service, { body: install('left-pad', { tool_use_id: 'toolu_1' }) });
    const request = await send(service, {
      body: install('left-pad', { tool_use_id: 'toolu_1', hook_event_name: 'PermissionRequest' }),
    });
    expect(decisionOf((await pre).body)).toBe('allow');
    expect(decisionOf(request.body)).toBe('allow');
    expect(model?.messageRequests()).toHaveLength(1);
    expect(decider.status().reused).toBe(1);
  });

  it('the model is shown the session transcript as it grows: user messages and tool calls, never tool results', async () => {
    const { service, root } = await start(flag(false));
    const transcript = join(root, 'session.jsonl');
    const line = (v: unknown) => `${JSON.stringify(v)}\n`;
    writeFileSync(
      transcript,
      line({ type: 'user', message: { role: 'user', content: 'install the first package' } }),
    );
    await send(service, { body: install('one', { transcript_path: transcript }) });
    appendFileSync(
      transcript,
      line({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', content: 'SECRET-RESULT' }] },
      }) + line({ type: 'user', message: { role: 'user', content: 'now the second one' } }),
    );
    await send(service, { body: install('two', { transcript_path: transcript }) });
    const [first, second] = model?.messageRequests().map((r) => r.raw) ?? [];
    expect(first).toContain('install the first package');
    expect(first).not.toContain('now the second one');
    expect(second).toContain('install the first package');
    expect(second).toContain('now the second one');
    expect(second).not.toContain('SECRET-RESULT');
  });
});
