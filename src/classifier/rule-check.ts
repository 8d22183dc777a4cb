import type { Behavior, LoadedSettings } from '../rules/index.js';
import { addRules } from '../rules/index.js';
import { rulesPhase } from './rules-phase.js';
import type { ClassifiedVerdict, HookToolCall, ToolCall } from './types.js';

export interface OfferedRule {
  behavior: Behavior;
  text: string;
}

/** How offered rules join the settings: granted for the session, or written into a settings file. */
export type AddRules = (settings: LoadedSettings, rules: readonly OfferedRule[]) => LoadedSettings;

export const forSession: AddRules = (settings, rules) => addRules(settings, 'session', rules);

/**
 * The one check of a rule automode offers (the pipeline's "always allow", `automode rules suggest`, the narrower
 * allow of a shipped ask): the same call decided again by the rules of the same settings with the rules added.
 * The rules alone decide it: a rule is never offered on the strength of a model's judgement.
 */
export async function verdictWithRules(
  settings: LoadedSettings,
  hasModel: boolean,
  call: ToolCall | HookToolCall,
  rules: readonly OfferedRule[],
  add: AddRules = forSession,
): Promise<{ settings: LoadedSettings; verdict: ClassifiedVerdict }> {
  const after = add(settings, rules);
  const { verdict } = await rulesPhase(after, hasModel)(call);
  return { settings: after, verdict };
}
