export { analyze, analyzeBash, loadBash, MAX_INPUT_BYTES } from './bash/analyze.js';
export type * from './bash/types.js';
export { DYN } from './bash/types.js';
export type { TranscriptContext } from './classifier/model/prompt.js';
export { contextFromTranscript, readTranscript } from './classifier/model/transcript.js';
export type { DecidedBy, Decision, PartVerdict, RuleRef, Verdict } from './classifier/verdict.js';
export { createModelClient, type ModelClient } from './llm/client.js';
export { isModelConfigured } from './llm/config.js';
export { createRecorder, createReplayClient, loadReplayClient } from './llm/recording.js';
export type { CallResult, ModelCaller } from './llm/types.js';
export type { ClassifyOptions, Speculation } from './permissions/classifier.js';
export {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierOptions,
  createClassifier,
  type ToolCall,
} from './permissions/classifier.js';
export type { ModelInfo } from './permissions/model-parts.js';
export { loadSettings, type SettingsOptions } from './permissions/settings.js';
export { BUILTIN_FILES, builtinOptions, builtinProse } from './rules/builtin.js';
export { formatDiagnostic } from './rules/diagnostics.js';
export type { LoadOptions } from './rules/load.js';
export type { LoadedSettings } from './rules/settings-types.js';
export type { Behavior, Diagnostic, Mode, Rule, SourceName } from './rules/types.js';

// The tool-execution pipeline and the hooks it runs.

export * from './hooks/index.js';
export * from './pipeline/index.js';

// Measuring the classifier: datasets, runs, metrics, reports and the agent drivers.

export { type BatchOptions, runEvalBatched } from './eval/batch.js';
export { type EvalCase, EvalCaseSchema, EvalFileSchema, type Severity } from './eval/case-schema.js';
export { CATEGORIES, type CategoryInfo } from './eval/categories.js';
export {
  type ConfigSpec,
  type ResolvedConfig as EvalConfig,
  resolveConfig as resolveEvalConfig,
} from './eval/config.js';
export {
  type LoadedCase,
  loadDataset,
  SHIPPED_DATASET as EVAL_DATASET,
  SHIPPED_RECORDING as EVAL_ORACLE_RECORDING,
} from './eval/dataset.js';
export { classifierDecider, type Decided, type Decider } from './eval/decide.js';
export { runAgent } from './eval/drivers/live.js';
export { playScript, readScript } from './eval/drivers/scripted.js';
export { AgentSession, type CallRecord } from './eval/drivers/session.js';
export { type EvaluateOptions, evaluate, evaluateConfig } from './eval/evaluate.js';
export {
  checkTargets,
  computeMetrics,
  DEFAULT_TARGETS,
  type EvalMetrics,
  type Targets,
} from './eval/metrics.js';
export { buildOracleRecording, oracleCaller } from './eval/oracle.js';
export { pipelineDecider } from './eval/pipeline-decider.js';
export { type EvalReport, type RunReport, reportJson } from './eval/report.js';
export { renderHtml as renderEvalHtml } from './eval/report-html.js';
export { renderMarkdown as renderEvalMarkdown } from './eval/report-markdown.js';
export { renderText as renderEvalText } from './eval/report-text.js';
export { type CaseResult, runEval } from './eval/run.js';
export { EVAL_HOME, EVAL_PROJECT, loadEvalSettings } from './eval/workspace.js';
