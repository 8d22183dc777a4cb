import type { LocatedDocument } from '../rules/index.js';
import { matchBashPattern } from '../rules/index.js';
import { differenceWitness, isEmpty, regexLanguage, witness } from './automata.js';
import { ruleLocation } from './locations.js';
import type { AnalysedRule } from './model.js';
import { type Proposal, propose } from './replacement.js';
import type { Finding, Witness } from './types.js';

const WORD = '[A-Za-z0-9_]';
const DANGER_PREFIX = 'rm -rf ~ ';

/** Program names to show what a wildcard glued to a word also matches (`rm*` → `rmdir`). */
const PROGRAMS = [
  'rmdir',
  'lsof',
  'lsblk',
  'gitk',
  'git-shell',
  'npx',
  'npm-check',
  'catdoc',
  'chmod',
  'chown',
  'curlie',
  'python3',
  'nodemon',
  'sudoedit',
  'dockerd',
  'kubectl-admin',
];

/**
 * Regex findings for the rules under review: patterns that match nothing, analyses that are only partial,
 * patterns that match inside longer words or, for allow rules, inside longer commands, and Bash wildcards
 * glued to a word.
 */
export function regexFindings(
  rules: readonly AnalysedRule[],
  documents: ReadonlyMap<string, LocatedDocument>,
): Finding[] {
  const findings: Finding[] = [];
  for (const a of rules) {
    if (!a.subject) continue;
    const rule = a.rule;
    const location = ruleLocation(rule, documents);
    if (rule.type === 'pattern') {
      if (a.error) {
        findings.push({
          code: 'partial-analysis',
          severity: 'note',
          message: `/${rule.text}/ cannot be analysed as an automaton (${a.error}): overlaps with it are not checked`,
          location,
          related: [],
          partial: a.error,
        });
        continue;
      }
      const language = a.language!;
      if (language.approximation) {
        findings.push({
          code: 'partial-analysis',
          severity: 'note',
          message: `/${rule.text}/ uses ${language.approximation}: the overlap analysis of this rule is approximate (witnesses are checked with the real regex; coverage is not claimed)`,
          location,
          related: [],
          partial: language.approximation,
        });
      } else if (isEmpty(language)) {
        findings.push({
          code: 'never-matches',
          severity: 'warning',
          message: `/${rule.text}/ matches no ${a.kind} at all: the rule never fires`,
          location,
          related: [],
          fix: 'fix the regex, or remove the rule',
        });
        continue;
      }
      const unanchored = unanchoredFinding(a);
      if (unanchored) findings.push(located(unanchored, location));
      continue;
    }
    if (rule.parsed.kind === 'bash') {
      const glued = gluedWildcard(a);
      if (glued) findings.push(located(glued, location));
    }
  }
  return findings;
}

type Unlocated = Omit<Finding, 'location'> & { proposal?: Proposal };

function located({ proposal, ...unlocated }: Unlocated, location: Finding['location']): Finding {
  const finding = { ...unlocated, location };
  if (proposal) propose(finding, proposal);
  return finding;
}

function unanchoredFinding(a: AnalysedRule): Unlocated | undefined {
  const rule = a.rule;
  if (rule.type !== 'pattern') return undefined;
  const source = rule.text;
  const inside = insideWordWitness(source);
  const words = [`^${stripAnchors(source)}( |$)`, `(^| )${stripAnchors(source)}( |$)`];
  const fix =
    rule.field === 'command'
      ? `anchor it to whole words, e.g. ${words.map((w) => `/${w}/`).join(' or ')}`
      : 'anchor it, e.g. with ^ and $, or with (^|[^\\w-]) and ([^\\w-]|$)';
  const wordsProposal: Proposal = {
    rule,
    options: words.map((w) => [w]),
    render: (kept) => `anchor it to whole words, e.g. ${kept.map(([w]) => `/${w}/`).join(' or ')}`,
  };
  if (inside) {
    const where = inside.start ? 'starts' : 'ends';
    return {
      code: 'unanchored-pattern',
      severity: inside.start || rule.behavior === 'allow' ? 'warning' : 'note',
      message: `/${source}/ also matches inside longer words: ${JSON.stringify(inside.value)}`,
      related: [],
      witness: { kind: a.kind, value: inside.value, explanation: `the match ${where} inside a word` },
      fix,
      ...(rule.field === 'command' ? { proposal: wordsProposal } : {}),
    };
  }
  if (rule.behavior !== 'allow' || rule.field === 'path') return undefined;
  const embedded = embeddedWitness(source, rule.field);
  if (!embedded) return undefined;
  const what = rule.field === 'command' ? 'commands that merely contain it' : 'inputs that merely contain it';
  return {
    code: 'unanchored-pattern',
    severity: 'warning',
    message: `allow /${source}/ is not anchored, so it allows ${what}: ${JSON.stringify(embedded.value)}`,
    related: [],
    witness: embedded,
    fix: rule.field === 'command' ? `anchor it: /^${stripAnchors(source)}$/` : 'anchor it with ^ and $',
  };
}

function stripAnchors(source: string): string {
  return source.replace(/^\^/, '').replace(/\$$/, '');
}

/**
 * A subject where the regex matches only inside a longer word: its match starts right after a word character
 * (and no match starts at a word start), or ends right before one (and no match ends at a word end). A
 * regex that can stretch to the end of the word (`\w+`) is not reported.
 */
export function insideWordWitness(source: string): { value: string; start: boolean } | undefined {
  const checks: [string, string, boolean][] = [
    [`${WORD}(?=${WORD})(?:${source})`, `(?<!${WORD})(?:${source})`, true],
    [`(?:${source})(?<=${WORD})${WORD}`, `(?:${source})(?!${WORD})`, false],
  ];
  for (const [inside, clean, start] of checks) {
    const a = regexLanguage(inside);
    const b = regexLanguage(clean);
    if ('error' in a || 'error' in b) continue;
    const found = differenceWitness(a.language, b.language);
    if (found !== undefined) return { value: found, start };
  }
  return undefined;
}

/** For allow rules: a subject with other text before the match (or, for JSON inputs, after it). */
function embeddedWitness(source: string, field: 'command' | 'input'): Witness | undefined {
  const before = regexLanguage(`[\\s\\S](?:${source})`);
  if (!('error' in before) && !isEmpty(before.language)) {
    const real = new RegExp(source);
    const own = regexLanguage(source);
    const match = 'error' in own ? undefined : witness(own.language);
    const candidate = match === undefined ? undefined : `${DANGER_PREFIX}${match}`;
    const value =
      candidate !== undefined && real.test(candidate) && field === 'command'
        ? candidate
        : witness(before.language);
    if (value !== undefined) {
      return { kind: field === 'command' ? 'command' : 'input', value, explanation: 'text before the match' };
    }
  }
  if (field !== 'input') return undefined;
  const after = regexLanguage(`(?:${source})[\\s\\S]`);
  if ('error' in after || isEmpty(after.language)) return undefined;
  const value = witness(after.language);
  return value === undefined ? undefined : { kind: 'input', value, explanation: 'text after the match' };
}

function gluedWildcard(a: AnalysedRule): Unlocated | undefined {
  const rule = a.rule;
  if (rule.type !== 'permission' || rule.parsed.kind !== 'bash') return undefined;
  const pattern = rule.parsed.pattern;
  const glued = /(^|\s)([^\s*]*[A-Za-z0-9_])\*/.exec(pattern.source);
  if (!glued) return undefined;
  const stem = glued[2]!;
  // An option with a glued star has a finding of its own (glued-option-star).
  if (stem.startsWith('-')) return undefined;
  const before = pattern.source.slice(0, glued.index + glued[1]!.length);
  const longer = [...PROGRAMS.filter((p) => p.startsWith(stem) && p !== stem), `${stem}x`]
    .map((word) => `${before}${word}`)
    .find((candidate) => matchBashPattern(pattern, candidate));
  if (longer === undefined) return undefined;
  const fixed = pattern.source.replace(`${stem}*`, `${stem} *`);
  return {
    code: 'wildcard-inside-word',
    severity: rule.behavior === 'allow' ? 'warning' : 'note',
    message: `${rule.text}: the "*" is glued to "${stem}", so the rule also matches ${JSON.stringify(longer)}`,
    related: [],
    witness: { kind: 'command', value: longer },
    fix: `write Bash(${fixed}) to stop at the word`,
    proposal: {
      rule,
      options: [[`Bash(${fixed})`]],
      render: ([kept]) => `write ${kept![0]} to stop at the word`,
    },
  };
}
