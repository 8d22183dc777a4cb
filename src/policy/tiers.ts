import { analyze, loadBash } from '../bash/index.js';
import type { PatternRule, PermissionRule, Rule } from '../rules/index.js';
import { absoluteGlob, matchPathRule, matchPatternRule } from '../rules/index.js';
import { denyMatches, viewsOf } from './bash-match.js';
import { isBroadAllow } from './broad.js';

/**
 * Rule tiers. automode's shipped rules (source `defaults`) are the lowest tier: a user's allow rule may
 * override a shipped **ask** rule, never a deny rule (shipped or not), never an ask someone else wrote.
 *
 * An allow overrides a shipped ask only if it is narrower than the ask: it is a `Bash(...)` pattern rule, not
 * broad by `isBroadAllow`, and its own text, read as a command (wildcards dropped, `Bash(rm -rf dist/*)` is
 * `rm -rf dist/`), is matched by the ask. So `Bash(rm -rf dist)` overrides `Bash(rm -r *)`, while
 * `Bash(rm *)` (its text `rm` is not matched by `rm -r *`), `Bash(*)` and `Bash` never silence it.
 * The same pairing is what `automode config` and the critique show: it is static, checked on the rule texts.
 */
export function isShipped(rule: Rule): boolean {
  return rule.provenance.source === 'defaults';
}

type AskRule = PermissionRule | PatternRule;

const pairs = new WeakMap<Rule, WeakMap<Rule, boolean>>();

/** The command a Bash allow rule stands for: its specifier without wildcards, or undefined when it has none. */
export function exampleCommand(rule: Rule): string | undefined {
  if (rule.type !== 'permission' || rule.parsed.kind !== 'bash') return undefined;
  const p = rule.parsed.pattern;
  const text = (p.legacyColonStar ? p.source.replace(/:\*$/, '') : p.source)
    .replace(/\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? undefined : text;
}

/** Whether a user allow rule overrides a shipped ask rule (see the module comment). */
export function overridesShipped(allow: Rule, ask: Rule, home = ''): boolean {
  if (allow.behavior !== 'allow' || isShipped(allow) || ask.behavior !== 'ask' || !isShipped(ask))
    return false;
  let byAsk = pairs.get(allow);
  if (!byAsk) {
    byAsk = new WeakMap();
    pairs.set(allow, byAsk);
  }
  let known = byAsk.get(ask);
  if (known === undefined) {
    known = computeOverride(allow, ask, home);
    byAsk.set(ask, known);
  }
  return known;
}

/** A path rule naming one file: no wildcard, nothing a glob would expand. */
export function isExactPath(rule: Rule): boolean {
  return (
    rule.type === 'permission' && rule.parsed.kind === 'path' && !/[*?[\]{}!]/.test(rule.parsed.pattern.glob)
  );
}

/** A path allow naming one file overrides a shipped path ask that covers that file (checked in a model folder). */
function pathOverride(allow: PermissionRule, ask: PermissionRule, home: string): boolean {
  if (allow.parsed.kind !== 'path' || ask.parsed.kind !== 'path' || !isExactPath(allow)) return false;
  const writes = allow.parsed.tool !== 'Read';
  if (!writes && ask.parsed.tool !== 'Read') return false;
  const ctx = { cwd: '/project', home: home || '/home/user' };
  return matchPathRule(ask, absoluteGlob(allow.parsed.pattern, ctx), ctx);
}

function computeOverride(allow: Rule, ask: Rule, home: string): boolean {
  if (isBroadAllow(allow)) return false;
  if (allow.type === 'permission' && ask.type === 'permission' && allow.parsed.kind === 'path')
    return pathOverride(allow, ask, home);
  const example = exampleCommand(allow);
  if (example === undefined) return false;
  const analysis = analyze(example);
  if (analysis.opaque || analysis.commands.length !== 1) return false;
  const cmd = analysis.commands[0]!;
  if (cmd.argv.length === 0) return false;
  const v = viewsOf(cmd, home);
  if (ask.type === 'pattern') {
    if (ask.field !== 'command' || (ask.tool !== 'Bash' && ask.tool !== '*')) return false;
    return matchPatternRule(ask, v.raw) || matchPatternRule(ask, v.based);
  }
  if (ask.parsed.kind !== 'bash') return false;
  return denyMatches(ask.parsed.pattern, v, home);
}

/** Whether `allow` overrides every one of `asks` (all shipped). */
export function overridesAll(allow: Rule, asks: readonly AskRule[], home = ''): boolean {
  return asks.length > 0 && asks.every((ask) => overridesShipped(allow, ask, home));
}

/** A user allow rule and the shipped ask rules it overrides. */
export interface ShippedOverride {
  allow: Rule;
  asks: Rule[];
}

/**
 * Pairs each non-shipped allow rule among `allows` with the shipped ask rules among `rules` it overrides: a
 * static pairing on the rule texts, what `automode config` and the critique show.
 */
export async function shippedOverrides(
  allows: readonly Rule[],
  rules: readonly Rule[],
  home = '',
): Promise<ShippedOverride[]> {
  await loadBash();
  const asks = rules.filter((r) => r.behavior === 'ask' && isShipped(r));
  const out: ShippedOverride[] = [];
  for (const allow of allows) {
    if (allow.behavior !== 'allow' || isShipped(allow)) continue;
    const over = asks.filter((ask) => overridesShipped(allow, ask, home));
    if (over.length > 0) out.push({ allow, asks: over });
  }
  return out;
}
