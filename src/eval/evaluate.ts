import { loadBash } from '../bash/index.js';
import { stopSandboxRuntime } from '../pipeline/index.js';
import type { Mode } from '../shared/index.js';
import { type BatchEvent, runEvalBatched } from './batch.js';
import type { EvalCase } from './case-schema.js';
import type { ResolvedConfig } from './config.js';
import { settingsOptions } from './config.js';
import { classifierDecider, type Decider } from './decide.js';
import type { Targets } from './metrics.js';
import { oracleCaller } from './oracle.js';
import { pipelineDecider } from './pipeline-decider.js';
import type { Progress } from './progress.js';
import { compare, datasetInfo, type EvalReport, type RunReport, runReport } from './report.js';
import { type CaseResult, contextOf, type EvalRunOptions, runEval, toolCall } from './run.js';
import { createWorkspace, loadEvalSettings, type Workspace } from './workspace.js';

export interface EvaluateOptions {
  mode?: Mode;
  concurrency?: number;
  targets?: Targets;
  /** Send model calls as Message Batches, keeping the state in this file. */
  batch?: {
    statePath: string;
    pollIntervalMs?: number;
    maxRequests?: number;
    onEvent?: (e: BatchEvent) => void;
  };
  progress?: Progress;
  signal?: AbortSignal;
  /**
   * Where decisions come from: the permission stage of the tool pipeline (default), the classifier alone, or
   * a decider of one's own.
   */
  decider?: 'pipeline' | 'classifier' | ((config: ResolvedConfig) => Decider);
  /** Run the calls the pipeline allows, for real, in a temporary workspace (pipeline only). */
  execute?: boolean;
  /** With `execute`: run Bash in the sandbox whatever the settings' `sandbox.enabled` says. */
  sandbox?: boolean;
}

async function deciderFor(
  config: ResolvedConfig,
  options: EvaluateOptions,
): Promise<{ decider: Decider; workspace?: Workspace; cleanup?: () => Promise<void> }> {
  const choice = options.decider ?? 'pipeline';
  if (typeof choice === 'function') return { decider: choice(config) };
  if (choice === 'classifier') return { decider: classifierDecider(config.settings) };
  // Hook processes and executed calls need real folders: the calls move into a temporary workspace.
  if (!options.execute && config.settings.hooks.length === 0)
    return { decider: pipelineDecider(config.settings) };
  const workspace = await createWorkspace();
  const settings = await loadEvalSettings(
    { ...settingsOptions(config.spec), project: workspace.project, home: workspace.home },
    process.cwd(),
  );
  const previousHome = process.env.HOME;
  // Shell commands the pipeline runs see the workspace's home, not the user's.
  if (options.execute) process.env.HOME = workspace.home;
  return {
    decider: pipelineDecider(
      settings,
      options.execute
        ? { execute: { root: workspace.root, ...(options.sandbox ? { sandbox: true } : {}) } }
        : {},
    ),
    workspace,
    cleanup: async () => {
      if (options.execute) {
        if (previousHome === undefined) delete process.env.HOME;
        else process.env.HOME = previousHome;
      }
      await workspace.remove();
      if (options.execute) await stopSandboxRuntime();
    },
  };
}

/**
 * Loads what the first decision would load (the analyzer, the pipeline, the judge) and lets the JIT see the
 * decision code, so that the first cases and the first configuration are not slower for it. It decides the first
 * cases with the oracle as the model (no network) and without hooks and execution (no side effects).
 */
async function warmUp(
  cases: readonly EvalCase[],
  config: ResolvedConfig,
  options: EvaluateOptions,
): Promise<void> {
  await loadBash();
  const settings = { ...config.settings, hooks: [] };
  const decider = options.decider === 'classifier' ? classifierDecider(settings) : pipelineDecider(settings);
  for (const c of cases.slice(0, 100)) {
    try {
      await decider.session(oracleCaller(c, settings.prose))(toolCall(c, {}), contextOf(c));
    } catch {
      // Measured properly below.
    }
  }
}

/** Runs the cases on one configuration and measures them. */
export async function evaluateConfig(
  cases: readonly EvalCase[],
  config: ResolvedConfig,
  options: EvaluateOptions = {},
): Promise<RunReport> {
  const { decider, cleanup, workspace } = await deciderFor(config, options);
  const mode = config.spec.mode ?? options.mode ?? 'auto';
  await warmUp(cases, config, options);
  const started = performance.now();
  options.progress?.start(cases.length, config.name);
  const run: Omit<EvalRunOptions, 'model'> = {
    decider,
    mode,
    ...(workspace ? { workspace } : {}),
    // Deciding is CPU work: running cases side by side only helps while they wait for a live model, and it
    // would add each other's time to their latencies.
    concurrency: options.concurrency ?? (config.model.kind === 'live' && !options.batch ? 8 : 1),
    onCase: () => options.progress?.tick(),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  let results: CaseResult[];
  try {
    const source = config.model;
    if (options.batch && source.kind === 'live') {
      results = await runEvalBatched(cases, run, {
        sdk: source.client.sdk,
        resolver: source.client,
        statePath: options.batch.statePath,
        ...(options.batch.pollIntervalMs !== undefined
          ? { pollIntervalMs: options.batch.pollIntervalMs }
          : {}),
        ...(options.batch.maxRequests !== undefined ? { maxRequests: options.batch.maxRequests } : {}),
        onEvent: (e) => {
          // Each round decides the cases still waiting: the bar starts over; it steps aside while batches run.
          if (e.type === 'round') options.progress?.start(e.cases, `${config.name}, round ${e.round}`);
          if (e.type === 'submitted' || e.type === 'resumed') options.progress?.stop();
          options.batch?.onEvent?.(e);
        },
        ...(config.spec.record ? { recordPath: config.spec.record } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } else {
      results = await runEval(cases, { ...run, ...(source.kind === 'none' ? {} : { model: source.caller }) });
    }
  } finally {
    options.progress?.stop();
    await cleanup?.();
  }
  const details = {
    model: config.modelLine,
    decider:
      decider.name === 'classifier'
        ? 'permission decision of the classifier alone'
        : workspace && !options.execute
          ? `${decider.name}, in a temporary workspace (hooks need real folders)`
          : decider.name,
    mode,
    wallMs: performance.now() - started,
    ...(options.targets ? { targets: options.targets } : {}),
  };
  return runReport(config.name, details, results);
}

/** Runs the cases on each configuration (one after the other) and compares the first two. */
export async function evaluate(
  files: string[],
  cases: readonly EvalCase[],
  configs: readonly ResolvedConfig[],
  options: EvaluateOptions = {},
): Promise<EvalReport> {
  const runs: RunReport[] = [];
  for (const config of configs) runs.push(await evaluateConfig(cases, config, options));
  const report: EvalReport = { dataset: datasetInfo(files, runs[0]?.results ?? []), runs };
  if (runs[0] && runs[1]) report.comparison = compare(runs[0], runs[1]);
  return report;
}
