export { createClassifier } from './classifier.js';
export { needsModel, STAGE1_TOOL, STAGE2_TOOL } from './model-parts.js';
export { type AddRules, type OfferedRule, verdictWithRules } from './rule-check.js';
export { resolveMode } from './rules-phase.js';
export { createSession } from './session.js';
export {
  type ClassifierNote,
  contextFromTranscript,
  readTranscript,
  TRANSCRIPT_LIMITS,
  type TranscriptContext,
} from './transcript.js';
export { followTranscript, type TranscriptFollower } from './transcript-follow.js';
export { readTranscriptTail, TAIL_LIMITS, type TailLimits } from './transcript-tail.js';
export type {
  ClassifiedVerdict,
  Classifier,
  ClassifierOptions,
  ClassifierSession,
  ClassifyOptions,
  HookToolCall,
  Judgement,
  ModelInfo,
  Speculation,
  ToolCall,
} from './types.js';
