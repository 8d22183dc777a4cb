import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import type { Analysis } from '../../../src/bash/types.js';
import { generateLines, shuffle } from './generate.js';
import { checkLine, type Disagreement, type LineVerdict, renderCommand } from './match.js';
import { type LineRun, Sandbox, type SandboxOptions } from './sandbox.js';

export const ROOT = join(import.meta.dirname, '../../..');
export const GENERATED_SEED = 0x5eed12;

export interface OracleOptions extends SandboxOptions {
  nl2bash?: boolean;
  generated?: number;
  seed?: number;
  /** Run only this many lines of each set, chosen with this seed (the sets stay those of a full run). */
  sample?: { seed: number; nl2bash: number; generated: number };
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
  /** The lines that took longest in bash, slowest first. */
  slowest: { line: string; ms: number }[];
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
    const list = JSON.parse(
      readFileSync(join(ROOT, 'fixtures/bash/oracle-explained.json'), 'utf8'),
    ) as Explained[];
    return new Map(list.map((e) => [e.line, e.reason]));
  } catch {
    return new Map();
  }
}

export async function runOracle(options: OracleOptions = {}): Promise<OracleResult> {
  const started = Date.now();
  await loadBash();
  const sets: { set: LineReport['set']; lines: string[] }[] = [];
  const sample = options.sample;
  const some = (lines: string[], count: number | undefined) =>
    sample && count !== undefined ? shuffle(lines, sample.seed).slice(0, count) : lines;
  if (options.nl2bash !== false) sets.push({ set: 'nl2bash', lines: some(nl2bashLines(), sample?.nl2bash) });
  if (options.generated) {
    const generated = generateLines(options.generated, options.seed ?? GENERATED_SEED);
    sets.push({ set: 'generated', lines: some(generated, sample?.generated) });
  }
  if (options.extra?.length) sets.push({ set: 'extra', lines: options.extra });
  const all: { set: LineReport['set']; index: number; line: string }[] = [];
  for (const s of sets) {
    s.lines.forEach((line, index) => {
      all.push({ set: s.set, index, line });
    });
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
    slowest: [],
  };
  const check = (i: number, run: LineRun) => {
    const item = all[i]!;
    result.lines[item.set]++;
    if (run.ms > 200) result.slowest.push({ line: item.line, ms: Math.round(run.ms) });
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
    const verdict: LineVerdict = checkLine(analysis, run, item.line);
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
  };
  const sandbox = new Sandbox();
  try {
    await sandbox.run(
      all.map((l) => l.line),
      options,
      check,
    );
  } finally {
    sandbox.dispose();
  }
  const order = (a: LineReport, b: LineReport) =>
    a.set === b.set ? a.index - b.index : a.set < b.set ? 1 : -1;
  result.failures.sort(order);
  result.slowest.sort((a, b) => b.ms - a.ms);
  result.slowest.splice(20);
  result.explained.sort(order);
  result.ms = Date.now() - started;
  return result;
}

function clip(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** A readable report of the disagreeing lines. */
export function formatFailures(failures: LineReport[], limit = 200): string {
  const out: string[] = [];
  for (const f of failures.slice(0, limit)) {
    out.push(`[${f.set} #${f.index}${f.aborted ? ', aborted' : ''}] ${clip(JSON.stringify(f.line), 400)}`);
    for (const d of f.disagreements.slice(0, 5)) {
      const ran = d.ran.slice(0, 12).map((w) => clip(w, 80));
      if (d.ran.length > 12) ran.push(`… ${d.ran.length - 12} more`);
      out.push(`  bash ran (${d.source}${d.path ? ` ${d.path}` : ''}): ${JSON.stringify(ran)}`);
    }
    out.push(`  analysis: ${clip(f.analysis.join(' ; ') || '(no command)', 600)}`);
  }
  if (failures.length > limit) out.push(`... and ${failures.length - limit} more`);
  return out.join('\n');
}
