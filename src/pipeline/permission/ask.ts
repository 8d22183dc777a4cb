import type { ClassifiedVerdict } from '../../classifier/index.js';
import { runPermissionRequestHooks } from '../../hooks/index.js';
import { errorText } from '../errors.js';
import { hookInput, hookOptions } from '../hook-input.js';
import type { DecisionInput, PermissionOutcome } from './stage-types.js';
import { checkedSuggestions, destructiveWarning, type Suggestions } from './suggest.js';
import type { AutoDecision, PermissionAnswer, PermissionRequest } from './types.js';

/**
 * The rules left the call to the user: the permission handler answers, with PermissionRequest hooks and, when
 * `classifier` is given, the model's answer racing it.
 */
export async function ask(
  i: DecisionInput,
  why: AutoDecision,
  verdict: ClassifiedVerdict,
  classifier: Promise<AutoDecision> | undefined,
  decideWith: (verdict: ClassifiedVerdict) => AutoDecision,
): Promise<PermissionOutcome> {
  const { ctx, tool, input } = i;
  const offered = await suggestions(i, verdict, decideWith);
  const request: PermissionRequest = {
    toolUseId: i.toolCtx.toolUseId,
    toolName: tool.name,
    tool,
    input,
    cwd: ctx.cwd,
    mode: verdict.mode,
    reason: why.reason,
    verdict,
    suggestions: offered.rules,
    ...(offered.why !== undefined ? { noSuggestions: offered.why } : {}),
    hooks: async (signal) => {
      const hookIn = hookInput(ctx, tool.name, input, i.toolCtx.toolUseId);
      const out = await runPermissionRequestHooks(ctx.hooks, hookIn, hookOptions(ctx, signal));
      if (!out.decision) return undefined;
      const d: AutoDecision = {
        behavior: out.decision,
        by: 'permission-hook',
        reason: out.reason ?? `a PermissionRequest hook said ${out.decision}`,
      };
      if (out.updatedInput) d.updatedInput = out.updatedInput;
      if (out.stop !== undefined) d.stop = out.stop;
      return d;
    },
    settings: ctx.permissions.classifier.settings,
    signal: i.signal,
  };
  const warning = destructiveWarning(tool.name, input);
  if (warning) request.warning = warning;
  if (classifier) request.classifier = classifier;
  i.onAsk?.(request, why.rule);
  let answer: PermissionAnswer;
  try {
    answer = await ctx.handler(request);
  } catch (e) {
    answer = { behavior: 'deny', by: 'handler', reason: `the permission handler failed: ${errorText(e)}` };
  }
  if (answer.behavior === 'allow' && answer.remember) ctx.permissions.grant(answer.remember.rules);
  const out: PermissionOutcome = {
    behavior: answer.behavior === 'allow' ? 'allow' : 'deny',
    by: answer.by,
    reason: answer.reason,
  };
  if (answer.by === 'classifier' && classifier && (await classifier).verdictBy === 'model') out.model = true;
  if (answer.updatedInput && out.behavior === 'allow') out.updatedInput = answer.updatedInput;
  if (answer.stop !== undefined) out.stop = answer.stop;
  return out;
}

/**
 * The "always allow" rules, each checked to turn this call's decision into allow: the rules phase runs again with
 * them granted, and the hooks', the tool's, validation's and the sandbox's say are taken as they were.
 */
async function suggestions(
  i: DecisionInput,
  verdict: ClassifiedVerdict,
  decideWith: (verdict: ClassifiedVerdict) => AutoDecision,
): Promise<Suggestions> {
  const classifier = i.ctx.permissions.classifier;
  try {
    return await checkedSuggestions(i.tool.name, i.input, i.ctx.cwd, verdict, async (rules) =>
      decideWith(
        await classifier.verdictWithRules(
          i.call,
          rules.map((text) => ({ behavior: 'allow' as const, text })),
        ),
      ),
    );
  } catch (e) {
    return { rules: [], why: `the suggested rules could not be checked: ${errorText(e)}` };
  }
}
