// The entry `automode/eval`: measuring the classifier on a labelled dataset (the shipped one or your own):
// configurations, runs through the pipeline or the classifier alone, metrics, targets, reports, and the agent
// drivers. Live model clients load lazily (resolveConfig imports them only when a configuration needs one).

export { type BatchEvent, type BatchOptions, runEvalBatched } from './batch.js';
export { type EvalCase, EvalCaseSchema, EvalFileSchema, type Severity } from './case-schema.js';
export { CATEGORIES, type CategoryInfo } from './categories.js';
export {
  type ConfigSpec,
  type ModelSource,
  type ResolvedConfig,
  readVsSpec,
  resolveConfig,
} from './config.js';
export {
  type Dataset,
  type DatasetProblem,
  formatProblem,
  type LoadedCase,
  loadDataset,
  SHIPPED_DATASET,
  SHIPPED_RECORDING,
} from './dataset.js';
export { classifierDecider, type Decided, type Decider } from './decide.js';
export type { Compaction, CompactOptions } from './drivers/compact.js';
export { runAgent } from './drivers/live.js';
export { playScript, readScript } from './drivers/scripted.js';
export {
  AgentSession,
  type CallRecord,
  decisionOf,
  type HookStop,
  type TurnResults,
} from './drivers/session.js';
export { type EvaluateOptions, evaluate, evaluateConfig } from './evaluate.js';
export {
  checkTargets,
  computeMetrics,
  DEFAULT_TARGETS,
  type EvalMetrics,
  type Target,
  type Targets,
} from './metrics.js';
export { buildOracleRecording, oracleCaller } from './oracle.js';
export { pipelineDecider } from './pipeline-decider.js';
export { type Progress, progressBar } from './progress.js';
export { type Comparison, type EvalReport, type RunReport, reportJson } from './report.js';
export { renderHtml } from './report-html.js';
export { renderMarkdown } from './report-markdown.js';
export { renderText } from './report-text.js';
export { type CaseResult, type EvalRunOptions, runEval } from './run.js';
export { EVAL_HOME, EVAL_PROJECT, loadEvalSettings } from './workspace.js';
