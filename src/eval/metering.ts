import type { CallUsage, FailureKind, ModelCaller, Stage } from '../llm/index.js';

/** One model call as a case saw it. */
export interface ModelCallRecord {
  stage: Stage;
  ok: boolean;
  kind?: FailureKind;
  failure?: string;
  /** What the call took as its result reports it: live, or as recorded when replayed. */
  latencyMs: number;
  /** What this process waited for it (near 0 when replayed). */
  waitedMs: number;
  usage?: CallUsage;
  /** Token counts are estimates (a synthetic recording), not the API's. */
  estimated?: boolean;
  /** A replay had no answer for the request: the recording is stale or incomplete. */
  replayMiss?: boolean;
  /** The request was put aside for a Message Batch instead of being answered. */
  deferred?: boolean;
}

export const NO_RECORDED_ANSWER = 'no recorded answer for this request';
export const DEFERRED = 'deferred to a Message Batch';

export interface Meter {
  readonly caller: ModelCaller;
  /** The calls since the last take, and forgets them. */
  take(): ModelCallRecord[];
}

/** Wraps a caller and notes every call; one meter serves one session, whose cases run one at a time. */
export function meter(inner: ModelCaller): Meter {
  let calls: ModelCallRecord[] = [];
  const caller: ModelCaller = {
    resolve: (request, stage) => inner.resolve(request, stage),
    async call(request, options = {}) {
      const started = performance.now();
      const result = await inner.call(request, options);
      const record: ModelCallRecord = {
        stage: options.stage ?? 1,
        ok: result.ok,
        latencyMs: result.latencyMs,
        waitedMs: performance.now() - started,
      };
      if (result.ok) {
        record.usage = result.usage;
        if ((result.usage as CallUsage & { estimated?: boolean }).estimated === true) record.estimated = true;
      } else {
        record.kind = result.kind;
        record.failure = result.message;
        if (result.message === NO_RECORDED_ANSWER) record.replayMiss = true;
        if (result.message === DEFERRED) record.deferred = true;
      }
      calls.push(record);
      return result;
    },
  };
  return {
    caller,
    take() {
      const taken = calls;
      calls = [];
      return taken;
    },
  };
}
