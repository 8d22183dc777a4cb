import { isShippedRule } from '../policy/index.js';
import type { LoadedSettings } from '../rules/index.js';
import { verdictWithRules } from './rule-check.js';
import type { ClassifiedVerdict, HookToolCall, ToolCall } from './types.js';

/**
 * For an ask by a shipped Bash ask rule: the allow rule naming exactly the command it asked about (which
 * overrides the shipped ask as narrower, `policy/tiers.ts`), kept only when adding it does change this call's
 * decision to allow: a command inside a wrapper or beside a redirection (`xargs rm -rf < dirs.txt`) is not
 * matched by its own words, and an ask by a file it touches stays. None for a rule someone wrote: their asks
 * are not overridden.
 */
export async function verifiedNarrowerAllow(
  settings: LoadedSettings,
  hasModel: boolean,
  call: ToolCall | HookToolCall,
  verdict: ClassifiedVerdict,
): Promise<string | undefined> {
  const rule = verdict.rule;
  if (verdict.decision !== 'ask' || rule?.behavior !== 'ask' || !isShippedRule(rule)) return undefined;
  if (!rule.text.startsWith('Bash(')) return undefined;
  const part = verdict.parts.find(
    (p) =>
      p.command !== undefined &&
      p.by === 'rule' &&
      p.rule?.text === rule.text &&
      p.rule.source === rule.source &&
      p.rule.pointer === rule.pointer,
  );
  if (!part || /[*()\n]/.test(part.subject)) return undefined;
  const candidate = `Bash(${part.subject})`;
  const again = await verdictWithRules(settings, hasModel, call, [{ behavior: 'allow', text: candidate }]);
  return again.verdict.decision === 'allow' ? candidate : undefined;
}
