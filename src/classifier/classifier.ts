import type { LoadedSettings } from '../rules/index.js';
import { addRules } from '../rules/index.js';
import { modelPhase } from './model-phase.js';
import { rulesPhase } from './rules-phase.js';
import { speculate } from './speculation.js';
import type { Classifier, ClassifierOptions } from './types.js';

/** A classifier: the rules phase decides what it can, the model phase judges what the rules leave open. */
export function createClassifier(settings: LoadedSettings, options: ClassifierOptions = {}): Classifier {
  const rules = rulesPhase(settings, options.model !== undefined);
  const model = modelPhase(settings, options);
  return {
    settings,
    classify: async (call, extra = {}) => model(await rules(call), extra),
    speculate: (call, extra = {}) => speculate(call, extra, rules, model),
    withRules: (source, granted) => createClassifier(addRules(settings, source, granted), options),
  };
}
