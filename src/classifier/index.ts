export {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierOptions,
  type ClassifyOptions,
  createClassifier,
  resolveMode,
  type Speculation,
  type ToolCall,
} from './classifier.js';
export { type ModelInfo, needsModel } from './model-parts.js';
export { STAGE1_TOOL, STAGE2_TOOL } from './stage-tools.js';
export { contextFromTranscript, readTranscript, type TranscriptContext } from './transcript.js';
