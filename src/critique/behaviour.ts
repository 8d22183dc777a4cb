import type { LocatedDocument } from '../rules/index.js';
import type { CorpusEntry } from './corpus.js';
import { type CorpusVerdicts, type Decided, refLocation } from './dangerous.js';
import type { EverydayOutcome, Finding, Location, RelatedLocation } from './types.js';

const EXAMPLES = 5;

interface Outcome {
  entry: CorpusEntry;
  verdict: Decided;
}

/**
 * Classifies the shipped labelled corpus under the configuration (default mode): what is dangerous yet allowed
 * is a finding (an error when a rule under review allows it; a warning when only automode's own defaults do);
 * what is benign yet asked is an observation about the whole configuration, for the summary.
 */
export async function behaviourFindings(
  corpus: { dangerous: readonly CorpusEntry[]; benign: readonly CorpusEntry[] },
  verdicts: CorpusVerdicts,
  fallback: Location | undefined,
  documents: ReadonlyMap<string, LocatedDocument>,
): Promise<{ findings: Finding[]; everyday: EverydayOutcome }> {
  const findings: Finding[] = [];
  const dangerous: Outcome[] = [];
  for (const entry of corpus.dangerous) dangerous.push({ entry, verdict: await verdicts.of(entry.command) });
  const benign: Outcome[] = [];
  for (const entry of corpus.benign) benign.push({ entry, verdict: await verdicts.of(entry.command) });

  const allowed = dangerous.filter((o) => o.verdict.decision === 'allow');
  if (allowed.length > 0) {
    const reviewed = allowed.filter((o) => o.verdict.rule && o.verdict.rule.source !== 'defaults');
    const lead = reviewed[0] ?? allowed[0]!;
    const related = deciders(allowed, 'allows', documents);
    const location = lead.verdict.rule ? refLocation(lead.verdict.rule, '', documents) : fallback;
    const finding: Finding = {
      code: 'corpus-dangerous-allowed',
      severity: reviewed.length > 0 ? 'error' : 'warning',
      message: `${allowed.length} of ${dangerous.length} dangerous commands are allowed without asking: ${examples(allowed)}`,
      location: location ? strip(location) : { source: 'defaults' },
      related: related.slice(lead.verdict.rule ? 1 : 0),
      witness: {
        kind: 'command',
        value: lead.entry.command,
        explanation: `${lead.entry.category}; ${lead.verdict.reason}`,
      },
      fix: 'add deny or ask rules for these commands, or narrow the allow rules that admit them',
      data: summary(dangerous, allowed),
    };
    findings.push(finding);
  }

  const asked = benign.filter((o) => o.verdict.decision !== 'allow');
  const { count, ...rest } = summary(benign, asked);
  return { findings, everyday: { asked: count, ...rest } };
}

function examples(list: readonly Outcome[]): string {
  const shown = list
    .slice(0, EXAMPLES)
    .map((o) => `${JSON.stringify(o.entry.command)} (${o.entry.category}: ${o.verdict.reason})`)
    .join(', ');
  return list.length > EXAMPLES ? `${shown}, and ${list.length - EXAMPLES} more` : shown;
}

function deciders(
  list: readonly Outcome[],
  verb: string,
  documents: ReadonlyMap<string, LocatedDocument>,
): RelatedLocation[] {
  const out = new Map<string, RelatedLocation>();
  for (const { entry, verdict } of list) {
    const ref = verdict.rule;
    if (!ref) continue;
    const key = `${ref.file ?? ref.source}#${ref.pointer ?? ref.text}`;
    if (!out.has(key)) out.set(key, refLocation(ref, `${verb} ${JSON.stringify(entry.command)}`, documents));
  }
  return [...out.values()].slice(0, EXAMPLES);
}

function summary(all: readonly Outcome[], hits: readonly Outcome[]) {
  const byCategory: Record<string, number> = {};
  for (const o of hits) byCategory[o.entry.category] = (byCategory[o.entry.category] ?? 0) + 1;
  return {
    total: all.length,
    count: hits.length,
    byCategory,
    commands: hits.map((o) => ({
      command: o.entry.command,
      category: o.entry.category,
      decision: o.verdict.decision,
      reason: o.verdict.reason,
      ...(o.verdict.rule ? { rule: o.verdict.rule.text } : {}),
    })),
  };
}

function strip(location: Location & { message?: string }): Location {
  const { message: _message, ...rest } = location;
  return rest;
}
