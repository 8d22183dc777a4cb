import type { ModelPhaseRunner } from './model-phase.js';
import type { RulesPhaseRunner } from './rules-phase.js';
import type { ClassifyOptions, HookToolCall, Speculation, ToolCall } from './types.js';

/**
 * Starts a classification ahead of need: the rules phase runs once and serves both the rules' verdict and the
 * full one; `cancel` (or the caller's signal) aborts the model call.
 */
export function speculate(
  call: ToolCall | HookToolCall,
  extra: ClassifyOptions,
  rulesPhase: RulesPhaseRunner,
  modelPhase: ModelPhaseRunner,
): Speculation {
  const controller = new AbortController();
  const outer = extra.signal;
  if (outer) outer.addEventListener('abort', () => controller.abort(), { once: true });
  const first = rulesPhase(call);
  const rules = first.then((phase) => phase.verdict);
  // Nobody has to wait for the rules' verdict; its failure also fails `promise`, where it is reported.
  rules.catch(() => undefined);
  const promise = first.then((phase) => modelPhase(phase, { ...extra, signal: controller.signal }));
  return { promise, rules, cancel: () => controller.abort() };
}
