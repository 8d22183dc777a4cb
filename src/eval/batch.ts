/**
 * Model calls through the Message Batches API. The classifier cannot know its stage 2 request before stage 1
 * has answered, so an evaluation runs in rounds: every case is decided with a caller that answers from the
 * results so far and puts every other request aside; the requests put aside go out as batches, which are
 * polled until they end; then the cases that waited are decided again. Two or three rounds settle every case.
 *
 * The state file (submitted batches, answers by request hash) is rewritten after every step: an evaluation
 * that is interrupted picks up its batches where it left them when it is run again with the same file.
 */
import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import type { CallResult, FailureKind, ModelCaller, ResolvedRequest } from '../llm/index.js';
import { DEFAULT_PRICES, estimateCostUsd, prefixHash, requestHash, tokenCounts } from '../llm/index.js';
import { makeDirectories } from '../shared/index.js';
import type { EvalCase } from './case-schema.js';
import { DEFERRED } from './metering.js';
import { type CaseResult, type EvalRunOptions, runEval } from './run.js';

/** Batches are billed at half the standard price. */
export const BATCH_DISCOUNT = 0.5;

interface Answer {
  model: string;
  result: CallResult;
}

export interface BatchState {
  version: 1;
  batches: { id: string; hashes: string[]; submittedAt: string; collected: boolean }[];
  answers: Record<string, Answer>;
}

export type BatchEvent =
  | { type: 'round'; round: number; cases: number }
  | { type: 'submitted'; id: string; requests: number }
  | { type: 'resumed'; id: string; requests: number }
  | { type: 'polled'; id: string; status: string; counts: Record<string, number> }
  | { type: 'collected'; id: string; answered: number; retried: number };

export interface BatchOptions {
  sdk: Pick<Anthropic, 'messages'>;
  /** Resolves models as the live client would. */
  resolver: Pick<ModelCaller, 'resolve'>;
  statePath: string;
  /** Between retrieves (default 30 s). */
  pollIntervalMs?: number;
  /** Requests per batch (default 10,000; the API takes up to 100,000). */
  maxRequests?: number;
  /** Rounds before giving up on requests that keep coming back canceled, expired or overloaded (default 6). */
  maxRounds?: number;
  /** Appends every answer used to this recording (JSONL), for later `--replay`. */
  recordPath?: string;
  onEvent?: (e: BatchEvent) => void;
  signal?: AbortSignal;
}

export async function loadBatchState(file: string): Promise<BatchState> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { version: 1, batches: [], answers: {} };
    throw new Error(`cannot read the batch state ${file}: ${(e as Error).message}`);
  }
  try {
    const state = JSON.parse(text) as BatchState;
    if (state.version !== 1 || !Array.isArray(state.batches) || typeof state.answers !== 'object')
      throw new Error('not a batch state (version 1)');
    return state;
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`);
  }
}

async function saveBatchState(file: string, state: BatchState): Promise<void> {
  makeDirectories(path.dirname(file));
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state)}\n`);
  await rename(temporary, file);
}

/** Answers from the results so far; any other request is noted and answered with a deferral. */
export function deferringCaller(
  resolver: Pick<ModelCaller, 'resolve'>,
  answers: Readonly<Record<string, Answer>>,
  pending: Map<string, ResolvedRequest>,
  used: Set<string>,
): ModelCaller {
  return {
    resolve: (request, stage) => resolver.resolve(request, stage),
    async call(request, options = {}) {
      const resolved = resolver.resolve(request, options.stage);
      const hash = requestHash(resolved);
      const answer = answers[hash];
      if (answer) {
        used.add(hash);
        return structuredClone(answer.result);
      }
      pending.set(hash, resolved);
      return { ok: false, kind: 'aborted', message: DEFERRED, attempts: 0, latencyMs: 0 };
    },
  };
}

const ERROR_KINDS: Record<string, FailureKind> = {
  invalid_request_error: 'bad-request',
  authentication_error: 'auth',
  permission_error: 'auth',
  billing_error: 'auth',
  not_found_error: 'bad-request',
  rate_limit_error: 'rate-limited',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
  api_error: 'server',
};

/** Failures worth sending again in the next round rather than keeping as the answer. */
const TRANSIENT = new Set<FailureKind>(['rate-limited', 'overloaded', 'timeout', 'server']);

type CheckMessage = typeof import('../llm/message.js')['checkMessage'];

type Individual =
  Awaited<ReturnType<Anthropic['messages']['batches']['results']>> extends AsyncIterable<infer T> ? T : never;

/** A batch result as the call result a live call would have given; undefined when it should be sent again. */
export function resultOf(
  item: Individual,
  request: ResolvedRequest | undefined,
  checkMessage: CheckMessage,
): CallResult | undefined {
  const r = item.result;
  if (r.type === 'succeeded') {
    const checked = checkMessage(r.message);
    if (!checked.ok)
      return { ok: false, kind: 'malformed', message: checked.message, attempts: 1, latencyMs: 0 };
    const counts = tokenCounts(checked.message);
    const model = checked.message.model || request?.model || 'unknown';
    const full = estimateCostUsd(model, counts, DEFAULT_PRICES);
    return {
      ok: true,
      message: checked.message,
      usage: {
        model,
        ...counts,
        costUsd: full === null ? null : Math.round(full * BATCH_DISCOUNT * 1e9) / 1e9,
        prefixHash: request ? prefixHash(request) : '',
      },
      latencyMs: 0,
      attempts: 1,
    };
  }
  if (r.type === 'errored') {
    const kind = ERROR_KINDS[r.error.error.type] ?? 'server';
    if (TRANSIENT.has(kind)) return undefined;
    return { ok: false, kind, message: r.error.error.message, attempts: 1, latencyMs: 0 };
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('interrupted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('interrupted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Polls a batch until it ends and stores its answers; transient failures stay unanswered for the next round. */
async function collect(
  batch: BatchState['batches'][number],
  state: BatchState,
  requests: ReadonlyMap<string, ResolvedRequest>,
  options: BatchOptions,
): Promise<void> {
  for (;;) {
    const status = await options.sdk.messages.batches.retrieve(batch.id);
    options.onEvent?.({
      type: 'polled',
      id: batch.id,
      status: status.processing_status,
      counts: { ...status.request_counts },
    });
    if (status.processing_status === 'ended') break;
    await sleep(options.pollIntervalMs ?? 30_000, options.signal);
  }
  let answered = 0;
  let retried = 0;
  const { checkMessage } = await import('../llm/message.js');
  const decoder = await options.sdk.messages.batches.results(batch.id);
  for await (const item of decoder) {
    const request = requests.get(item.custom_id);
    const result = resultOf(item, request, checkMessage);
    if (!result) {
      retried++;
      continue;
    }
    const model = request?.model ?? (result.ok ? result.usage.model : 'unknown');
    state.answers[item.custom_id] = { model, result };
    answered++;
  }
  batch.collected = true;
  await saveBatchState(options.statePath, state);
  options.onEvent?.({ type: 'collected', id: batch.id, answered, retried });
}

async function submit(
  pending: ReadonlyMap<string, ResolvedRequest>,
  state: BatchState,
  options: BatchOptions,
): Promise<BatchState['batches']> {
  const entries = [...pending.entries()];
  const size = options.maxRequests ?? 10_000;
  const created: BatchState['batches'] = [];
  for (let i = 0; i < entries.length; i += size) {
    const chunk = entries.slice(i, i + size);
    const batch = await options.sdk.messages.batches.create({
      requests: chunk.map(([hash, params]) => ({ custom_id: hash, params: { ...params, stream: false } })),
    });
    const entry = {
      id: batch.id,
      hashes: chunk.map(([hash]) => hash),
      submittedAt: new Date().toISOString(),
      collected: false,
    };
    state.batches.push(entry);
    created.push(entry);
    await saveBatchState(options.statePath, state);
    options.onEvent?.({ type: 'submitted', id: batch.id, requests: chunk.length });
  }
  return created;
}

/**
 * `runEval` with the model calls sent as Message Batches. Batches left from an interrupted run with the same
 * state file are collected first; answers already in the state are never requested again.
 */
export async function runEvalBatched(
  cases: readonly EvalCase[],
  run: Omit<EvalRunOptions, 'model'>,
  options: BatchOptions,
): Promise<CaseResult[]> {
  const state = await loadBatchState(options.statePath);
  const requests = new Map<string, ResolvedRequest>();
  for (const batch of state.batches.filter((b) => !b.collected)) {
    options.onEvent?.({ type: 'resumed', id: batch.id, requests: batch.hashes.length });
    await collect(batch, state, requests, options);
  }
  const used = new Set<string>();
  const results = new Map<string, CaseResult>();
  let waiting: readonly EvalCase[] = cases;
  const maxRounds = options.maxRounds ?? 6;
  for (let round = 1; waiting.length > 0; round++) {
    options.onEvent?.({ type: 'round', round, cases: waiting.length });
    const pending = new Map<string, ResolvedRequest>();
    const model = deferringCaller(options.resolver, state.answers, pending, used);
    const decided = await runEval(waiting, { ...run, model });
    for (const r of decided) results.set(r.id, r);
    const deferredIds = new Set(decided.filter((r) => r.calls.some((c) => c.deferred)).map((r) => r.id));
    if (pending.size === 0 || round >= maxRounds || run.signal?.aborted) break;
    for (const [hash, request] of pending) requests.set(hash, request);
    for (const batch of await submit(pending, state, options)) await collect(batch, state, requests, options);
    waiting = waiting.filter((c) => deferredIds.has(c.id));
  }
  if (options.recordPath) await record(options.recordPath, used, state);
  return cases.flatMap((c) => results.get(c.id) ?? []);
}

async function record(file: string, used: ReadonlySet<string>, state: BatchState): Promise<void> {
  makeDirectories(path.dirname(path.resolve(file)));
  const lines = [...used]
    .map((hash) => ({ hash, answer: state.answers[hash] }))
    .filter((x) => x.answer !== undefined)
    .map(({ hash, answer }) => `${JSON.stringify({ hash, model: answer!.model, result: answer!.result })}\n`);
  await appendFile(file, lines.join(''));
}
