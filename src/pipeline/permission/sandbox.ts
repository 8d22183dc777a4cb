import type { DecisionInput } from './stage-types.js';

/** The sandbox's say on a call: allow (it runs sandboxed and the settings auto-allow such calls) or ask. */
export interface SandboxDecision {
  behavior: 'allow' | 'ask';
  reason: string;
}

/**
 * A call that will run in the sandbox: when the sandbox cannot start it asks (it must not run on the host
 * unanswered); otherwise `autoAllowBashIfSandboxed` allows it where the rules leave it open. A call out of the
 * sandbox (`excludedCommands`, `dangerouslyDisableSandbox`) has no say from here.
 */
export async function sandboxDecision(i: DecisionInput): Promise<SandboxDecision | undefined> {
  const call = i.tool.sandboxed?.(i.input as never, i.toolCtx);
  if (!call?.plan.sandboxed) return undefined;
  const status = await call.sandbox.status();
  if (!status.available) {
    return {
      behavior: 'ask',
      reason: `the sandbox is unavailable (${status.reason}); allowing runs the command without it`,
    };
  }
  if (!call.sandbox.autoAllow) return undefined;
  return { behavior: 'allow', reason: 'runs in the sandbox (sandbox.autoAllowBashIfSandboxed)' };
}
