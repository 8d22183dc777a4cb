// The entry `automode/critique`: the static analysis of rule files, the optional model review, and the
// reports. The review's model client is the caller's: nothing here loads the Anthropic SDK.

export { FINDING_CODES, type FindingCode } from './codes.js';
export { type CritiqueOptions, critique, type Reviewer } from './critique.js';
export type { CritiqueInputOptions } from './inputs.js';
export { renderGithub } from './report-github.js';
export { renderSarif } from './report-sarif.js';
export { everydayLine, renderText, summaryLine } from './report-text.js';
export { createReviewer, modelReviewer, type ReviewerOptions } from './review.js';
export { provenanceKey, type Shadow, shadowedRules } from './shadowed.js';
export type {
  CritiqueFile,
  CritiqueReport,
  CritiqueSummary,
  Finding,
  FindingSeverity,
  Location,
  RelatedLocation,
  ReviewOutcome,
  Witness,
  WitnessKind,
} from './types.js';
