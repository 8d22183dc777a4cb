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
