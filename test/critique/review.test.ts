import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createReviewer, REVIEW_TOOL } from '../../src/critique/review.js';
import { createModelClient } from '../../src/llm/client.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';
import { type Box, critiqueFiles, fixturePath, makeBox, removeBox } from './helpers.js';

let box: Box;
let server: MessagesServer;

beforeAll(async () => {
  box = await makeBox();
  server = await startMessagesServer([]);
});
afterAll(async () => {
  await server.close();
  await removeBox(box);
});
afterEach(() => {
  server.fallback(undefined);
  server.requests.length = 0;
});

function reviewer(model = 'claude-test-model') {
  const client = createModelClient({
    apiKey: 'test-key',
    baseURL: server.url,
    model,
    env: {},
    retry: { maxRetries: 0 },
    timeoutMs: 5000,
  });
  return createReviewer(client, { timeoutMs: 5000 });
}

function answer(findings: unknown[]) {
  return reply.toolUse({ name: REVIEW_TOOL, input: { findings } });
}

async function review(fixture: string) {
  return critiqueFiles(box, [fixture], { reviewer: reviewer() });
}

const one = (rule: string, category: string, severity = 'warning') => ({
  rule,
  severity,
  category,
  message: `${category} problem with ${rule}`,
  suggestion: `rewrite ${rule}`,
});

describe('model review against the loopback Messages API', () => {
  for (const [code, rule, line, column] of [
    ['review-clarity', 'Databases', 11, 7],
    ['review-completeness', 'Bash(make *)', 5, 7],
    ['review-conflict', 'Bash(npm test)', 4, 7],
    ['review-actionability', 'Databases: Be careful with databases.', 11, 7],
  ] as const) {
    it(`${code}: tied to the rule the model names`, async () => {
      const category = code.replace('review-', '');
      server.script(answer([one(rule, category)]));
      const report = await review(`${code}.json`);
      expect(report.review.status).toBe('done');
      expect(report.review.model).toBe('claude-test-model');
      const found = report.findings.filter((f) => f.code === code);
      expect(found).toHaveLength(1);
      expect(found[0]!.location).toMatchObject({ file: fixturePath(`${code}.json`), line, column });
      expect(found[0]!.severity).toBe('warning');
      expect(found[0]!.fix).toBe(`rewrite ${rule}`);
      expect(found[0]!.message).toContain(`${category} problem`);
    });
  }

  it('review-unknown-rule: a rule the files do not have is reported as such, at the file', async () => {
    server.script(answer([one('Bash(cargo build)', 'clarity', 'note')]));
    const report = await review('review-unknown-rule.json');
    const found = report.findings.filter((f) => f.code === 'review-unknown-rule');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('"Bash(cargo build)"');
    expect(found[0]!.location).toMatchObject({ file: fixturePath('review-unknown-rule.json'), line: 1 });
    expect(found[0]!.severity).toBe('note');
  });

  it('a general comment (rule "") sits at the file; error severity is capped at warning', async () => {
    server.script(answer([one('', 'completeness', 'error')]));
    const report = await review('review-completeness.json');
    const found = report.findings.filter((f) => f.code === 'review-completeness');
    expect(found[0]!.location.line).toBe(1);
    expect(found[0]!.severity).toBe('warning');
    expect(report.findings.filter((f) => f.code.startsWith('review-') && f.severity === 'error')).toEqual([]);
  });

  it('sends the defaults and the static findings, and forces the tool', async () => {
    server.script(answer([]));
    const report = await review('review-conflict.json');
    expect(report.review.status).toBe('done');
    const body = server.messageRequests()[0]!.body!;
    const system = JSON.stringify(body.system);
    expect(system).toContain('Download and execute');
    expect(report.findings.length).toBeGreaterThan(0);
    for (const f of report.findings.filter((f) => !f.code.startsWith('review-')))
      expect(system).toContain(f.code);
    expect(body.tool_choice).toEqual({ type: 'tool', name: REVIEW_TOOL });
    expect(JSON.stringify(body.messages)).toContain('Bash(make *)');
    expect(JSON.stringify(body.messages)).toContain('Databases: Be careful with databases.');
  });

  const failures: [string, () => void, RegExp][] = [
    ['a text-only answer', () => server.script(reply.text('Looks fine to me.')), /text only/],
    [
      'an answer the schema rejects',
      () => server.script(answer([{ rule: 'x', severity: 'loud', category: 'style', message: '' }])),
      /does not match its schema/,
    ],
    ['a refusal', () => server.script(reply.refusal('No.')), /refus/],
    ['a server error', () => server.script(reply.serverError()), /server/],
    ['a body that is not JSON', () => server.script(reply.malformedJson()), /malformed|JSON/i],
    ['output cut at max_tokens', () => server.script(reply.maxTokens()), /cut off/],
  ];
  for (const [what, script, reason] of failures) {
    it(`review-failed: ${what} becomes one warning, never a crash`, async () => {
      script();
      const report = await review('review-failed.json');
      const found = report.findings.filter((f) => f.code === 'review-failed');
      expect(found).toHaveLength(1);
      expect(found[0]!.severity).toBe('warning');
      expect(found[0]!.message).toMatch(reason);
      expect(found[0]!.location).toMatchObject({ file: fixturePath('review-failed.json'), line: 1 });
      expect(report.review.status).toBe('failed');
      expect(report.summary.everyday?.asked).toBeGreaterThan(0);
    });
  }

  it('sonnet-5 models are asked with tool_choice auto and must still call the tool', async () => {
    server.script(reply.text('no tool'));
    const client = createModelClient({
      apiKey: 'k',
      baseURL: server.url,
      model: 'claude-sonnet-5-5',
      env: {},
      retry: { maxRetries: 0 },
    });
    const report = await critiqueFiles(box, ['review-failed.json'], { reviewer: createReviewer(client) });
    expect(server.messageRequests()[0]!.body!.tool_choice).toEqual({ type: 'auto' });
    expect(report.findings.some((f) => f.code === 'review-failed')).toBe(true);
  });

  it('without custom rules there is nothing to review and no request', async () => {
    const report = await critiqueFiles(box, ['invalid-json.json'], { reviewer: reviewer() });
    expect(server.messageRequests()).toHaveLength(0);
    expect(report.review.status).toBe('skipped');
  });
});
