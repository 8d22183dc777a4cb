// The entry `automode/classifier`: the root entry's names without the ones that load the Anthropic SDK or zod at
// import (the eager model client and its recording helpers). `loadModelClient` loads the SDK when a model is wanted.

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
