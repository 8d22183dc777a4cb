import { createClassifier } from '../classifier/index.js';
import type { Verdict } from '../policy/index.js';
import type { LoadedSettings } from '../rules/index.js';
import type { TestCall } from './call.js';
import { type ModelClassify, type ModelProvider, type ModelVerdict, NO_MODEL, needsModel } from './model.js';

/** A verdict and whether a model gave it; or, for a call left to a model there is none of, why, and the rules' verdict. */
export type Decide = (
  call: TestCall,
) => Promise<{ verdict: ModelVerdict; model: boolean } | { skipped: string; verdict: Verdict }>;

/**
 * Classifies with the rules, and asks the model for what they leave to it; the model-backed classifier is made
 * once, on first need.
 */
export function decider(settings: LoadedSettings, provider: ModelProvider | undefined): Decide {
  const classifier = createClassifier(settings);
  let model: Promise<{ classify: ModelClassify } | { unavailable: string }> | undefined;
  return async (call) => {
    const verdict = await classifier.classify(call);
    if (!needsModel(verdict, settings)) return { verdict, model: false };
    model ??= provider ? provider(settings) : Promise.resolve({ unavailable: NO_MODEL });
    const backend = await model;
    if ('unavailable' in backend)
      return { skipped: `needs the model (${verdict.reason}): ${backend.unavailable}`, verdict };
    return { verdict: await backend.classify(call), model: true };
  };
}
