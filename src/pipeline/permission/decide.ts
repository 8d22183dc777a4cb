import type { PreToolUseOutcome } from '../../hooks/index.js';
import { allowSettles, asksOnlyFor, type Verdict } from '../../policy/index.js';
import type { ToolPermission } from '../tool.js';
import type { SandboxDecision } from './sandbox.js';
import type { AutoDecision } from './types.js';

/**
 * Whether the verdict asks only because nothing decided. An ask rule, an opaque command, a protected or critical
 * path, hidden code, the model's own objection: none of these is soft, whichever part the verdict names.
 */
export function isSoftAsk(v: Verdict): boolean {
  return asksOnlyFor(v, allowSettles);
}

export interface DecisionInputs {
  hook?: PreToolUseOutcome | undefined;
  tool: ToolPermission;
  /** `validateInput` handed the decision to the user. */
  validationAsk?: string | undefined;
  verdict: Verdict;
  /** The sandbox's say: its ask (it cannot start) is as strong as the tool's; its allow settles a soft ask. */
  sandbox?: SandboxDecision | undefined;
}

function fromVerdict(behavior: AutoDecision['behavior'], v: Verdict): AutoDecision {
  const d: AutoDecision = { behavior, by: 'classifier', reason: v.reason, verdictBy: v.by };
  if (v.rule) d.rule = v.rule;
  return d;
}

/**
 * Stage 4 without the handler. Denials first (a hook's deny or exit 2, the tool's, the verdict's), then asks that
 * nothing automatic may override (the tool's, validation's, the verdict's for a rule or a fail-closed reason),
 * then a hook's ask; a hook's, the tool's or the sandbox's allow settles only a soft ask.
 */
export function decide({ hook, tool, validationAsk, verdict, sandbox }: DecisionInputs): AutoDecision {
  if (hook?.decision === 'deny') {
    const how = hook.blocked ? 'blocked by a PreToolUse hook' : 'denied by a PreToolUse hook';
    return { behavior: 'deny', by: 'hook', reason: hook.reason ? `${how}: ${hook.reason}` : how };
  }
  if (tool.behavior === 'deny') return { behavior: 'deny', by: 'tool', reason: tool.reason };
  if (verdict.decision === 'deny') return fromVerdict('deny', verdict);
  if (tool.behavior === 'ask') return { behavior: 'ask', by: 'tool', reason: tool.reason };
  if (sandbox?.behavior === 'ask') return { behavior: 'ask', by: 'sandbox', reason: sandbox.reason };
  if (validationAsk !== undefined) return { behavior: 'ask', by: 'validation', reason: validationAsk };
  const soft = isSoftAsk(verdict);
  if (verdict.decision === 'ask' && !soft) return fromVerdict('ask', verdict);
  if (hook?.decision === 'ask' || hook?.decision === 'defer') {
    // A deferred call waits for a person: in the reference pipeline, the permission handler.
    const verb = hook.decision === 'ask' ? 'asks' : 'defers the call';
    const reason = hook.reason ? `a PreToolUse hook ${verb}: ${hook.reason}` : `a PreToolUse hook ${verb}`;
    return { behavior: 'ask', by: 'hook', reason };
  }
  if (hook?.decision === 'allow') {
    const reason = hook.reason
      ? `allowed by a PreToolUse hook: ${hook.reason}`
      : 'allowed by a PreToolUse hook';
    return { behavior: 'allow', by: 'hook', reason };
  }
  if (verdict.decision === 'allow') return fromVerdict('allow', verdict);
  if (tool.behavior === 'allow')
    return { behavior: 'allow', by: 'tool', reason: tool.reason ?? `${verdict.tool} allows it` };
  if (sandbox?.behavior === 'allow' && verdict.decision === 'ask')
    return { behavior: 'allow', by: 'sandbox', reason: sandbox.reason };
  return fromVerdict('ask', verdict);
}
