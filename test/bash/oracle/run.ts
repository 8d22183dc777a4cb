import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import type { Analysis } from '../../../src/bash/types.js';
import { generateLines } from './generate.js';
import { checkLine, type Disagreement, type LineVerdict, renderCommand } from './match.js';
import { Sandbox, type SandboxOptions } from './sandbox.js';

export const ROOT = join(import.meta.dirname, '../../..');
export const GENERATED_SEED = 0x5eed12;

export interface OracleOptions extends SandboxOptions {
  nl2bash?: boolean;
  generated?: number;
  seed?: number;
  /** Extra lines (checked like the others, reported under `extra`). */
  extra?: string[];
}

export interface LineReport {
  set: 'nl2bash' | 'generated' | 'extra';
  index: number;
  line: string;
  disagreements: Disagreement[];
  /** The analysed commands, rendered. */
  analysis: string[];
  aborted: boolean;
}

export interface OracleResult {
  lines: Record<LineReport['set'], number>;
  opaque: number;
  hiddenCode: number;
  aborted: number;
  records: number;
  stubCalls: number;
  failures: LineReport[];
  explained: (LineReport & { reason: string })[];
  ms: number;
}

export interface Explained {
  line: string;
  reason: string;
}

export function nl2bashLines(): string[] {
  return readFileSync(join(ROOT, 'fixtures/nl2bash/commands.txt'), 'utf8').split('\n').filter(Boolean);
}

export function loadExplained(): Map<string, string> {
  try {
    const list = JSON.parse(readFileSync(join(ROOT, 'fixtures/bash/oracle-explained.json'), 'utf8')) as Explained[];
    return new Map(list.map((e) => [e.line, e.reason]));
  } catch {
    return new Map();
  }
}

export async function runOracle(options: OracleOptions = {}): Promise<OracleResult> {
  const started = Date.now();
  await loadBash();
  const sets: { set: LineReport['set']; lines: string[] }[] = [];
  if (options.nl2bash !== false) sets.push({ set: 'nl2bash', lines: nl2bashLines() });
  if (options.generated) {
    sets.push({ set: 'generated', lines: generateLines(options.generated, options.seed ?? GENERATED_SEED) });
  }
  if (options.extra?.length) sets.push({ set: 'extra', lines: options.extra });
  const all: { set: LineReport['set']; index: number; line: string }[] = [];
  for (const s of sets) s.lines.forEach((line, index) => all.push({ set: s.set, index, line }));
  const sandbox = new Sandbox();
  let runs: Awaited<ReturnType<Sandbox['run']>>;
  try {
    runs = await sandbox.run(
      all.map((l) => l.line),
      options,
    );
  } finally {
    sandbox.dispose();
  }
  const explained = loadExplained();
  const result: OracleResult = {
    lines: { nl2bash: 0, generated: 0, extra: 0 },
    opaque: 0,
    hiddenCode: 0,
    aborted: 0,
    records: 0,
    stubCalls: 0,
    failures: [],
    explained: [],
    ms: 0,
  };
  all.forEach((item, i) => {
    result.lines[item.set]++;
    const run = runs[i]!;
    let analysis: Analysis;
    try {
      analysis = analyze(item.line);
    } catch (e) {
      result.failures.push({
        ...item,
        disagreements: [{ source: 'trace', ran: [`analyze threw: ${(e as Error).message}`] }],
        analysis: [],
        aborted: run.aborted,
      });
      return;
    }
    const verdict: LineVerdict = checkLine(analysis, run);
    result.records += verdict.records;
    result.stubCalls += verdict.stubCalls;
    if (verdict.opaque) result.opaque++;
    if (verdict.hiddenCode) result.hiddenCode++;
    if (run.aborted) result.aborted++;
    if (verdict.disagreements.length === 0) return;
    const report: LineReport = {
      ...item,
      disagreements: verdict.disagreements,
      analysis: analysis.commands.map(renderCommand),
      aborted: run.aborted,
    };
    const reason = explained.get(item.line);
    if (reason) result.explained.push({ ...report, reason });
    else result.failures.push(report);
  });
  result.ms = Date.now() - started;
  return result;
}

/** A readable report of the disagreeing lines. */
export function formatFailures(failures: LineReport[], limit = 200): string {
  const out: string[] = [];
  for (const f of failures.slice(0, limit)) {
    out.push(`[${f.set} #${f.index}${f.aborted ? ', aborted' : ''}] ${JSON.stringify(f.line)}`);
    for (const d of f.disagreements) {
      out.push(`  bash ran (${d.source}${d.path ? ` ${d.path}` : ''}): ${JSON.stringify(d.ran)}`);
    }
    out.push(`  analysis: ${f.analysis.join(' ; ') || '(no command)'}`);
  }
  if (failures.length > limit) out.push(`... and ${failures.length - limit} more`);
  return out.join('\n');
}
