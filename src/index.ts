export type * from './bash/index.js';
export { analyze, analyzeBash, DYN, loadBash, MAX_INPUT_BYTES } from './bash/index.js';
export type { ClassifyOptions, ModelInfo, Speculation, TranscriptContext } from './classifier/index.js';
export {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierOptions,
  contextFromTranscript,
  createClassifier,
  readTranscript,
  type ToolCall,
} from './classifier/index.js';
export { createModelClient, type ModelClient } from './llm/client.js';
export type { CallResult, ModelCaller } from './llm/index.js';
export { isModelConfigured } from './llm/index.js';
export { createRecorder, createReplayClient, loadReplayClient } from './llm/recording.js';
export type { DecidedBy, Decision, PartVerdict, RuleRef, Verdict } from './policy/index.js';
export type {
  Behavior,
  Diagnostic,
  LoadedSettings,
  LoadOptions,
  Rule,
  SourceName,
} from './rules/index.js';
export {
  BUILTIN_FILES,
  builtinOptions,
  builtinProse,
  formatDiagnostic,
  loadSettings,
  type SettingsOptions,
} from './rules/index.js';
export type { Mode } from './shared/index.js';

// The tool-execution pipeline and the hooks it runs.

export * from './hooks/index.js';
export * from './pipeline/index.js';

// Measuring the classifier: datasets, runs, metrics, reports and the agent drivers.

export {
  AgentSession,
  type BatchOptions,
  buildOracleRecording,
  CATEGORIES,
  type CallRecord,
  type CaseResult,
  type CategoryInfo,
  type ConfigSpec,
  checkTargets,
  classifierDecider,
  computeMetrics,
  DEFAULT_TARGETS,
  type Decided,
  type Decider,
  EVAL_HOME,
  EVAL_PROJECT,
  type EvalCase,
  EvalCaseSchema,
  EvalFileSchema,
  type EvalMetrics,
  type EvalReport,
  type EvaluateOptions,
  evaluate,
  evaluateConfig,
  type LoadedCase,
  loadDataset,
  loadEvalSettings,
  oracleCaller,
  pipelineDecider,
  playScript,
  type ResolvedConfig as EvalConfig,
  type RunReport,
  readScript,
  renderHtml as renderEvalHtml,
  renderMarkdown as renderEvalMarkdown,
  renderText as renderEvalText,
  reportJson,
  resolveConfig as resolveEvalConfig,
  runAgent,
  runEval,
  runEvalBatched,
  type Severity,
  SHIPPED_DATASET as EVAL_DATASET,
  SHIPPED_RECORDING as EVAL_ORACLE_RECORDING,
  type Targets,
} from './eval/index.js';
