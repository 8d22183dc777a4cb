// The root entry `automode`: everything a library user needs to classify, i.e. every name of
// `automode/classifier`, plus the model client and its recording helpers, which load the Anthropic SDK eagerly.
// The pipeline, eval, critique, testing and vitest entries are subpaths of their own (`automode/pipeline`, ...);
// each lists its names explicitly, so that an internal rename is never an API change.

// What `verdict.analysis` holds for a Bash call.
export type { Analysis, CodeExecution, FileEffect, Redirect, SimpleCommand, Word } from './bash/index.js';
export { analyzeBash } from './bash/index.js';
export {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierOptions,
  type ClassifierSession,
  type ClassifyOptions,
  contextFromTranscript,
  createClassifier,
  createSession,
  type HookToolCall,
  type ModelInfo,
  readTranscript,
  type Speculation,
  type ToolCall,
  type TranscriptContext,
} from './classifier/index.js';
export { createModelClient, type ModelClient } from './llm/client.js';
export { type CallResult, loadModelClient, type ModelCaller, type ModelClientOptions } from './llm/index.js';
export {
  createRecorder,
  createReplayClient,
  loadReplayClient,
  type Recorder,
  type ReplayClient,
} from './llm/recording.js';
export type { DecidedBy, Decision, PartVerdict, RuleRef, Verdict } from './policy/index.js';
export {
  type Behavior,
  BUILTIN_FILES,
  type Diagnostic,
  formatDiagnostic,
  type LoadedSettings,
  loadSettings,
  type Rule,
  type SettingsOptions,
  type SourceName,
} from './rules/index.js';
export { isModelConfigured, type Mode } from './shared/index.js';
