import {
  analyze,
  commandLine,
  loadBash,
  parseCommand,
  programSpec,
  type SimpleCommand,
  shellWord,
} from '../bash/index.js';
import { broadAllowWitness, loadRuleChecks } from '../policy/index.js';
import type { Behavior, LoadedSettings, PermissionRule, ScopeFile } from '../rules/index.js';
import { parsePermissionRule, withRuleEdit } from '../rules/index.js';
import { describeCall, toCall } from './call.js';
import type { CorpusEntry } from './corpus.js';
import { decider } from './decide.js';
import { diffDecisions } from './diff.js';
import type { Decision } from './results.js';

export interface RuleSuggestion {
  /** The simple command, as its words are quoted back into a command line. */
  command: string;
  /** The rule; absent when none can be written (see `why`). */
  rule?: string;
  why?: string;
  /** A wider rule left out because its wildcard would choose the code that runs, and a command showing it. */
  broad?: { rule: string; witness: string };
  /** The simple command's decision now, and with the rule. */
  decision: Decision;
  withRule?: Decision;
  /** Corpus commands whose decision the rule changes, a few of them, and how many in all. */
  admits: { command: string; from: Decision; to: Decision }[];
  admitted: number;
}

export interface SuggestReport {
  command: string;
  behavior: Behavior;
  /** The command's decision now, and with every suggested rule. */
  decision: Decision;
  withRules: Decision;
  suggestions: RuleSuggestion[];
}

const SHOWN = 5;

/**
 * The narrowest rules that would allow (or deny) a command: one per simple command, at the level of the
 * program and its subcommands (`git commit -m x` → `Bash(git commit *)`), widened no further than needed and
 * never to a rule whose wildcard chooses the code that runs (`python3 script.py` is allowed as written).
 */
export async function suggestRules(
  command: string,
  behavior: Behavior,
  settings: LoadedSettings,
  file: ScopeFile,
  corpus: readonly CorpusEntry[],
): Promise<SuggestReport> {
  await Promise.all([loadBash(), loadRuleChecks()]);
  const cwd = settings.cwd;
  const decide = async (s: LoadedSettings, text: string) => {
    const call = toCall({ command: text }, cwd);
    if ('error' in call) return 'ask' as Decision;
    return (await decider(s, undefined)(call)).verdict.decision;
  };
  const analysis = analyze(command);
  const simple = analysis.commands.filter((c) => !c.nested && c.argv.length > 0);
  const suggestions: RuleSuggestion[] = [];
  let all = settings;
  const seen = new Set<string>();
  for (const cmd of simple) {
    const line = commandLine({ assignments: [], argv: cmd.argv });
    if (seen.has(line)) continue;
    seen.add(line);
    const decision = await decide(settings, line);
    const chosen = ruleFor(cmd, behavior);
    if ('why' in chosen) {
      suggestions.push({ command: line, why: chosen.why, decision, admits: [], admitted: 0 });
      continue;
    }
    const edit = { op: 'add' as const, behavior, rule: chosen.rule };
    const after = withRuleEdit(settings, edit, file);
    all = withRuleEdit(all, edit, file);
    const { changes } = await diffDecisions(
      corpus,
      { settings, project: cwd },
      { settings: after, project: cwd },
    );
    suggestions.push({
      command: line,
      rule: chosen.rule,
      ...(chosen.broad ? { broad: chosen.broad } : {}),
      decision,
      withRule: await decide(after, line),
      admits: changes
        .slice(0, SHOWN)
        .map((c) => ({ command: describeCall(c.call), from: c.base.decision, to: c.head.decision })),
      admitted: changes.length,
    });
  }
  return {
    command,
    behavior,
    decision: await decide(settings, command),
    withRules: await decide(all, command),
    suggestions,
  };
}

function ruleFor(
  cmd: SimpleCommand,
  behavior: Behavior,
): { rule: string; broad?: { rule: string; witness: string } } | { why: string } {
  const dynamic = cmd.argv.find((w) => !w.static);
  if (dynamic) return { why: `${dynamic.text} is known only when the command runs` };
  const words = cmd.argv.map((w) => w.value);
  let broad: { rule: string; witness: string } | undefined;
  for (let n = fixedLevels(cmd); n < words.length; n++) {
    if (words.slice(0, n).some((w) => /[*\s]/.test(w) || w === '')) break;
    const rule = `Bash(${shellWords(words.slice(0, n))} *)`;
    if (behavior !== 'allow') return { rule };
    const witness = broadWitness(rule);
    if (witness === undefined) return broad ? { rule, broad } : { rule };
    broad ??= { rule, witness };
  }
  if (words.some((w) => w.includes('*')))
    return { why: 'a * in a rule is a wildcard: no rule names this command exactly' };
  const rule = `Bash(${shellWords(words)})`;
  return broad ? { rule, broad } : { rule };
}

export function shellWords(words: readonly string[]): string {
  return words.map((w, i) => shellWord(w, i === 0)).join(' ');
}

/** How many leading words name the program and its subcommands, written one after the other. */
export function fixedLevels(cmd: SimpleCommand): number {
  const spec = programSpec(cmd.argv[0]!.value);
  if (!spec) return 1;
  const parsed = parseCommand(spec, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return 1;
  let n = 1;
  for (const level of parsed.levels.slice(1)) {
    if (level.index !== n) break;
    n++;
  }
  return n;
}

export function broadWitness(text: string): string | undefined {
  const { parsed } = parsePermissionRule(text, { behavior: 'allow' });
  if (!parsed) return undefined;
  const rule: PermissionRule = {
    type: 'permission',
    behavior: 'allow',
    text,
    parsed,
    provenance: { source: 'cliArg', pointer: '', index: 0 },
  };
  return broadAllowWitness(rule);
}
