import type { TranscriptContext } from '../classifier/index.js';
import { type ClassifiedVerdict, createClassifier, type ToolCall } from '../classifier/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { Decision } from '../policy/index.js';
import type { LoadedSettings } from '../rules/index.js';

/** What happened when an allowed call was run (with `--execute`). */
export interface Execution {
  ok: boolean;
  /** Where a failed call stopped, and the error kind. */
  stage?: string;
  kind?: string;
  durationMs: number;
}

export interface Decided {
  /** The classifier's verdict on the call (with the model's part, when it was asked). */
  verdict: ClassifiedVerdict;
  /** The decision reached, when something besides the verdict settled it (a hook, the tool, a handler). */
  decision?: Decision;
  /** What settled it, in the pipeline's words: `hook`, `permission-hook`, `tool`, `validation`, `classifier`. */
  source?: string;
  reason?: string;
  /** The call never reached the permission decision (unknown tool, invalid input). */
  error?: string;
  execution?: Execution;
  /** A hook asked the agent to stop after this call, for this reason. */
  stop?: string;
}

/** Decides the calls of one session, one at a time, in order. */
export type SessionDecide = (call: ToolCall, context: TranscriptContext | undefined) => Promise<Decided>;

/**
 * Where the decision comes from. Each session gets its own state (model denial counts, verdict cache), as a new
 * agent session would; the model caller is the session's own (metered) one.
 */
export interface Decider {
  readonly name: string;
  session(model: ModelCaller | undefined): SessionDecide;
}

/** The permission decision of the classifier alone: the rules, the read-only defaults and the model. */
export function classifierDecider(settings: LoadedSettings): Decider {
  return {
    name: 'classifier',
    session(model) {
      const classifier = createClassifier(settings, model ? { model } : {});
      return async (call, context) => ({
        verdict: await classifier.classify(call, context ? { context } : {}),
      });
    },
  };
}
