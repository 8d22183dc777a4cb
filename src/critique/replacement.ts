import { type Classifier, createClassifier } from '../classifier/index.js';
import { addRules, type LoadedSettings, type Rule } from '../rules/index.js';
import { type Language, sample, uncoveredWitness } from './automata.js';
import { shippedCommands } from './corpus.js';
import { placeKey } from './locations.js';
import { analyseRule } from './model.js';
import type { Finding } from './types.js';

/**
 * A fix that writes other rules instead of one: each option is the rules written (permission rule texts, or
 * regexes in place of a pattern rule's), and `render` words the fix for the options that are kept.
 */
export interface Proposal {
  /** The rule replaced; else the rule written at the finding's location. */
  rule?: Rule;
  options: string[][];
  render(kept: readonly string[][]): string;
}

const proposals = new WeakMap<Finding, Proposal>();

export function propose(finding: Finding, proposal: Proposal): void {
  proposals.set(finding, proposal);
}

/** The rules a finding's fix writes instead, each option a list; after `guardReplacements`, those it kept. */
export function replacementsOf(finding: Finding): readonly string[][] | undefined {
  return proposals.get(finding)?.options;
}

/** How the fixes of deny and ask rules fared. */
export interface ReplacementTally {
  checked: number;
  /** Some options were dropped, or the one kept matches more than the rule. */
  changed: number;
  /** No option keeps every command the rule matches: the fix says so instead. */
  dropped: number;
}

export interface OptionCheck {
  /** A command the rule matches and the option does not. */
  lost?: string;
  /** A command the option matches and the rule does not. */
  broader?: string;
}

/** Texts a rule's literal start is followed by, to probe what it matches beyond its shortest subjects. */
const SUFFIXES = [
  '',
  ' origin main',
  'x',
  '-x',
  ' x',
  ' -f',
  ' --force',
  '-with-lease origin main',
  ' /',
  ' -rf /',
  ' https://example.com',
  ' https://example.com/install.sh',
];

/**
 * A replacement for a deny or ask rule must match every command the rule matches, or the fix weakens it. Each
 * option is checked with the classifier itself (the rules alone, each made a deny) over the shipped corpora
 * and the rule's witnesses: its shortest subjects, its literal start followed by common endings, and a subject
 * of the regex view the option leaves out, which is exact where both automata are.
 */
export class ReplacementChecker {
  private readonly classifiers = new Map<string, Classifier>();
  private readonly verdicts = new Map<string, Promise<boolean>>();

  constructor(
    private readonly settings: LoadedSettings,
    private readonly ctx: { cwd: string; home: string },
    private readonly corpus: readonly string[] = shippedCommands(),
  ) {}

  /** `hint`: a command the finding already shows the rule matching, tried first. */
  async check(original: Rule, option: readonly string[], hint?: string): Promise<OptionCheck> {
    const before = [asDeny(original)];
    const after = this.optionRules(original, option);
    if (after.length === 0) return { lost: '' };
    const languages = (rules: readonly Rule[]) =>
      rules.flatMap((r) => {
        const a = analyseRule(r, false, this.ctx);
        return a.language ? [{ language: a.language, prefix: a.prefix }] : [];
      });
    const was = languages(before);
    const will = languages(after);
    const lost = await this.find(
      chain(hint === undefined ? [] : [hint], this.candidates(was, will)),
      async (c) => (await this.matches(before, c)) && !(await this.matches(after, c)),
    );
    if (lost !== undefined) return { lost };
    const broader = await this.find(
      this.candidates(will, was),
      async (c) => (await this.matches(after, c)) && !(await this.matches(before, c)),
    );
    return broader === undefined ? {} : { broader };
  }

  /** The option as rules, each a deny; none when an option does not parse. */
  private optionRules(original: Rule, option: readonly string[]): Rule[] {
    if (original.type === 'pattern') return option.map((text) => ({ ...asDeny(original), text }));
    const added = addRules(
      this.bare(),
      'session',
      option.map((text) => ({ behavior: 'deny' as const, text })),
    );
    return added.rules.length === option.length ? added.rules : [];
  }

  /**
   * Commands to try, the most telling first: the corpora's simple commands that start with a rule's first
   * word, probes from the literal starts, the regex view's difference and shortest subjects, then the rest of
   * the corpora that name a rule's first word.
   */
  private *candidates(
    from: readonly { language: Language; prefix: string }[],
    against: readonly { language: Language; prefix: string }[],
  ): Generator<string> {
    const words = [...from, ...against].map((a) => a.prefix.split(' ')[0]!).filter((w) => w !== '');
    const related = this.corpus.filter((c) => words.length === 0 || words.some((w) => c.includes(w)));
    const direct = (c: string) => !/[|;&<>$`]/.test(c) && words.includes(c.split(' ')[0]!);
    yield* related.filter(direct);
    for (const { prefix } of from) if (prefix !== '') for (const s of SUFFIXES) yield `${prefix}${s}`;
    for (const { language } of from) {
      const outside = uncoveredWitness(
        language,
        against.map((a) => a.language),
      );
      if (outside !== undefined) yield outside;
      yield* sample(language, 10);
    }
    yield* related.filter((c) => !direct(c));
  }

  private async find(
    candidates: Iterable<string>,
    test: (command: string) => Promise<boolean>,
  ): Promise<string | undefined> {
    const seen = new Set<string>();
    for (const raw of candidates) {
      const c = raw.trim();
      if (c === '' || seen.has(c)) continue;
      seen.add(c);
      if (await test(c)) return c;
    }
    return undefined;
  }

  /** Whether a deny rule of `rules` decides some part of the command. */
  private matches(rules: readonly Rule[], command: string): Promise<boolean> {
    const key = `${rules.map((r) => `${r.type}:${r.text}`).join('\u0000')}\u0001${command}`;
    let verdict = this.verdicts.get(key);
    if (!verdict) {
      verdict = this.classifierOf(rules)
        .classify({ tool: 'Bash', input: { command }, mode: 'default', cwd: this.ctx.cwd })
        .then((v) => v.parts.some((p) => p.decision === 'deny' && p.rule !== undefined));
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }

  private classifierOf(rules: readonly Rule[]): Classifier {
    const key = rules.map((r) => `${r.type}:${r.text}`).join('\u0000');
    let classifier = this.classifiers.get(key);
    if (!classifier) {
      classifier = createClassifier({ ...this.bare(), rules: [...rules] });
      this.classifiers.set(key, classifier);
    }
    return classifier;
  }

  private bare(): LoadedSettings {
    return { ...this.settings, rules: [], diagnostics: [], failed: [] };
  }
}

function* chain(...lists: Iterable<string>[]): Generator<string> {
  for (const list of lists) yield* list;
}

function asDeny(rule: Rule): Rule {
  return { ...rule, behavior: 'deny' } as Rule;
}

/**
 * Rewrites the fix of every finding that replaces a deny or ask rule: options that lose a command the rule
 * matches are dropped, and with none left the fix says so; a kept option that matches more says what.
 */
export async function guardReplacements(
  findings: readonly Finding[],
  subjects: readonly Rule[],
  checker: ReplacementChecker,
): Promise<ReplacementTally> {
  const tally: ReplacementTally = { checked: 0, changed: 0, dropped: 0 };
  const byPlace = new Map(subjects.map((r) => [placeKey(r.provenance.file, r.provenance.pointer), r]));
  for (const finding of findings) {
    const proposal = proposals.get(finding);
    if (!proposal) continue;
    const rule = proposal.rule ?? byPlace.get(placeKey(finding.location.file, finding.location.pointer));
    if (!rule || rule.behavior === 'allow' || (rule.type === 'pattern' && rule.field !== 'command')) continue;
    tally.checked++;
    const verb = rule.behavior === 'deny' ? 'deny' : 'ask for';
    const hint = finding.witness?.kind === 'command' ? finding.witness.value : undefined;
    const checks = await Promise.all(proposal.options.map((o) => checker.check(rule, o, hint)));
    const kept = proposal.options.filter((_, i) => checks[i]!.lost === undefined);
    proposals.set(finding, { ...proposal, rule, options: kept });
    if (kept.length === 0) {
      const lost = checks[0]!.lost;
      const first = written(rule, proposal.options[0]!);
      finding.fix = `no replacement keeps every command this rule matches${lost ? ` (${first} would no longer ${verb} ${JSON.stringify(lost)})` : ''}`;
      tally.dropped++;
      continue;
    }
    const broader = checks[proposal.options.indexOf(kept[0]!)]!.broader;
    if (kept.length === proposal.options.length && broader === undefined) continue;
    tally.changed++;
    finding.fix = proposal.render(kept);
    if (broader !== undefined) {
      const also = rule.behavior === 'deny' ? 'denies' : 'asks for';
      finding.fix += `; it also ${also} what the rule as written does not, e.g. ${JSON.stringify(broader)}`;
    }
  }
  return tally;
}

function written(rule: Rule, option: readonly string[]): string {
  return option.map((text) => (rule.type === 'pattern' ? `/${text}/` : text)).join(', ');
}
