import { spawnSync } from 'node:child_process';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { allProgramSpecs } from '../../../src/bash/programs/registry.js';
import type { Analysis } from '../../../src/bash/types.js';
import { shuffle } from '../oracle/generate.js';
import { nl2bashLines } from '../oracle/run.js';
import { compare, type Disagreement, loadExplainedEffects, WorldIndex } from './check.js';
import { generateCommands, SAMPLES } from './generate.js';
import { observe } from './observe.js';
import { EffectSandbox, type EffectSandboxOptions, type ObservedRun } from './sandbox.js';
import { type CallVerdicts, checked, Verdicts } from './verdict.js';

/** The full run's generated lines, and the seed they are drawn with unless another is given. */
export const FULL_GENERATED = 50_000;
export const FULL_SEED = 0xeffec7;

export interface EffectOracleOptions extends EffectSandboxOptions {
  /** Lines generated from the program specs. */
  generated?: number;
  /** Check only a seeded sample of this many of the generated lines. */
  generatedSample?: number;
  /** NL2Bash lines: all (true), none (false) or a seeded sample of this many. */
  nl2bash?: boolean | number;
  samples?: boolean;
  extra?: string[];
  seed?: number;
  /**
   * The seed of the samples drawn from those lines (NL2Bash, generated, run), `seed` unless given: a sample drawn
   * from the full run's lines checks nothing the full run does not.
   */
  sampleSeed?: number;
  /** Run at most this many of the checked lines (a seeded sample; the samples and extra lines always run). */
  runLimit?: number;
}

type SetName = 'samples' | 'nl2bash' | 'generated' | 'extra';

interface Item {
  set: SetName;
  program: string;
  line: string;
}

export interface LineFailure extends Item {
  /** The settings under which it is allowed (`defaults`, `team`), or `read-only`. */
  allowedBy: string[];
  disagreements: Disagreement[];
  aborted: boolean;
}

export interface ProgramReport {
  program: string;
  /** Lines generated or taken for it. */
  lines: number;
  /** Lines allowed under either settings (or read-only): the ones checked. */
  allowed: number;
  /** Of those, the lines run in the sandbox. */
  run: number;
  /** Lines with a disagreement. */
  disagreeing: number;
}

export interface EffectOracleResult {
  seed: number;
  lines: Record<SetName, number>;
  run: number;
  aborted: number;
  /** Lines run that were seen to read a secret, change a file, run a program, try the network. */
  observed: { reads: number; writes: number; programs: number; network: number };
  programs: ProgramReport[];
  /** Spec'd programs not installed here (their lines still run, and fail to start). */
  missing: string[];
  failures: LineFailure[];
  ms: number;
}

/** Spec'd programs this machine has neither as a builtin nor on PATH. */
export function missingPrograms(): string[] {
  const names = allProgramSpecs().flatMap((s) => [s.name, ...(s.aliases ?? [])]);
  const r = spawnSync(
    'bash',
    ['-c', 'for n in "$@"; do type -t "$n" >/dev/null || echo "$n"; done', 'x', ...names],
    {
      encoding: 'utf8',
    },
  );
  return r.stdout.split('\n').filter(Boolean);
}

function allowedBy(v: CallVerdicts): string[] {
  const out: string[] = [];
  if (v.defaults === 'allow') out.push('defaults');
  if (v.team === 'allow') out.push('team');
  if (out.length === 0 && v.readOnly) out.push('read-only');
  return out;
}

function programOf(analysis: Analysis | undefined): string {
  return analysis?.commands.find((c) => c.name)?.name?.program ?? '(none)';
}

export async function runEffectOracle(options: EffectOracleOptions = {}): Promise<EffectOracleResult> {
  const started = Date.now();
  const seed = options.seed ?? FULL_SEED;
  const sampleSeed = options.sampleSeed ?? seed;
  await loadBash();
  const items: Item[] = [];
  if (options.samples !== false)
    for (const line of SAMPLES) items.push({ set: 'samples', program: 'samples', line });
  for (const line of options.extra ?? []) items.push({ set: 'extra', program: 'extra', line });
  if (options.nl2bash !== false) {
    let lines = nl2bashLines();
    if (typeof options.nl2bash === 'number') lines = shuffle(lines, sampleSeed).slice(0, options.nl2bash);
    for (const line of lines) items.push({ set: 'nl2bash', program: '', line });
  }
  let generated = generateCommands(options.generated ?? 0, seed);
  if (options.generatedSample !== undefined)
    generated = shuffle(generated, sampleSeed).slice(0, options.generatedSample);
  for (const g of generated) items.push({ set: 'generated', ...g });

  const sandbox = new EffectSandbox();
  const result: EffectOracleResult = {
    seed,
    lines: { samples: 0, nl2bash: 0, generated: 0, extra: 0 },
    run: 0,
    aborted: 0,
    observed: { reads: 0, writes: 0, programs: 0, network: 0 },
    programs: [],
    missing: missingPrograms(),
    failures: [],
    ms: 0,
  };
  try {
    const index = new WorldIndex(sandbox.world);
    const explained = loadExplainedEffects();
    const verdicts = await Verdicts.create(sandbox.world, sandbox.root);
    const reports = new Map<string, ProgramReport>();
    const report = (program: string) => {
      const known = reports.get(program);
      if (known) return known;
      const r = { program, lines: 0, allowed: 0, run: 0, disagreeing: 0 };
      reports.set(program, r);
      return r;
    };
    const toRun: { item: Item; analysis: Analysis; by: string[] }[] = [];
    for (const item of items) {
      result.lines[item.set]++;
      let analysis: Analysis;
      try {
        analysis = analyze(item.line);
      } catch {
        continue;
      }
      if (item.set === 'nl2bash') item.program = programOf(analysis);
      const r = report(item.program);
      r.lines++;
      const v = await verdicts.of(item.line);
      const by = allowedBy(v);
      if (!checked(v)) continue;
      r.allowed++;
      toRun.push({ item, analysis, by });
    }
    let chosen = toRun;
    if (options.runLimit !== undefined) {
      const always = toRun.filter((t) => t.item.set === 'samples' || t.item.set === 'extra');
      const rest = shuffle(
        toRun.filter((t) => t.item.set !== 'samples' && t.item.set !== 'extra'),
        sampleSeed,
      );
      chosen = [...always, ...rest.slice(0, Math.max(0, options.runLimit - always.length))];
    }
    await sandbox.run(
      chosen.map((t) => t.item.line),
      options,
      (i: number, run: ObservedRun) => {
        const { item, analysis, by } = chosen[i]!;
        result.run++;
        report(item.program).run++;
        if (run.aborted) result.aborted++;
        const seen = observe(run, sandbox.world);
        for (const kind of ['reads', 'writes', 'programs', 'network'] as const) {
          if (seen[kind].length > 0) result.observed[kind]++;
        }
        const disagreements = compare(analysis, seen, index, explained);
        if (disagreements.length === 0) return;
        report(item.program).disagreeing++;
        result.failures.push({ ...item, allowedBy: by, disagreements, aborted: run.aborted });
      },
    );
    result.programs = [...reports.values()].sort((a, b) => a.program.localeCompare(b.program));
  } finally {
    sandbox.dispose();
  }
  result.ms = Date.now() - started;
  return result;
}

/** The disagreements, one line a command and one a disagreement. */
export function formatFailures(failures: readonly LineFailure[], limit = 200): string {
  const out: string[] = [];
  for (const f of failures.slice(0, limit)) {
    out.push(
      `[${f.set} ${f.program}; allowed by ${f.allowedBy.join(', ')}${f.aborted ? '; aborted' : ''}] ${f.line}`,
    );
    for (const d of f.disagreements.slice(0, 6)) out.push(`  ${d.kind}: ${d.observed}; missing ${d.missing}`);
  }
  if (failures.length > limit) out.push(`... and ${failures.length - limit} more`);
  return out.join('\n');
}

/** The per-program table: lines, share allowed, lines run, lines disagreeing. */
export function formatPrograms(result: EffectOracleResult): string {
  const rows = result.programs.map((p) => {
    const share = p.lines ? `${Math.round((100 * p.allowed) / p.lines)}%` : '-';
    return `${p.program.padEnd(16)} ${String(p.lines).padStart(6)} ${share.padStart(5)} ${String(p.run).padStart(6)} ${String(p.disagreeing).padStart(6)}`;
  });
  const head = `${'program'.padEnd(16)} ${'lines'.padStart(6)} ${'allow'.padStart(5)} ${'run'.padStart(6)} ${'disagr'.padStart(6)}`;
  const missing = result.missing.length ? `\nnot installed here: ${result.missing.join(' ')}` : '';
  return `${head}\n${rows.join('\n')}${missing}`;
}

/** The class of a disagreement: its kind and what was observed, without the canary's or the object's id. */
function classOf(d: Disagreement): string {
  return `${d.kind}: ${d.observed
    .replace(/(CANARY_[A-Z_]+?)_[0-9a-f]{12}/g, '$1')
    .replace(/(\.git)\/\S+/, '$1/…')
    .replace(/ in \.\/[^)]*\)/, ' in a file it wrote)')}`;
}

/** The disagreements grouped by program and class, largest first, with the shortest lines as examples. */
export function formatClasses(failures: readonly LineFailure[], examples = 3): string {
  const groups = new Map<string, LineFailure[]>();
  for (const f of failures) {
    for (const cls of new Set(f.disagreements.map(classOf))) {
      const key = `${f.program} | ${cls}`;
      groups.set(key, [...(groups.get(key) ?? []), f]);
    }
  }
  const out: string[] = [];
  for (const [key, list] of [...groups].sort(
    (a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]),
  )) {
    out.push(`${String(list.length).padStart(5)}  ${key}`);
    const shortest = [...list].sort((a, b) => a.line.length - b.line.length).slice(0, examples);
    for (const f of shortest) out.push(`         e.g. ${f.line}   [allowed by ${f.allowedBy.join(', ')}]`);
  }
  return out.join('\n');
}
