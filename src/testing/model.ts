import { createClassifier, needsModel as partsNeedModel } from '../classifier/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { Verdict } from '../policy/index.js';
import type { LoadedSettings } from '../rules/index.js';
import type { TestCall } from './call.js';

/** A verdict from a classifier with a model behind it; `model.rule` is the label of the prose rule it named. */
export type ModelVerdict = Verdict & { model?: { rule?: string } };

/** Classifies a call with a model behind it: the signature of `Classifier.classify`, the context in the call. */
export type ModelClassify = (call: TestCall) => Promise<ModelVerdict>;

/**
 * Gives the model-backed classifier for a loaded configuration (the configured model, or recorded exchanges
 * replayed), or the reason there is none. Called once per configuration.
 */
export type ModelProvider = (
  settings: LoadedSettings,
) => Promise<{ classify: ModelClassify } | { unavailable: string }>;

export const NO_MODEL = 'no model configured and no recording';

/**
 * Whether the rules leave an auto-mode call to the model: a part is open (no rule decides it) and nothing denies
 * or asks it already; with `classifyAllShell`, every shell call. Other modes test the rules' own decision.
 */
export function needsModel(verdict: Verdict, settings: LoadedSettings): boolean {
  const allShell = verdict.tool === 'Bash' && settings.prose.classifyAllShell === true;
  return verdict.mode === 'auto' && partsNeedModel(verdict.parts, 'auto', allShell);
}

/**
 * The classifier with `caller` as its model. Each call gets a classifier of its own, so that no case is judged
 * by what earlier ones did (the classifier stops denying after a run of model denials in one session).
 */
export function modelProvider(caller: ModelCaller): ModelProvider {
  return async (settings) => ({
    classify: (call) => {
      const { context, ...toolCall } = call;
      const userMessages =
        context === undefined ? undefined : typeof context === 'string' ? [context] : context;
      return createClassifier(settings, { model: caller }).classify(
        toolCall,
        userMessages ? { context: { userMessages } } : {},
      );
    },
  });
}
