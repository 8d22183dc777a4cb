import type { Classifier } from '../classifier/index.js';
import type { RuleRef } from '../policy/index.js';
import { allowRuleMatches, broadAllowWitness, isCodeRunnerRule } from '../policy/index.js';
import { type LocatedDocument, PATTERN_KEYS } from '../rules/index.js';
import type { CorpusCommand } from './corpus.js';
import { displayName, ruleLocation } from './locations.js';
import type { AnalysedRule } from './model.js';
import type { Finding, RelatedLocation } from './types.js';

/** How many example commands a message names. */
const EXAMPLES = 3;

export interface Decided {
  decision: 'allow' | 'ask' | 'deny';
  reason: string;
  rule?: RuleRef;
}

/** Classifies corpus commands once each, in the default mode, under the whole configuration. */
export class CorpusVerdicts {
  private readonly cache = new Map<string, Promise<Decided>>();

  constructor(private readonly classifier: Classifier) {}

  of(command: string): Promise<Decided> {
    let verdict = this.cache.get(command);
    if (!verdict) {
      verdict = this.classifier
        .classify({ tool: 'Bash', input: { command }, mode: 'default' })
        .then((v) => ({ decision: v.decision, reason: v.reason, ...(v.rule ? { rule: v.rule } : {}) }));
      this.cache.set(command, verdict);
    }
    return verdict;
  }
}

/** Where the rule behind a verdict is written; for a pattern rule, its regex string. */
export function refLocation(
  ref: RuleRef,
  message: string,
  documents?: ReadonlyMap<string, LocatedDocument>,
): RelatedLocation {
  let pointer = ref.pointer;
  let line = ref.line;
  let column = ref.column;
  const doc = ref.file === undefined ? undefined : documents?.get(ref.file);
  if (ref.label !== undefined && doc) {
    const rule = doc.value as { rules?: Record<string, unknown>[] };
    const key = PATTERN_KEYS.find((k) => rule.rules?.[ref.index]?.[k] === ref.text);
    const position = key ? doc.locate(['rules', ref.index, key]) : undefined;
    if (key && position) {
      pointer = `/rules/${ref.index}/${key}`;
      line = position.line;
      column = position.column;
    }
  }
  return {
    source: ref.source === 'default' ? 'defaults' : ref.source,
    ...(ref.file === undefined ? {} : { file: ref.file }),
    ...(pointer === undefined ? {} : { pointer }),
    ...(line === undefined ? {} : { line, column: column ?? 1 }),
    rule: ref.label ? `${ref.label} (/${ref.text}/)` : ref.text,
    message,
  };
}

interface Admitted {
  command: CorpusCommand;
  verdict: Decided;
}

/**
 * Allow rules that admit commands from the dangerous corpus, with the commands; and broad allow rules (a
 * shell, an interpreter or a runner with any arguments), which auto mode sets aside. A finding is an error
 * when the whole configuration then allows the command, a warning when another rule or check still stops it.
 */
export async function dangerousFindings(
  rules: readonly AnalysedRule[],
  corpus: readonly CorpusCommand[],
  verdicts: CorpusVerdicts,
  documents: ReadonlyMap<string, LocatedDocument>,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const a of rules) {
    if (!a.subject || a.rule.behavior !== 'allow' || a.domain !== 'Bash') continue;
    const rule = a.rule;
    const broad = broadAllowWitness(rule);
    // The classifier's own test of an allow rule against the command a corpus line starts with.
    const matched = corpus.filter((c) => c.views !== undefined && allowRuleMatches(rule, c.views));
    if (matched.length === 0 && broad === undefined) continue;
    const admitted: Admitted[] = [];
    for (const command of matched) admitted.push({ command, verdict: await verdicts.of(command.command) });
    const allowed = admitted.filter((x) => x.verdict.decision === 'allow');
    const shown = [...allowed, ...admitted.filter((x) => x.verdict.decision !== 'allow')];
    const examples = distinctCategories(shown).slice(0, EXAMPLES);
    const list = examples
      .map((x) => `${JSON.stringify(x.command.command)} (${x.command.category})`)
      .join(', ');
    const name = displayName(rule);
    const outcome =
      admitted.length === 0
        ? ''
        : allowed.length > 0
          ? `; ${allowed.length} of them ${allowed.length === 1 ? 'is' : 'are'} allowed by this configuration`
          : '; other rules and checks still stop each of them';
    const runner =
      rule.type === 'permission' &&
      rule.parsed.kind === 'bash' &&
      isCodeRunnerRule(rule, rule.parsed.pattern.source.split(' ')[0] ?? '');
    const admits = runner
      ? '; in default and acceptEdits modes it allows any code the agent writes there, as Claude Code reads it'
      : '';
    const head = broad
      ? `allow rule ${name} is a broad allow: its wildcard chooses the code that runs (it admits ${JSON.stringify(broad)}, where CODE is anything)${admits}; auto mode sets it aside`
      : `allow rule ${name} admits ${admitted.length} dangerous command${admitted.length === 1 ? '' : 's'}`;
    const eg = list ? `${broad ? ': it admits ' : ', e.g. '}${list}` : '';
    const first = examples[0];
    const finding: Finding = {
      code: broad ? 'broad-allow' : 'dangerous-allow',
      severity: allowed.length > 0 ? 'error' : 'warning',
      message: `${head}${eg}${outcome}`,
      location: ruleLocation(rule, documents),
      related: stoppers(admitted, documents),
      fix: broad
        ? `allow the exact commands you run instead (e.g. ${suggestNarrow(rule.text)})`
        : 'narrow the rule to the subcommands you mean, or add deny or ask rules for the dangerous forms',
      data: {
        admitted: admitted.map((x) => ({
          command: x.command.command,
          category: x.command.category,
          decision: x.verdict.decision,
          reason: x.verdict.reason,
        })),
      },
    };
    if (broad && !first) {
      finding.witness = {
        kind: 'command',
        value: broad,
        explanation: 'the wildcard stands for CODE, which runs',
      };
    } else if (first) {
      finding.witness = {
        kind: 'command',
        value: first.command.command,
        explanation: `${first.command.category}; ${verdictText(first.verdict)}`,
      };
    }
    findings.push(finding);
  }
  return findings;
}

function verdictText(v: Decided): string {
  return v.reason;
}

/** One example per category first, so the examples show the range of what the rule admits. */
function distinctCategories(list: readonly Admitted[]): Admitted[] {
  const seen = new Set<string>();
  const first: Admitted[] = [];
  const rest: Admitted[] = [];
  for (const x of list) {
    if (seen.has(x.command.category)) rest.push(x);
    else {
      seen.add(x.command.category);
      first.push(x);
    }
  }
  return [...first, ...rest];
}

/** The rules that still ask for or deny the admitted commands. */
function stoppers(
  admitted: readonly Admitted[],
  documents: ReadonlyMap<string, LocatedDocument>,
): RelatedLocation[] {
  const out = new Map<string, RelatedLocation>();
  for (const { command, verdict } of admitted) {
    const ref = verdict.rule;
    if (verdict.decision === 'allow' || !ref) continue;
    const key = `${ref.file ?? ref.source}#${ref.pointer ?? ref.text}`;
    if (out.has(key) || out.size >= EXAMPLES) continue;
    const verb = verdict.decision === 'deny' ? 'denies' : 'asks for';
    out.set(key, refLocation(ref, `still ${verb} ${JSON.stringify(command.command)}`, documents));
  }
  return [...out.values()];
}

function suggestNarrow(text: string): string {
  const program = /^Bash\(([^\s*():]+)/.exec(text)?.[1];
  if (!program) return 'Bash(npm test)';
  const examples: Record<string, string> = {
    npx: 'Bash(npx vitest run)',
    python: 'Bash(python -m pytest *)',
    python3: 'Bash(python3 -m pytest *)',
    node: 'Bash(node scripts/build.js)',
    npm: 'Bash(npm test), Bash(npm run build)',
  };
  return examples[program] ?? `Bash(${program} <the subcommand you run>)`;
}
