import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ModelCaller } from '../llm/index.js';
import { canonicalJson } from '../llm/index.js';
import type { ProseRules } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { type JudgeInput, judge } from './judge.js';
import { projectEnvironment, withProjectEnvironment } from './project-environment.js';
import { systemPrompt } from './prompt.js';
import type { TranscriptContext } from './transcript.js';
import type { Judgement } from './types.js';

export interface CachedJudgeOptions {
  caller: ModelCaller;
  /** Limit for each model call, retries included (default 30 s). */
  timeoutMs?: number;
  /** How long a verdict stays cached (default 10 minutes) and how many are kept (default 1000). */
  cacheTtlMs?: number;
  cacheSize?: number;
  /** Add what automode sees of the project to the environment the model is told (see `projectEnvironment`). */
  projectEnvironment?: boolean;
}

export interface CachedJudgement {
  judgement: Judgement;
  cached: boolean;
}

interface InFlight {
  promise: Promise<Judgement>;
  controller: AbortController;
  waiting: number;
}

export interface JudgeRequest extends Omit<JudgeInput, 'context'> {
  context: TranscriptContext | undefined;
  mode: Mode;
  cwd: string;
}

/**
 * The model behind the deterministic rules: verdicts are cached under everything they depend on, identical
 * requests in flight share one model call, and a caller that gives up stops waiting (the call is aborted when
 * nobody waits any more).
 */
export class CachedJudge {
  private readonly cache: LRUCache<string, Judgement>;
  private readonly inFlight = new Map<string, InFlight>();

  constructor(private readonly options: CachedJudgeOptions) {
    this.cache = new LRUCache({ max: options.cacheSize ?? 1000, ttl: options.cacheTtlMs ?? 600_000 });
  }

  private readonly rulesHashes = new WeakMap<object, string>();
  private readonly proseByFolder = new WeakMap<
    ProseRules,
    Map<string, { facts: string[]; prose: ProseRules }>
  >();

  /** The prose rules the model sees for a request: the configured ones and what automode sees of the project. */
  private proseFor(r: JudgeRequest): ProseRules {
    if (!this.options.projectEnvironment) return r.prose;
    let byFolder = this.proseByFolder.get(r.prose);
    if (!byFolder) {
      byFolder = new Map();
      this.proseByFolder.set(r.prose, byFolder);
    }
    // The facts are the same array until what they were read from changes (projectEnvironment).
    const facts = projectEnvironment(r.cwd);
    let entry = byFolder.get(r.cwd);
    if (entry?.facts !== facts) {
      entry = { facts, prose: withProjectEnvironment(r.prose, facts) };
      byFolder.set(r.cwd, entry);
    }
    return entry.prose;
  }

  key(r: JudgeRequest): string {
    const prose = this.proseFor(r);
    let rules = this.rulesHashes.get(prose);
    if (!rules) {
      rules = createHash('sha256').update(systemPrompt(prose)).digest('hex');
      this.rulesHashes.set(prose, rules);
    }
    const context = r.context ? createHash('sha256').update(canonicalJson(r.context)).digest('hex') : '';
    const soft = r.soft && r.soft.length > 0 ? { soft: r.soft } : {};
    return createHash('sha256')
      .update(
        canonicalJson({ rules, mode: r.mode, tool: r.tool, input: r.input, cwd: r.cwd, context, ...soft }),
      )
      .digest('hex');
  }

  /** A cached judgement, without calling the model. */
  cached(key: string): Judgement | undefined {
    return this.cache.get(key);
  }

  async judge(key: string, r: JudgeRequest, signal?: AbortSignal): Promise<CachedJudgement> {
    const hit = this.cache.get(key);
    if (hit) return { judgement: hit, cached: true };
    let flight = this.inFlight.get(key);
    if (!flight) {
      const controller = new AbortController();
      const input: JudgeInput = { prose: this.proseFor(r), tool: r.tool, input: r.input };
      if (r.analysis) input.analysis = r.analysis;
      if (r.context) input.context = r.context;
      if (r.soft && r.soft.length > 0) input.soft = r.soft;
      const promise = judge(this.options.caller, input, {
        signal: controller.signal,
        timeoutMs: this.options.timeoutMs ?? 30_000,
      })
        .catch(
          (e: unknown): Judgement => ({
            ok: false,
            stage: 1,
            kind: 'malformed',
            message: `the model judge failed: ${e instanceof Error ? e.message : String(e)}`,
            usage: [],
            latencyMs: 0,
          }),
        )
        .then((j) => {
          this.inFlight.delete(key);
          if (j.ok) this.cache.set(key, j);
          return j;
        });
      flight = { promise, controller, waiting: 0 };
      this.inFlight.set(key, flight);
    }
    flight.waiting++;
    const current = flight;
    try {
      return { judgement: await untilAborted(current.promise, signal), cached: false };
    } finally {
      current.waiting--;
      if (current.waiting === 0 && this.inFlight.get(key) === current) {
        current.controller.abort();
        this.inFlight.delete(key);
      }
    }
  }
}

const ABORTED: Extract<Judgement, { ok: false }> = {
  ok: false,
  stage: 1,
  kind: 'aborted',
  message: 'the classification was cancelled',
  usage: [],
  latencyMs: 0,
};

/** Resolves with the judgement, or with an aborted failure as soon as the signal fires. */
function untilAborted(promise: Promise<Judgement>, signal: AbortSignal | undefined): Promise<Judgement> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (j) => {
        signal.removeEventListener('abort', onAbort);
        resolve(j);
      },
      () => resolve({ ...ABORTED, kind: 'malformed', message: 'the model call failed unexpectedly' }),
    );
  });
}
