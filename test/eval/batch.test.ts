import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { type BatchEvent, loadBatchState, runEvalBatched } from '../../src/eval/batch.js';
import { computeMetrics } from '../../src/eval/metrics.js';
import { pipelineDecider } from '../../src/eval/pipeline-decider.js';
import { runEval } from '../../src/eval/run.js';
import { loadEvalSettings } from '../../src/eval/workspace.js';
import { createModelClient } from '../../src/llm/client.js';
import { type MessagesServer, reply, startMessagesServer } from '../support/messages-server.js';
import { removeDir, runCli, SMALL, scriptedModel, tempDir, writeCases } from './helpers.js';

let server: MessagesServer;
let dir: string;

beforeAll(async () => {
  await loadBash();
});

beforeEach(async () => {
  server = await startMessagesServer(scriptedModel, { batchPolls: 2 });
  dir = await tempDir();
});

afterEach(async () => {
  await server.close();
  await removeDir(dir);
});

function client() {
  return createModelClient({
    apiKey: 'test',
    baseURL: server.url,
    env: {},
    timeoutMs: 5000,
    retry: { maxRetries: 0 },
  });
}

const routes = () =>
  server.requests.map(
    (r) => `${r.method} ${r.path.replace(/msgbatch_\d+/, 'ID').replace(/\/results$/, '/results')}`,
  );

describe('--batch: model calls through the Message Batches API', () => {
  it('sends stage 1 and then stage 2 requests as batches, polls until they end, and decides as live calls would', async () => {
    const settings = await loadEvalSettings({});
    const events: BatchEvent[] = [];
    const c = client();
    const results = await runEvalBatched(
      SMALL,
      { decider: pipelineDecider(settings) },
      {
        sdk: c.sdk,
        resolver: c,
        statePath: path.join(dir, 'state.json'),
        pollIntervalMs: 5,
        onEvent: (e) => events.push(e),
      },
    );
    expect(server.messageRequests()).toEqual([]);
    const creates = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches');
    // Auto mode: force-push and rm-dist (shipped asks, soft) join prod-deploy and npm-test in stage 1; curl-sh
    // pipes code nobody can see into sh, a hard ask that never reaches the model.
    expect(creates.map((r) => (r.body!.requests as unknown[]).length)).toEqual([4, 1]);
    expect(routes()).toContain('GET /v1/messages/batches/ID/results');
    expect(events.filter((e) => e.type === 'polled').map((e) => (e as { status: string }).status)).toEqual([
      'in_progress',
      'ended',
      'in_progress',
      'ended',
    ]);
    const by = Object.fromEntries(results.map((r) => [r.id, [r.actual, r.stage]]));
    expect(by['prod-deploy']).toEqual(['deny', 'model-2']);
    expect(by['npm-test']).toEqual(['allow', 'model-1']);

    // The same cases with live calls reach the same decisions, at twice the price.
    const live = await runEval(SMALL, { decider: pipelineDecider(settings), model: client() });
    expect(results.map((r) => [r.id, r.actual])).toEqual(live.map((r) => [r.id, r.actual]));
    const batchCost = computeMetrics(results).model.costUsd;
    const liveCost = computeMetrics(live).model.costUsd;
    expect(batchCost).toBeGreaterThan(0);
    expect(batchCost).toBeCloseTo(liveCost / 2, 6);
  });

  it('resumes after an interruption: the submitted batch is collected, not sent again', async () => {
    const settings = await loadEvalSettings({});
    const statePath = path.join(dir, 'state.json');
    const controller = new AbortController();
    const c = client();
    const first = runEvalBatched(
      SMALL,
      { decider: pipelineDecider(settings), signal: controller.signal },
      {
        sdk: c.sdk,
        resolver: c,
        statePath,
        pollIntervalMs: 5,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'polled') controller.abort();
        },
      },
    );
    await expect(first).rejects.toThrow('interrupted');
    const saved = await loadBatchState(statePath);
    expect(saved.batches.map((b) => [b.hashes.length, b.collected])).toEqual([[4, false]]);

    const events: BatchEvent[] = [];
    const results = await runEvalBatched(
      SMALL,
      { decider: pipelineDecider(settings) },
      { sdk: c.sdk, resolver: c, statePath, pollIntervalMs: 5, onEvent: (e) => events.push(e) },
    );
    expect(events[0]).toEqual({ type: 'resumed', id: saved.batches[0]!.id, requests: 4 });
    const creates = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches');
    expect(creates.map((r) => (r.body!.requests as unknown[]).length)).toEqual([4, 1]);
    expect(results.find((r) => r.id === 'prod-deploy')!.actual).toBe('deny');
    expect((await loadBatchState(statePath)).batches.every((b) => b.collected)).toBe(true);
  });

  it('keeps a refused request as its answer (the case asks), and sends an overloaded one again in the next round', async () => {
    let overloaded = 0;
    server.fallback((request) => {
      const text = JSON.stringify(request.body?.messages ?? '');
      if (text.includes('npm test') && overloaded++ === 0) return reply.overloaded();
      if (text.includes('deploy.sh')) return reply.badRequest('prompt is too long');
      return scriptedModel(request);
    });
    const settings = await loadEvalSettings({});
    const c = client();
    const results = await runEvalBatched(
      SMALL,
      { decider: pipelineDecider(settings) },
      { sdk: c.sdk, resolver: c, statePath: path.join(dir, 'state.json'), pollIntervalMs: 5 },
    );
    const creates = server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages/batches');
    expect(creates.map((r) => (r.body!.requests as unknown[]).length)).toEqual([4, 1]);
    const deploy = results.find((r) => r.id === 'prod-deploy')!;
    expect([deploy.actual, deploy.stage]).toEqual(['ask', 'model-error']);
    expect(deploy.calls[0]).toMatchObject({ ok: false, kind: 'bad-request' });
    expect(results.find((r) => r.id === 'npm-test')!.actual).toBe('allow');
  });

  it('the CLI runs --batch with --record, and the recording replays the run offline', async () => {
    const cases = await writeCases(path.join(dir, 'cases.jsonl'), SMALL);
    const record = path.join(dir, 'batch.jsonl');
    const env = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' };
    const saved = { ...process.env };
    Object.assign(process.env, env);
    let batch: Awaited<ReturnType<typeof runCli>>;
    try {
      batch = await runCli([
        'eval',
        cases,
        '--batch',
        '--batch-state',
        path.join(dir, 'state.json'),
        '--poll-interval',
        '0.01',
        '--record',
        record,
        '--json',
      ]);
    } finally {
      process.env = saved;
    }
    expect(batch.err).toContain('submitted (4 requests)');
    const report = JSON.parse(batch.out);
    expect(report.modelSource).toMatch(/^Message Batches: stage 1 claude-haiku-5-5/);
    const replay = await runCli(['eval', cases, '--replay', record, '--json']);
    const again = JSON.parse(replay.out);
    expect(again.cases.map((c: { actual: string }) => c.actual)).toEqual(
      report.cases.map((c: { actual: string }) => c.actual),
    );
    expect(again.model.replayMisses).toBe(0);
    expect((await readFile(record, 'utf8')).trim().split('\n')).toHaveLength(5);
  });
});
