import type { LoadedSettings } from '../rules/index.js';
import { addRules } from '../rules/index.js';
import { type LazyJudge, lazyJudge, modelPhase } from './model-phase.js';
import { verifiedNarrowerAllow } from './narrower.js';
import { verdictWithRules } from './rule-check.js';
import { rulesPhase } from './rules-phase.js';
import { createSession } from './session.js';
import { speculate } from './speculation.js';
import type { Classifier, ClassifierOptions, ClassifierSession } from './types.js';

/** A classifier: the rules phase decides what it can, the model phase judges what the rules leave open. */
export function createClassifier(settings: LoadedSettings, options: ClassifierOptions = {}): Classifier {
  return build(settings, options, lazyJudge(options), createSession());
}

/** Classifiers made by `withRules` share the session and the model's cache: they belong to the session. */
function build(
  settings: LoadedSettings,
  options: ClassifierOptions,
  judge: LazyJudge,
  session: ClassifierSession,
): Classifier {
  const rules = rulesPhase(settings, options.model !== undefined);
  const model = modelPhase(settings, options, judge, session);
  return {
    settings,
    classify: async (call, extra = {}) => {
      const verdict = await model(await rules(call), extra);
      const narrower = await verifiedNarrowerAllow(settings, options.model !== undefined, call, verdict);
      return narrower ? { ...verdict, narrowerAllow: narrower } : verdict;
    },
    speculate: (call, extra = {}) => speculate(call, extra, rules, model),
    verdictWithRules: async (call, offered) =>
      (await verdictWithRules(settings, options.model !== undefined, call, offered)).verdict,
    withRules: (source, granted) => build(addRules(settings, source, granted), options, judge, session),
  };
}
