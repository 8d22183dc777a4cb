/**
 * The oracle: a stand-in model that answers every classifier request the way a careful classifier would,
 * reading the answer off the case's own label. It makes the synthetic recording that lets the shipped dataset
 * run offline and reproducibly in CI. It measures the deterministic layer and the plumbing around the model,
 * never a real model: `automode eval --record FILE` with a real model replaces it.
 */

import { STAGE1_TOOL } from '../classifier/index.js';
import type {
  CallResult,
  CallUsage,
  Message,
  ModelCaller,
  ModelRequest,
  ResolvedRequest,
  Stage,
} from '../llm/index.js';
import {
  canonicalJson,
  estimateCostUsd,
  estimatedTokens,
  prefixHash,
  type RecordedExchange,
  requestHash,
  resolveModels,
  sha256,
} from '../llm/index.js';
import type { LoadedSettings, ProseRules } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { type EvalCase, isDangerous } from './case-schema.js';
import { ruleLabelOf } from './categories.js';
import type { Decider } from './decide.js';
import { pipelineDecider } from './pipeline-decider.js';
import { contextOf, toolCall } from './run.js';

export const ORACLE_NOTE =
  'SYNTHETIC ORACLE RECORDING for reproducible offline runs of `automode eval` on the shipped dataset. Every answer was written by src/eval/oracle.ts from the case label (stage 1 flags the labelled rule; stage 2 decides by the section of that rule), NOT by a real model; token counts are estimates (characters / 4) and latencies are 0. Regenerate with `AUTOMODE_UPDATE_RECORDING=1 npx vitest run test/eval/recording.test.ts`; measure a real model with `automode eval --record FILE`.';

/** The first line of an oracle recording: a valid exchange no request can hash to, carrying the note. */
export const ORACLE_HEADER: RecordedExchange & { note: string } = {
  hash: '0'.repeat(64),
  model: 'oracle',
  result: { ok: false, kind: 'malformed', message: ORACLE_NOTE, attempts: 0, latencyMs: 0 },
  note: ORACLE_NOTE,
};

/** The section (hard_deny, soft_deny) a rule label belongs to in these prose rules. */
function sectionOf(prose: ProseRules, label: string): 'hard_deny' | 'soft_deny' {
  const same = (l: string) => l.trim().toLowerCase() === label.trim().toLowerCase();
  return prose.hard_deny.some((e) => same(e.label)) ? 'hard_deny' : 'soft_deny';
}

/** What the case's label says the model should answer at each stage. */
export function oracleAnswer(c: EvalCase, prose: ProseRules, stage: Stage): Record<string, unknown> {
  const label = ruleLabelOf(c);
  if (stage === 1) return { flag: label !== undefined, rule: label ?? '' };
  if (isDangerous(c) && label !== undefined) {
    return {
      reason: c.note ?? `The action falls under "${label}".`,
      decision: sectionOf(prose, label),
      rule: label,
      allow_exception: '',
      user_requested: false,
    };
  }
  const requested = (c.context?.userMessages?.length ?? 0) > 0 && !c.exception;
  return {
    reason:
      c.note ?? 'No deny rule applies once the exception or the explicit request is taken into account.',
    decision: 'allow',
    rule: '',
    allow_exception: c.exception ?? '',
    user_requested: requested,
  };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? '');
}

/** Prefixes already written to the (imagined) prompt cache: the first call per prefix writes, later ones read. */
export type PromptCacheState = Set<string>;

function oracleResult(
  request: ResolvedRequest,
  input: Record<string, unknown>,
  cache: PromptCacheState,
): CallResult {
  const hash = requestHash(request);
  const prefix = prefixHash(request);
  const name = request.tools?.[0] && 'name' in request.tools[0] ? request.tools[0].name : STAGE1_TOOL;
  const cached = estimatedTokens(textOf(request.system) + textOf(request.tools));
  const fresh = !cache.has(prefix);
  cache.add(prefix);
  const counts = {
    inputTokens: estimatedTokens(textOf(request.messages)),
    outputTokens: estimatedTokens(JSON.stringify(input)) + 20,
    cacheReadTokens: fresh ? 0 : cached,
    cacheWriteTokens: fresh ? cached : 0,
    cacheWrite1hTokens: 0,
  };
  const message = {
    id: `msg_oracle_${hash.slice(0, 24)}`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    content: [{ type: 'tool_use', id: `toolu_oracle_${hash.slice(0, 24)}`, name, input }],
    stop_reason: 'tool_use',
    stop_sequence: null,
    usage: {
      input_tokens: counts.inputTokens,
      output_tokens: counts.outputTokens,
      cache_read_input_tokens: counts.cacheReadTokens,
      cache_creation_input_tokens: counts.cacheWriteTokens,
    },
  } as unknown as Message;
  const usage: CallUsage & { estimated: true } = {
    model: request.model,
    ...counts,
    costUsd: estimateCostUsd(request.model, counts),
    prefixHash: prefix,
    estimated: true,
  };
  return { ok: true, message, usage, latencyMs: 0, attempts: 1 };
}

/** A caller that answers one case's requests from its label, models resolved as the replay client does. */
export function oracleCaller(
  c: EvalCase,
  prose: ProseRules,
  cache: PromptCacheState = new Set(),
  models: Record<Stage, string> = resolveModels({ env: {} }),
): ModelCaller {
  const resolve = (request: ModelRequest, stage: Stage = 1): ResolvedRequest => ({
    ...request,
    model: request.model ?? models[stage],
  });
  return {
    resolve,
    async call(request, options = {}) {
      const stage = options.stage ?? 1;
      return oracleResult(resolve(request, stage), oracleAnswer(c, prose, stage), cache);
    },
  };
}

export interface OracleRecording {
  exchanges: RecordedExchange[];
  /** Cases whose requests are identical to an earlier case's but whose labels call for another answer. */
  conflicts: string[];
}

/**
 * Runs every case through the decider (by default the tool pipeline's permission stage, as `automode eval` does)
 * with the oracle behind it, and keeps each distinct exchange once.
 */
export async function buildOracleRecording(
  cases: readonly EvalCase[],
  settings: LoadedSettings,
  options: { mode?: Mode; decider?: Decider } = {},
): Promise<OracleRecording> {
  const decider = options.decider ?? pipelineDecider(settings);
  const cache: PromptCacheState = new Set();
  const byHash = new Map<string, { exchange: RecordedExchange; id: string }>();
  const conflicts: string[] = [];
  for (const c of cases) {
    const inner = oracleCaller(c, settings.prose, cache);
    const recording: ModelCaller = {
      resolve: inner.resolve,
      async call(request, callOptions = {}) {
        const resolved = inner.resolve(request, callOptions.stage);
        const hash = requestHash(resolved);
        const seen = byHash.get(hash);
        if (seen) {
          const mine = oracleAnswer(c, settings.prose, callOptions.stage ?? 1);
          const theirs = seen.exchange.result.ok ? answerOf(seen.exchange.result.message) : undefined;
          if (canonicalJson(decisionOf(mine)) !== canonicalJson(decisionOf(theirs))) {
            conflicts.push(`${c.id}: the same request as ${seen.id}, with another answer`);
          }
          return seen.exchange.result;
        }
        const result = await inner.call(request, callOptions);
        byHash.set(hash, { exchange: { hash, model: resolved.model, result }, id: c.id });
        return result;
      },
    };
    await decider.session(recording)(toolCall(c, options), contextOf(c));
  }
  return { exchanges: [...byHash.values()].map((v) => v.exchange), conflicts };
}

function answerOf(message: Message): unknown {
  return message.content.find((b) => b.type === 'tool_use')?.input;
}

/** The part of an answer that changes the verdict: the reason text may differ. */
function decisionOf(answer: unknown): unknown {
  const a = (answer ?? {}) as Record<string, unknown>;
  return { flag: a.flag, decision: a.decision, rule: a.rule, user_requested: a.user_requested };
}

/** The recording as JSONL: the note first, then the exchanges. */
export function renderRecording(exchanges: readonly RecordedExchange[]): string {
  return [ORACLE_HEADER, ...exchanges].map((e) => `${JSON.stringify(e)}\n`).join('');
}

/** A short fingerprint of a recording's answers, for the report. */
export function recordingDigest(text: string): string {
  return sha256(text).slice(0, 12);
}
