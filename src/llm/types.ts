import type { Message, MessageCreateParamsBase } from '@anthropic-ai/sdk/resources/messages';
import type { Stage } from './models.js';

export type { Message };

/** One Messages API request. `model` defaults to the stage's model; streaming is a call option. */
export type ModelRequest = Omit<MessageCreateParamsBase, 'model' | 'stream'> & { model?: string };

/** The request as sent, with its model settled. */
export type ResolvedRequest = Omit<MessageCreateParamsBase, 'stream'>;

export type FailureKind =
  | 'timeout'
  | 'aborted'
  | 'rate-limited'
  | 'overloaded'
  | 'server'
  | 'network'
  | 'bad-request'
  | 'auth'
  | 'malformed'
  | 'refusal'
  | 'max-tokens';

/** Why there is no usable answer. The classifier turns every failure into `ask`. */
export interface ModelFailure {
  ok: false;
  kind: FailureKind;
  message: string;
  /** HTTP status of the last response, when there was one. */
  status?: number;
}

export interface CallFailure extends ModelFailure {
  attempts: number;
  latencyMs: number;
}

export interface CallUsage {
  /** The model that answered (as the API names it). */
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  /** Tokens written to the prompt cache, both lifetimes. */
  cacheWriteTokens: number;
  /** The part of `cacheWriteTokens` written with the 1 hour lifetime. */
  cacheWrite1hTokens: number;
  /** An estimate from the price table; null when the table has no price for the model. */
  costUsd: number | null;
  /** Hash of model, system and tools: the stable prefix the prompt cache can hold. */
  prefixHash: string;
  /** Set when the previous call with this prefix used the cache and this one read nothing from it. */
  cacheMissWarning?: string;
}

export interface CallSuccess {
  ok: true;
  message: Message;
  usage: CallUsage;
  latencyMs: number;
  attempts: number;
}

export type CallResult = CallSuccess | CallFailure;

export interface CallOptions {
  signal?: AbortSignal;
  /** Overall deadline for the call, retries and waits included. */
  timeoutMs?: number;
  /** Limit for one HTTP attempt (capped by what is left of the deadline). */
  attemptTimeoutMs?: number;
  /** Picks the default model; default 1. */
  stage?: Stage;
  /** Server-sent events instead of one JSON response. */
  stream?: boolean;
}

/** What the classifier needs from a model: the live client and the replay client both are one. */
export interface ModelCaller {
  call(request: ModelRequest, options?: CallOptions): Promise<CallResult>;
  /** The request as it would be sent: the model filled in. */
  resolve(request: ModelRequest, stage?: Stage): ResolvedRequest;
}
