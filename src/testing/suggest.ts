import {
  analyze,
  commandLine,
  loadBash,
  parseCommand,
  programSpec,
  type SimpleCommand,
  serviceReadPrograms,
  shellWord,
} from '../bash/index.js';
import { verdictWithRules } from '../classifier/index.js';
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
  /**
   * For an allow: the program named in `automode.readServices` of the same file would allow the command as a read
   * of the user's own service (its allow-list, option by option), with no rule that also matches its writes.
   */
  readService?: { program: string; withEntry: Decision };
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
  const verdictOf = async (s: LoadedSettings, text: string) => {
    const call = toCall({ command: text }, cwd);
    if ('error' in call) return { decision: 'ask' as Decision, reason: call.error };
    const { verdict } = await decider(s, undefined)(call);
    return { decision: verdict.decision, reason: verdict.reason };
  };
  const decide = async (s: LoadedSettings, text: string) => (await verdictOf(s, text)).decision;
  const inFile = (s: LoadedSettings, rules: readonly { text: string }[]) =>
    rules.reduce((acc, r) => withRuleEdit(acc, { op: 'add' as const, behavior, rule: r.text }, file), s);
  /** The simple command decided again with the rule written into the file. */
  const checked = async (text: string, rule: string) => {
    const call = toCall({ command: text }, cwd);
    const after = inFile(settings, [{ text: rule }]);
    if ('error' in call) return { decision: 'ask' as Decision, reason: call.error, after };
    const v = await verdictWithRules(settings, false, call, [{ behavior, text: rule }], inFile);
    return { decision: v.verdict.decision, reason: v.verdict.reason, after: v.settings };
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
    const readService =
      behavior === 'allow' && decision !== 'allow'
        ? await serviceEntry(settings, file, cmd, line, decide)
        : undefined;
    const service = readService ? { readService } : {};
    const chosen = ruleFor(cmd, behavior);
    if ('why' in chosen) {
      suggestions.push({ command: line, why: chosen.why, decision, admits: [], admitted: 0, ...service });
      continue;
    }
    // The widest rule that keeps clear of broad ones first, then narrower ones down to the command's own words:
    // the first that does change this command's decision is suggested, and none when no rule does.
    let found: { rule: string; after: LoadedSettings; withRule: Decision } | undefined;
    let last: { rule: string; decision: Decision; reason: string } | undefined;
    for (const rule of chosen.rules) {
      const v = await checked(line, rule);
      if (v.decision === behavior || decision === behavior) {
        found = { rule, after: v.after, withRule: v.decision };
        break;
      }
      last = { rule, ...v };
    }
    if (!found) {
      suggestions.push({
        command: line,
        why: `no ${behavior} rule changes its decision: with ${last!.rule} it is still ${last!.decision} (${last!.reason})`,
        decision,
        admits: [],
        admitted: 0,
        ...service,
      });
      continue;
    }
    all = withRuleEdit(all, { op: 'add' as const, behavior, rule: found.rule }, file);
    const { changes } = await diffDecisions(
      corpus,
      { settings, project: cwd },
      { settings: found.after, project: cwd },
    );
    suggestions.push({
      command: line,
      rule: found.rule,
      ...(chosen.broad ? { broad: chosen.broad } : {}),
      decision,
      withRule: found.withRule,
      admits: changes
        .slice(0, SHOWN)
        .map((c) => ({ command: describeCall(c.call), from: c.base.decision, to: c.head.decision })),
      admitted: changes.length,
      ...service,
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

/**
 * The simple command decided again with its program added to `automode.readServices` in the file; reported only
 * when that allows it. The entry is not added to the settings the later commands are decided with: it is offered
 * beside the rule, not in its place.
 */
async function serviceEntry(
  settings: LoadedSettings,
  file: ScopeFile,
  cmd: SimpleCommand,
  line: string,
  decide: (s: LoadedSettings, text: string) => Promise<Decision>,
): Promise<{ program: string; withEntry: Decision } | undefined> {
  const program = cmd.argv[0]?.value;
  if (program === undefined || !serviceReadPrograms().includes(program)) return undefined;
  const entries = settings.readServices ?? [];
  if (entries.some((e) => e.program === program)) return undefined;
  const index = entries.filter((e) => e.provenance.file === file.path).length;
  const entry = {
    program,
    provenance: { source: file.source, file: file.path, pointer: `/automode/readServices/${index}`, index },
  };
  const withEntry = await decide({ ...settings, readServices: [entry, ...entries] }, line);
  return withEntry === 'allow' ? { program, withEntry } : undefined;
}

/**
 * The rules to try for one simple command, widest first: the program and its subcommands with a wildcard (never
 * one whose wildcard chooses the code that runs), then the command's own words.
 */
function ruleFor(
  cmd: SimpleCommand,
  behavior: Behavior,
): { rules: string[]; broad?: { rule: string; witness: string } } | { why: string } {
  const dynamic = cmd.argv.find((w) => !w.static);
  if (dynamic) return { why: `${dynamic.text} is known only when the command runs` };
  const words = cmd.argv.map((w) => w.value);
  let broad: { rule: string; witness: string } | undefined;
  const rules: string[] = [];
  for (let n = fixedLevels(cmd); n < words.length; n++) {
    if (words.slice(0, n).some((w) => /[*\s]/.test(w) || w === '')) break;
    const rule = `Bash(${shellWords(words.slice(0, n))} *)`;
    if (behavior !== 'allow' || rules.length > 0) {
      rules.push(rule);
      continue;
    }
    const witness = broadWitness(rule);
    if (witness === undefined) rules.push(rule);
    else broad ??= { rule, witness };
  }
  // Between the program's rule and the command's own words only the latter: a wildcard rule narrower than the
  // program's that does change the decision does so by overriding a shipped ask for every command it matches.
  const ladder = rules.slice(0, 1);
  if (!words.some((w) => w.includes('*'))) ladder.push(`Bash(${shellWords(words)})`);
  if (ladder.length === 0) return { why: 'a * in a rule is a wildcard: no rule names this command exactly' };
  return broad ? { rules: ladder, broad } : { rules: ladder };
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
