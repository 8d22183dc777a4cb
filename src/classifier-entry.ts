// The entry `automode/classifier`: what an embedder needs to classify, without the Anthropic SDK or zod at
// import. `loadModelClient` loads the SDK when a model is wanted; the root entry `automode` loads it eagerly.

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
  type ModelInfo,
  readTranscript,
  type Speculation,
  type ToolCall,
  type TranscriptContext,
} from './classifier/index.js';
export {
  type CallResult,
  loadModelClient,
  type ModelCaller,
  type ModelClient,
  type ModelClientOptions,
} from './llm/index.js';
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
