import { createClassifier } from '../classifier/index.js';
import { loadRuleChecks } from '../policy/index.js';
import type { Rule } from '../rules/index.js';
import { behaviourFindings } from './behaviour.js';
import { analyseCorpus, loadCorpus } from './corpus.js';
import { CorpusVerdicts, dangerousFindings } from './dangerous.js';
import { emptyFileFindings } from './empty.js';
import { hookFindings } from './hooks.js';
import { type CritiqueInputOptions, type CritiqueInputs, isConfigError, loadInputs } from './inputs.js';
import { placeKey } from './locations.js';
import { analyseRule } from './model.js';
import { overlapFindings } from './overlap.js';
import { proseFindings } from './prose.js';
import { readServiceFindings } from './read-services.js';
import { regexFindings } from './regex-checks.js';
import { guardReplacements, ReplacementChecker, type ReplacementTally } from './replacement.js';
import { overrideFindings } from './shipped.js';
import {
  diagnosticFindings,
  duplicateFindings,
  neverConsultedPlaces,
  unconsultedPathRules,
} from './syntax.js';
import type { CritiqueReport, EverydayOutcome, Finding, Location, ReviewOutcome } from './types.js';
import { SEVERITY_RANK } from './types.js';

export type { FindingCode } from './codes.js';
export { CODES, FINDING_CODES } from './codes.js';
export type * from './types.js';

/** What a model review gets: the inputs and the static findings; it returns findings of its own. */
export type Reviewer = (
  inputs: CritiqueInputs,
  staticFindings: readonly Finding[],
) => Promise<{ findings: Finding[]; outcome: ReviewOutcome }>;

export interface CritiqueOptions extends CritiqueInputOptions {
  /** The model review; absent: skipped. */
  reviewer?: Reviewer;
  /** Why the review is skipped, when there is no reviewer. */
  skipReason?: string;
}

/** Runs every static check on the rule files, then the model review when one is given. */
export async function critique(options: CritiqueOptions): Promise<CritiqueReport> {
  const started = performance.now();
  const inputs = await loadInputs(options);
  const { findings, everyday } = await staticFindings(inputs);
  const staticMs = performance.now() - started;
  let review: ReviewOutcome = { status: 'skipped', reason: options.skipReason ?? 'no model configured' };
  let reviewMs: number | undefined;
  if (options.reviewer && inputs.diagnostics.every((d) => !isConfigError(d))) {
    const t = performance.now();
    const result = await options.reviewer(inputs, findings);
    findings.push(...result.findings);
    review = result.outcome;
    reviewMs = performance.now() - t;
  }
  sortFindings(findings);
  return {
    files: inputs.files,
    findings,
    summary: {
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      notes: findings.filter((f) => f.severity === 'note').length,
      rules: inputs.subjects.length,
      proseEntries: inputs.prose.reduce(
        (n, p) => n + Object.values(p.raw).reduce((m, s) => m + (s?.entries.length ?? 0), 0),
        0,
      ),
      ...(everyday ? { everyday } : {}),
    },
    configErrors: inputs.diagnostics.filter(isConfigError).length,
    review,
    timings: {
      staticMs: Math.round(staticMs),
      ...(reviewMs === undefined ? {} : { reviewMs: Math.round(reviewMs) }),
    },
  };
}

/** Every finding that needs no model, and how the configuration treats everyday commands. */
export async function staticFindings(
  inputs: CritiqueInputs,
): Promise<{ findings: Finding[]; everyday?: EverydayOutcome; replacements?: ReplacementTally }> {
  const { documents } = inputs;
  await loadRuleChecks();
  const findings = diagnosticFindings(inputs.diagnostics);
  findings.push(...(await emptyFileFindings(inputs.files, documents)));
  findings.push(...hookFindings(inputs.files, documents));
  findings.push(...readServiceFindings(inputs.settings));
  if (inputs.diagnostics.some(isConfigError) && inputs.subjects.length === 0) return { findings };

  const never = neverConsultedPlaces(inputs.diagnostics);
  const unconsulted = unconsultedPathRules(inputs.subjects, documents);
  findings.push(...unconsulted.findings);
  const consulted = (r: Rule) =>
    !unconsulted.rules.has(r) && !never.has(placeKey(r.provenance.file, r.provenance.pointer));
  const duplicates = duplicateFindings(inputs.subjects, inputs.context, documents);
  findings.push(...duplicates.findings);

  const ctx = { cwd: inputs.cwd, home: inputs.home };
  const analysed = [
    ...inputs.subjects.filter(consulted).map((r) => analyseRule(r, true, ctx)),
    ...inputs.context.map((r) => analyseRule(r, false, ctx)),
  ];
  findings.push(...regexFindings(analysed, documents));

  const corpus = loadCorpus();
  const examples = new Map([['command', [...corpus.dangerous, ...corpus.benign].map((e) => e.command)]]);
  findings.push(
    ...overlapFindings(
      analysed.filter((a) => !duplicates.duplicates.has(a.rule)),
      { documents, examples, home: inputs.home },
    ),
  );

  findings.push(
    ...(await overrideFindings(inputs.subjects.filter(consulted), inputs.context, inputs.home, documents)),
  );

  const verdicts = new CorpusVerdicts(createClassifier(inputs.settings));
  const dangerous = await analyseCorpus(corpus.dangerous, inputs.home);
  findings.push(...(await dangerousFindings(analysed, dangerous, verdicts, documents)));
  findings.push(...(await proseFindings({ prose: inputs.prose, defaults: inputs.defaults })));
  const behaviour = await behaviourFindings(corpus, verdicts, firstFile(inputs), documents);
  findings.push(...behaviour.findings);
  const replacements = await guardReplacements(
    findings,
    inputs.subjects,
    new ReplacementChecker(inputs.settings, ctx),
  );
  return { findings, everyday: behaviour.everyday, replacements };
}

/** Where findings about the configuration as a whole point: the first file under review that exists. */
function firstFile(inputs: CritiqueInputs): Location | undefined {
  const file = inputs.files.find((f) => f.exists && f.path !== '--settings');
  return file ? { source: file.source, file: file.path, line: 1, column: 1 } : undefined;
}

export function sortFindings(findings: Finding[]): void {
  findings.sort(
    (a, b) =>
      (a.location.file ?? '').localeCompare(b.location.file ?? '') ||
      (a.location.line ?? 0) - (b.location.line ?? 0) ||
      (a.location.column ?? 0) - (b.location.column ?? 0) ||
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      a.code.localeCompare(b.code),
  );
}
