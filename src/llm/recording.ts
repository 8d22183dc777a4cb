/**
 * Record and replay model exchanges, so evaluations run offline and give the same answers every time. A
 * recording is JSONL: one exchange per line, keyed by a hash of the request's canonical JSON (model, system,
 * messages, tools, tool_choice, max_tokens, and thinking, output_config, stop_sequences when set; never
 * headers or metadata). Replay answers a request from the exchanges with its
 * hash, in recorded order, the last one repeating.
 */
import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { makeDirectories } from '../shared/index.js';
import { hashedFields, requestHash } from './canonical.js';
import { type ModelClientOptions, resolveModels } from './config.js';
import type { Stage } from './models.js';
import type { CallResult, FailureKind, ModelCaller, ModelRequest, ResolvedRequest } from './types.js';

export interface RecordedExchange {
  hash: string;
  model: string;
  result: CallResult;
  /** The hashed fields of the request, when the recorder keeps them. */
  request?: Partial<ResolvedRequest>;
}

export type FileStatus = { ok: true; written: number } | { ok: false; written: number; message: string };

export interface Recorder extends ModelCaller {
  /** Waits for the lines still being written. */
  flush(): Promise<FileStatus>;
}

export interface ReplayClient extends ModelCaller {
  /** Exchanges held. */
  readonly size: number;
}

/**
 * Calls through `inner` and appends each exchange to `file`. Aborted calls are not answers and are not kept.
 * `includeRequest` stores the hashed request fields too, for reading the recording.
 */
export function createRecorder(inner: ModelCaller, file: string, options: { includeRequest?: boolean } = {}) {
  let pending: Promise<void> = Promise.resolve().then(() => makeDirectories(path.dirname(file)));
  let written = 0;
  let error: string | undefined;
  const write = (exchange: RecordedExchange) => {
    pending = pending
      .then(() => appendFile(file, `${JSON.stringify(exchange)}\n`))
      .then(() => {
        written++;
      })
      .catch((e: unknown) => {
        error ??= `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}`;
      });
  };
  const recorder: Recorder = {
    resolve: (request, stage) => inner.resolve(request, stage),
    async call(request, callOptions = {}) {
      const resolved = inner.resolve(request, callOptions.stage);
      const result = await inner.call(request, callOptions);
      if (result.ok || result.kind !== 'aborted') {
        const exchange: RecordedExchange = { hash: requestHash(resolved), model: resolved.model, result };
        if (options.includeRequest) exchange.request = hashedFields(resolved);
        write(exchange);
      }
      return result;
    },
    async flush() {
      await pending;
      return error === undefined ? { ok: true, written } : { ok: false, written, message: error };
    },
  };
  return recorder;
}

/** A caller that answers from exchanges; models are resolved as `createModelClient` would with the same options. */
export function createReplayClient(
  exchanges: Iterable<RecordedExchange>,
  options: Pick<ModelClientOptions, 'model' | 'models' | 'env'> = {},
): ReplayClient {
  const models = resolveModels(options);
  const byHash = new Map<string, CallResult[]>();
  let size = 0;
  for (const e of exchanges) {
    byHash.set(e.hash, [...(byHash.get(e.hash) ?? []), e.result]);
    size++;
  }
  const served = new Map<string, number>();
  const resolve = (request: ModelRequest, stage: Stage = 1): ResolvedRequest => ({
    ...request,
    model: request.model ?? models[stage],
  });
  return {
    size,
    resolve,
    async call(request, callOptions = {}) {
      if (callOptions.signal?.aborted) {
        return { ok: false, kind: 'aborted', message: 'call aborted', attempts: 0, latencyMs: 0 };
      }
      const hash = requestHash(resolve(request, callOptions.stage));
      const answers = byHash.get(hash);
      if (!answers) {
        return {
          ok: false,
          kind: 'malformed',
          message: 'no recorded answer for this request',
          attempts: 0,
          latencyMs: 0,
        };
      }
      const n = served.get(hash) ?? 0;
      served.set(hash, n + 1);
      return structuredClone(answers[Math.min(n, answers.length - 1)]!);
    },
  };
}

const KINDS = [
  'timeout',
  'aborted',
  'rate-limited',
  'overloaded',
  'server',
  'network',
  'bad-request',
  'auth',
  'malformed',
  'refusal',
  'max-tokens',
] as const satisfies readonly FailureKind[];

const Counts = { attempts: z.number(), latencyMs: z.number() };
const ExchangeLine = z.looseObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  model: z.string(),
  result: z.discriminatedUnion('ok', [
    z.looseObject({ ok: z.literal(true), message: z.looseObject({}), usage: z.looseObject({}), ...Counts }),
    z.looseObject({ ok: z.literal(false), kind: z.enum(KINDS), message: z.string(), ...Counts }),
  ]),
});

/** Reads JSONL exchanges; a line that is not one is an error with its line number. */
export function parseRecording(
  text: string,
): { ok: true; exchanges: RecordedExchange[] } | { ok: false; message: string } {
  const exchanges: RecordedExchange[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, message: `line ${i + 1}: not JSON` };
    }
    const parsed = ExchangeLine.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return {
        ok: false,
        message: `line ${i + 1}: ${issue?.path.join('.') || 'exchange'}: ${issue?.message}`,
      };
    }
    exchanges.push(value as RecordedExchange);
  }
  return { ok: true, exchanges };
}

export async function loadReplayClient(
  file: string,
  options: Pick<ModelClientOptions, 'model' | 'models' | 'env'> = {},
): Promise<{ ok: true; client: ReplayClient } | { ok: false; message: string }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { ok: false, message: `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}` };
  }
  const parsed = parseRecording(text);
  if (!parsed.ok) return { ok: false, message: `${file}: ${parsed.message}` };
  return { ok: true, client: createReplayClient(parsed.exchanges, options) };
}
