import type { Provenance, SourceName } from '../rules/index.js';
import {
  BUILTIN_FILES,
  DEFAULTS_MARKER,
  type LocatedDocument,
  PROSE_SECTIONS,
  type ProseDefaults,
  type ProseSection,
  proseLabel,
  type RawProse,
  readDocument,
} from '../rules/index.js';
import { fromProvenance } from './locations.js';
import type { Finding, Location } from './types.js';

/** A prose entry with where it is written; built-in entries point into defaults/auto-mode.json. */
export interface PlacedEntry {
  section: ProseSection;
  text: string;
  label: string;
  builtIn: boolean;
  location: Location;
}

export interface ProseInput {
  prose: readonly { source: SourceName; file?: string; raw: RawProse }[];
  defaults: ProseDefaults;
}

const DENY_SECTIONS: readonly ProseSection[] = ['soft_deny', 'hard_deny'];

/**
 * Checks the auto-mode prose rules: empty, duplicate and unlabelled entries, sections that drop the built-in
 * rules, and allow entries that speak about the same action as a deny entry.
 */
export async function proseFindings(input: ProseInput): Promise<Finding[]> {
  const findings: Finding[] = [];
  const builtIns = await builtInEntries(input.defaults);
  const effective: Record<ProseSection, PlacedEntry[]> = {
    environment: [],
    allow: [],
    soft_deny: [],
    hard_deny: [],
  };
  for (const section of PROSE_SECTIONS) {
    const writers = input.prose.flatMap((p) => (p.raw[section] ? [p.raw[section]!] : []));
    const own: PlacedEntry[] = [];
    let spliced = false;
    for (const writer of writers) {
      for (const entry of writer.entries) {
        if (entry.text.trim() === DEFAULTS_MARKER) {
          if (!spliced) effective[section].push(...builtIns[section]);
          spliced = true;
          continue;
        }
        const placed = customEntry(section, entry.text, entry.provenance);
        own.push(placed);
        effective[section].push(placed);
      }
    }
    if (writers.length === 0) effective[section].push(...builtIns[section]);
    else if (!spliced && builtIns[section].length > 0) {
      findings.push(replacedFinding(section, builtIns[section], writers[0]!.provenance));
    }
    findings.push(...entryFindings(section, own, spliced ? builtIns[section] : []));
  }
  findings.push(...contradictions(effective));
  return findings;
}

function customEntry(section: ProseSection, text: string, provenance: Provenance): PlacedEntry {
  return {
    section,
    text,
    label: proseLabel(text),
    builtIn: false,
    location: fromProvenance(provenance, text),
  };
}

let located: LocatedDocument | undefined;

async function builtInEntries(defaults: ProseDefaults): Promise<Record<ProseSection, PlacedEntry[]>> {
  if (!located) {
    const outcome = await readDocument(BUILTIN_FILES.autoMode, 'json');
    if (outcome.status === 'ok') located = outcome.document;
  }
  const out = {} as Record<ProseSection, PlacedEntry[]>;
  for (const section of PROSE_SECTIONS) {
    out[section] = (defaults[section] ?? []).map((text, index) => {
      const position = located?.locate([section, index]);
      return {
        section,
        text,
        label: proseLabel(text),
        builtIn: true,
        location: {
          source: 'defaults',
          file: BUILTIN_FILES.autoMode,
          pointer: `/${section}/${index}`,
          ...(position ? { line: position.line, column: position.column } : {}),
          rule: text,
        },
      };
    });
  }
  return out;
}

function replacedFinding(section: ProseSection, dropped: readonly PlacedEntry[], at: Provenance): Finding {
  const labels = dropped.map((e) => e.label);
  const deny = DENY_SECTIONS.includes(section);
  return {
    code: 'defaults-replaced',
    severity: deny ? 'warning' : 'note',
    message: `autoMode.${section} has no "${DEFAULTS_MARKER}", so it drops the ${dropped.length} built-in ${section} rules: ${labels.join(', ')}`,
    location: fromProvenance(at),
    related: [],
    fix: `add "${DEFAULTS_MARKER}" to autoMode.${section} to keep the built-in rules`,
    data: { dropped: labels },
  };
}

function normal(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

function entryFindings(
  section: ProseSection,
  own: readonly PlacedEntry[],
  builtIns: readonly PlacedEntry[],
): Finding[] {
  const findings: Finding[] = [];
  const texts = new Map<string, PlacedEntry>();
  const labels = new Map<string, PlacedEntry>();
  for (const b of builtIns) {
    texts.set(normal(b.text), b);
    labels.set(normal(b.label), b);
  }
  for (const e of own) {
    if (!e.text.trim()) {
      findings.push({
        code: 'prose-empty',
        severity: 'warning',
        message: `empty entry in autoMode.${section}`,
        location: e.location,
        related: [],
        fix: 'remove it',
      });
      continue;
    }
    const sameText = texts.get(normal(e.text));
    const sameLabel = labels.get(normal(e.label));
    if (sameText || sameLabel) {
      const other = (sameText ?? sameLabel)!;
      const what = sameText ? 'repeats' : `uses the label "${e.label}" of`;
      const whose = other.builtIn ? 'a built-in entry' : 'an earlier entry';
      findings.push({
        code: 'prose-duplicate',
        severity: 'warning',
        message: `autoMode.${section} entry ${what} ${whose}: ${JSON.stringify(other.text)}`,
        location: e.location,
        related: [
          { ...other.location, message: other.builtIn ? 'the built-in entry' : 'first written here' },
        ],
        fix: sameText ? 'remove this copy' : 'give it a label of its own, or merge the two entries',
      });
    } else if (e.text.search(/[:[]/) <= 0) {
      findings.push({
        code: 'prose-unlabelled',
        severity: 'note',
        message: `autoMode.${section} entry has no label: write "Label: ${truncate(e.text.trim(), 40)}"`,
        location: e.location,
        related: [],
        fix: 'start the entry with a short label and a colon',
      });
    }
    if (!sameText) texts.set(normal(e.text), e);
    if (!sameLabel) labels.set(normal(e.label), e);
  }
  return findings;
}

function truncate(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n - 1)}…` : text;
}

const STOP = new Set(
  `a an and any anything are as at be by can could do does don't each e.g eg etc for from has have if in into
  is it its may must never no not of on only or other our own should so such than that the their them then there
  these this those to unless use using was we were what when where which while will with without you your
  allow allowed allows deny denied fine ok okay okay always agent user session rule rules action actions
  run running`.split(/\s+/),
);

/** Content words, lower-cased and lightly stemmed; hyphenated words also count as their parts. */
export function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of text.toLowerCase().match(/[a-z0-9][a-z0-9-]*[a-z0-9]|[a-z0-9]/g) ?? []) {
    const words = raw.includes('-') ? [raw, ...raw.split('-')] : [raw];
    for (const w of words) {
      if (w.length < 3 || STOP.has(w)) continue;
      out.add(stem(w));
    }
  }
  return out;
}

function stem(word: string): string {
  for (const suffix of ['ments', 'ment', 'ings', 'ing', 'ions', 'ion', 'ies', 'es', 'ed', 's']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' ? `${base}y` : base;
    }
  }
  return word;
}

/** Pairs of an allow entry and a deny entry (at least one of them custom) that share their main terms. */
function contradictions(effective: Record<ProseSection, PlacedEntry[]>): Finding[] {
  const findings: Finding[] = [];
  for (const allow of effective.allow) {
    const a = terms(allow.text);
    if (a.size === 0) continue;
    for (const section of DENY_SECTIONS) {
      for (const deny of effective[section]) {
        if (allow.builtIn && deny.builtIn) continue;
        const d = terms(deny.text);
        const shared = [...a].filter((t) => d.has(t));
        if (shared.length < 2 || shared.length / Math.min(a.size, d.size) < 0.5) continue;
        const custom = allow.builtIn ? deny : allow;
        const other = allow.builtIn ? allow : deny;
        const wins =
          section === 'hard_deny' ? 'the hard_deny entry always wins' : 'it may void the soft_deny';
        findings.push({
          code: 'prose-contradiction',
          severity: 'warning',
          message: `allow entry "${allow.label}" and ${section} entry "${deny.label}" speak about the same action (${shared.join(', ')}); ${wins}`,
          location: custom.location,
          related: [
            {
              ...other.location,
              message: other.builtIn ? 'the built-in entry' : `the ${other.section} entry`,
            },
          ],
          fix: 'say exactly which exception the allow entry makes, or remove one of them',
          partial: 'found by shared terms, not by meaning; the model review judges meaning',
        });
      }
    }
  }
  return findings;
}
