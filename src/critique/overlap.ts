import { overridesShipped } from '../policy/index.js';
import type { LocatedDocument } from '../rules/index.js';
import { AUTOMATON_BOUND, coveredBy, intersects, type Language, sample, witness } from './automata.js';
import { displayName, related, ruleLocation } from './locations.js';
import { type AnalysedRule, compatiblePrefixes, coveringDomains, firstWord, RANK } from './model.js';
import type { Finding, RelatedLocation, Witness } from './types.js';

const ROBUST_NOTE =
  'witness for the regex view: the classifier matches deny and ask rules more broadly (through wrappers, path-qualified names and any option order)';

/** How many overlapping rules an overlap finding names. */
const MAX_RELATED = 5;

/** A check on a rule under review that stopped at the automaton bound: the rules it was against, and which. */
interface Unproved {
  rule: AnalysedRule;
  check: 'dead-rule' | 'redundant-rule' | 'overlap';
  against: AnalysedRule[];
}

export interface OverlapOptions {
  documents: ReadonlyMap<string, LocatedDocument>;
  /** Real subjects (the command corpora) to prefer as witnesses over generated ones. */
  examples?: ReadonlyMap<string, readonly string[]>;
  /** The home folder path rules are read against (for the shipped asks an allow overrides). */
  home?: string;
}

/**
 * Overlaps between rules, decided on their automata: an allow rule whose subjects a stricter rule also
 * matches (with a witness), a rule that stricter rules cover entirely (dead), a rule that another rule with
 * the same decision covers (redundant), and rules that match exactly the same subjects (equivalent).
 */
export function overlapFindings(rules: readonly AnalysedRule[], options: OverlapOptions): Finding[] {
  const findings: Finding[] = [];
  const byDomain = new Map<string, Candidates>();
  for (const a of rules) {
    let group = byDomain.get(a.domain);
    if (!group) {
      group = new Candidates();
      byDomain.set(a.domain, group);
    }
    group.add(a);
  }
  const reported = new Set<string>();
  const unproved: Unproved[] = [];
  for (const a of rules) {
    if (!a.subject) continue;
    const stricter: AnalysedRule[] = [];
    for (const domain of coveringDomains(a.domain)) {
      for (const b of byDomain.get(domain)?.for(a) ?? []) {
        if (RANK[b.rule.behavior] <= RANK[a.rule.behavior]) continue;
        // A shipped ask the allow overrides does not decide first: the allow does (policy/tiers.ts).
        if (overridesShipped(a.rule, b.rule, options.home)) continue;
        const shared = overlaps(a, b);
        if (shared === undefined) unproved.push({ rule: a, check: 'overlap', against: [b] });
        if (shared) stricter.push(b);
      }
    }
    const dead = stricter.length > 0 ? deadFinding(a, stricter, options, unproved) : undefined;
    if (dead) {
      findings.push(dead);
      continue;
    }
    // Overlaps with the shipped rules are their purpose; only overlaps between reviewed rules are reported.
    const reviewed = stricter.filter((b) => b.subject);
    if (a.rule.behavior === 'allow' && reviewed.length > 0)
      findings.push(overlapFinding(a, reviewed, options));
    for (const b of byDomain.get(a.domain)?.for(a) ?? []) {
      if (b === a || b.rule.behavior !== a.rule.behavior || sameText(a, b)) continue;
      const shared = overlaps(a, b);
      if (shared === undefined) unproved.push({ rule: a, check: 'overlap', against: [b] });
      if (!shared) continue;
      const finding = sameDecisionFinding(a, b, options, reported, unproved);
      if (finding) findings.push(finding);
    }
  }
  findings.push(...unprovedFindings(unproved, options));
  return findings;
}

/** One note per rule and check that stopped at the bound: which rules, what bound, what stays unproved. */
function unprovedFindings(unproved: readonly Unproved[], options: OverlapOptions): Finding[] {
  const grouped = new Map<string, Unproved>();
  for (const u of unproved) {
    const key = `${order(u.rule)}\0${u.check}`;
    const seen = grouped.get(key);
    if (seen) seen.against.push(...u.against.filter((b) => !seen.against.includes(b)));
    else grouped.set(key, { ...u, against: [...u.against] });
  }
  return [...grouped.values()].map(({ rule: a, check, against }) => {
    const names = against.slice(0, MAX_RELATED).map(describe).join(', ');
    const more = against.length > MAX_RELATED ? ` and ${against.length - MAX_RELATED} more` : '';
    const bound = `${AUTOMATON_BOUND.toLocaleString('en-US')} automaton states`;
    const rule = `${a.rule.behavior} rule ${displayName(a.rule)}`;
    const what =
      check === 'dead-rule'
        ? `whether ${rule} ever fires stays unproved: deciding whether the ${against.length === 1 ? 'stricter rule' : `${against.length} stricter rules`} that match its subjects (${names}${more}) cover it ${against.length === 1 ? '' : 'together '}needs more than ${bound}, so it is not reported as dead`
        : check === 'redundant-rule'
          ? `whether ${rule} is redundant stays unproved: deciding whether ${names}${more} ${against.length === 1 ? 'covers' : 'each cover'} it needs more than ${bound}, so it is not reported as redundant`
          : `whether ${rule} shares a subject with ${names}${more} stays unproved: deciding it needs more than ${bound}, so no overlap, dead or redundant rule is reported between them`;
    return {
      code: 'unproved',
      severity: 'note',
      message: what,
      location: ruleLocation(a.rule, options.documents),
      related: against
        .slice(0, MAX_RELATED)
        .map((b) => related(b.rule, options.documents, 'checked against it; the check stopped at its bound')),
      fix: 'nothing needs to change; to have it decided, make the rules it is checked against fewer or simpler',
      data: {
        check,
        bound: { automatonStates: AUTOMATON_BOUND },
        rules: against.map((b) => displayName(b.rule)),
        unproved:
          check === 'dead-rule'
            ? 'the rule never fires'
            : check === 'redundant-rule'
              ? 'the rule is redundant'
              : 'the rules share a subject',
      },
    } satisfies Finding;
  });
}

/** Rules of one domain, found by the first word of what they match. */
class Candidates {
  private readonly byWord = new Map<string, AnalysedRule[]>();
  private readonly open: AnalysedRule[] = [];
  private readonly all: AnalysedRule[] = [];

  add(a: AnalysedRule): void {
    this.all.push(a);
    if (!a.wordComplete) {
      this.open.push(a);
      return;
    }
    const word = firstWord(a.prefix);
    const list = this.byWord.get(word);
    if (list) list.push(a);
    else this.byWord.set(word, [a]);
  }

  /** The rules whose subjects can share a first word with `a`'s. */
  for(a: AnalysedRule): AnalysedRule[] {
    const candidates = a.wordComplete
      ? [...(this.byWord.get(firstWord(a.prefix)) ?? []), ...this.open]
      : this.all;
    return candidates.filter((b) => compatiblePrefixes(a, b));
  }
}

/**
 * Whether two rules match a common subject. With an approximate automaton the answer stands only when a
 * witness the real matchers agree on is found.
 */
function overlaps(a: AnalysedRule, b: AnalysedRule): boolean | undefined {
  if (!a.language || !b.language) return isWhole(b) || isWhole(a);
  const shared = intersects(a.language, b.language);
  if (shared !== true) return shared;
  if (exact(a.language) && exact(b.language)) return true;
  return witness(a.language, b.language) !== undefined;
}

function isWhole(a: AnalysedRule): boolean {
  return a.rule.type === 'permission' && a.rule.parsed.kind === 'tool';
}

function sameText(a: AnalysedRule, b: AnalysedRule): boolean {
  return a.rule.text === b.rule.text && a.rule.type === b.rule.type;
}

function exact(language: Language | undefined): language is Language {
  return language !== undefined && language.approximation === undefined;
}

function verb(a: AnalysedRule): string {
  return a.rule.behavior === 'deny' ? 'denied' : a.rule.behavior === 'ask' ? 'asked' : 'allowed';
}

function describe(a: AnalysedRule): string {
  const shipped = a.rule.provenance.source === 'defaults' ? ' (shipped)' : '';
  return `${displayName(a.rule)}${shipped}`;
}

/** A real example both rules match, else a generated one. */
function sharedWitness(a: AnalysedRule, b: AnalysedRule, options: OverlapOptions): string | undefined {
  if (!a.language || !b.language) return undefined;
  const examples = options.examples?.get(a.kind) ?? [];
  let best: string | undefined;
  for (const e of examples) {
    if (a.language.test(e) && b.language.test(e) && (best === undefined || e.length < best.length)) best = e;
  }
  return best ?? witness(a.language, b.language);
}

function ownWitness(a: AnalysedRule, options: OverlapOptions): string | undefined {
  if (!a.language) return undefined;
  const examples = options.examples?.get(a.kind) ?? [];
  const real = examples.filter((e) => a.language!.test(e)).sort((x, y) => x.length - y.length)[0];
  return real ?? witness(a.language);
}

function anyCall(a: AnalysedRule): Witness {
  const tool = a.rule.type === 'permission' && 'tool' in a.rule.parsed ? a.rule.parsed.tool : a.domain;
  return { kind: 'tool', value: `any call to ${tool}` };
}

function deadFinding(
  a: AnalysedRule,
  stricter: readonly AnalysedRule[],
  options: OverlapOptions,
  unproved: Unproved[],
): Finding | undefined {
  const whole = stricter.find(isWhole);
  let covers: AnalysedRule[];
  if (whole) covers = [whole];
  else {
    // Coverage is claimed on exact automata only; an approximate rule simply does not help cover.
    const usable = stricter.filter((b) => exact(b.language));
    if (!exact(a.language) || usable.length === 0) return undefined;
    const language = a.language;
    const probes = sample(language, 4);
    if (probes.some((s) => !usable.some((b) => b.language!.test(s)))) return undefined;
    // One rule that covers it alone is the common case and a small check; the union of many rules (the shipped
    // secret rules among them) can be past what the automata check decides.
    const alone = usable.find((b) => coveredBy(language, [b.language!]) === true);
    if (alone) covers = [alone];
    else {
      const together = coveredBy(
        language,
        usable.map((b) => b.language!),
      );
      if (together === undefined) unproved.push({ rule: a, check: 'dead-rule', against: usable });
      if (together !== true) return undefined;
      covers = minimalCover(a, usable);
    }
  }
  const example = a.language ? ownWitness(a, options) : undefined;
  const decider =
    example === undefined ? covers[0]! : (covers.find((b) => b.language?.test(example)) ?? covers[0]!);
  const witness: Witness =
    example === undefined
      ? anyCall(a)
      : { kind: a.kind, value: example, explanation: `${verb(decider)} first by ${describe(decider)}` };
  const names = covers.map(describe).join(', ');
  // Claude Code does not have automode's shipped rules: there the rule still fires, so it must stay.
  const onlyShipped = covers.every((b) => b.rule.provenance.source === 'defaults');
  const finding: Finding = {
    code: 'dead-rule',
    severity: onlyShipped ? 'note' : 'warning',
    message: `${a.rule.behavior} rule ${displayName(a.rule)} never fires${onlyShipped ? ' under automode' : ''}: everything it matches is ${covers.length === 1 ? `${verb(covers[0]!)} by ${names}` : `decided first by ${names}`}${onlyShipped ? "; Claude Code, which does not have automode's shipped rules, still applies it" : ''}`,
    location: ruleLocation(a.rule, options.documents),
    related: covers
      .slice(0, MAX_RELATED)
      .map((b) => related(b.rule, options.documents, `${verb(b)} first here`)),
    witness,
    fix: onlyShipped
      ? 'keep it for Claude Code; under automode the shipped rule decides first (list it in automode.disableShippedRules to let your rule apply)'
      : 'remove the rule, or narrow the rules that decide first',
  };
  if (covers.some((b) => b.robust)) finding.partial = ROBUST_NOTE;
  return finding;
}

/** The fewest of the covering rules that still cover the rule, found greedily (one rule is the usual case). */
function minimalCover(a: AnalysedRule, stricter: readonly AnalysedRule[]): AnalysedRule[] {
  const single = stricter.find((b) => coveredBy(a.language!, [b.language!]) === true);
  if (single) return [single];
  const kept = [...stricter];
  for (let i = kept.length - 1; i >= 0 && kept.length > 1; i--) {
    const without = kept.filter((_, j) => j !== i);
    if (
      coveredBy(
        a.language!,
        without.map((b) => b.language!),
      ) === true
    )
      kept.splice(i, 1);
  }
  return kept;
}

function overlapFinding(
  a: AnalysedRule,
  stricter: readonly AnalysedRule[],
  options: OverlapOptions,
): Finding {
  const ordered = [...stricter].sort((x, y) => RANK[y.rule.behavior] - RANK[x.rule.behavior]);
  const relatedLocations: RelatedLocation[] = [];
  let first: { b: AnalysedRule; example: string } | undefined;
  for (const b of ordered.slice(0, MAX_RELATED)) {
    const example = sharedWitness(a, b, options);
    if (example !== undefined && !first) first = { b, example };
    const shown = example === undefined ? '' : `: ${JSON.stringify(example)}`;
    relatedLocations.push(related(b.rule, options.documents, `${verb(b)} here${shown}`));
  }
  const more = stricter.length > MAX_RELATED ? ` (and ${stricter.length - MAX_RELATED} more)` : '';
  const lead = first ?? { b: ordered[0]!, example: undefined };
  const eg = first
    ? `, e.g. ${JSON.stringify(first.example)} is ${verb(first.b)} by ${describe(first.b)}`
    : '';
  const finding: Finding = {
    code: 'allow-deny-overlap',
    severity: 'note',
    message: `allow rule ${displayName(a.rule)} overlaps ${stricter.length === 1 ? 'a stricter rule, which wins' : `${stricter.length} stricter rules${more}, which win`}${eg}`,
    location: ruleLocation(a.rule, options.documents),
    related: relatedLocations,
    fix: 'nothing, if the stricter rules are intended carve-outs; otherwise narrow the allow rule',
  };
  if (first) {
    finding.witness = {
      kind: a.kind,
      value: first.example,
      explanation: `allowed by ${displayName(a.rule)}, ${verb(first.b)} by ${describe(first.b)}`,
    };
  }
  if (lead.b.robust) finding.partial = ROBUST_NOTE;
  return finding;
}

function sameDecisionFinding(
  a: AnalysedRule,
  b: AnalysedRule,
  options: OverlapOptions,
  reported: Set<string>,
  unproved: Unproved[],
): Finding | undefined {
  const whole = isWhole(b) && !isWhole(a);
  if (!whole && (!exact(a.language) || !exact(b.language))) return undefined;
  const covered = whole || coveredBy(a.language!, [b.language!]);
  // A subject of the rule the other does not match proves it is not redundant, bound or not.
  if (covered === undefined && sample(a.language!, 4).every((s) => b.language!.test(s)))
    unproved.push({ rule: a, check: 'redundant-rule', against: [b] });
  const aInB = covered === true;
  if (!aInB) return undefined;
  const bInA = !whole && coveredBy(b.language!, [a.language!]) === true;
  const location = ruleLocation(a.rule, options.documents);
  const example = a.language ? ownWitness(a, options) : undefined;
  const witness: Witness | undefined =
    example === undefined
      ? a.language
        ? undefined
        : anyCall(a)
      : { kind: a.kind, value: example, explanation: `matched by both rules` };
  if (bInA) {
    // Report a pair once: on the later rule under review, or on the reviewed one when the other is shipped.
    if (b.subject && order(b) > order(a)) return undefined;
    const key = [order(a), order(b)].sort().join('|');
    if (reported.has(key)) return undefined;
    reported.add(key);
    return {
      code: 'equivalent-rules',
      severity: 'warning',
      message: `${a.rule.behavior} rules ${displayName(a.rule)} and ${describe(b)} match exactly the same ${a.kind === 'command' ? 'commands' : `${a.kind}s`}`,
      location,
      related: [related(b.rule, options.documents, 'the equivalent rule')],
      ...(witness ? { witness } : {}),
      fix: 'keep one of them',
      ...(a.robust || b.robust ? { partial: ROBUST_NOTE } : {}),
    };
  }
  return {
    code: 'redundant-rule',
    severity: 'warning',
    message: `${a.rule.behavior} rule ${displayName(a.rule)} is redundant: ${describe(b)} already ${a.rule.behavior === 'allow' ? 'allows' : a.rule.behavior === 'ask' ? 'asks for' : 'denies'} everything it matches`,
    location,
    related: [related(b.rule, options.documents, 'the broader rule')],
    ...(witness ? { witness } : {}),
    fix: 'remove the narrower rule',
    ...(a.robust || b.robust ? { partial: ROBUST_NOTE } : {}),
  };
}

const orders = new WeakMap<AnalysedRule, string>();

function order(a: AnalysedRule): string {
  let key = orders.get(a);
  if (key === undefined) {
    const p = a.rule.provenance;
    key = `${p.file ?? p.source}\0${String(p.line ?? 0).padStart(8, '0')}\0${String(p.column ?? 0).padStart(6, '0')}\0${p.pointer}`;
    orders.set(a, key);
  }
  return key;
}
