// The entry `automode/testing`: test files of expected decisions (`*.automode-test.yaml`), as `automode test`
// runs them, the decision diff between two configurations, as `automode diff` runs it, and their reports.
// A model is the caller's (`modelProvider(caller)`): nothing here loads the Anthropic SDK.

export { type CallSpec, describeCall, type TestCall, toCall } from './call.js';
export { type Configuration, configurationOf, filesRead, loadConfiguration } from './configuration.js';
export {
  type CorpusEntry,
  DANGEROUS_CORPUS,
  dangerousCommands,
  readCorpus,
  SHIPPED_CORPUS,
  uniqueCalls,
} from './corpus.js';
export { type Coverage, type CoveredRule, mergeCoverage } from './coverage.js';
export {
  type Change,
  type ChangeKind,
  type DiffOptions,
  type DiffSummary,
  type DiffVerdict,
  diffDecisions,
} from './diff.js';
export { displayLocation } from './display.js';
export { findFiles } from './find-files.js';
export {
  type LearnedRule,
  type LearnOptions,
  type LearnReport,
  learnRules,
  type PromptFigures,
  type RefusedRule,
  type ShownCall,
  UNPROMPTED_MODES,
  type Unlearned,
} from './learn.js';
export {
  type CallOutcome,
  projectTranscriptFolder,
  type ReadProblem,
  readSessions,
  type SessionCall,
  type SessionRead,
} from './learn-read.js';
export { type ModelProvider, type ModelVerdict, modelProvider, NO_MODEL, needsModel } from './model.js';
export { holdsSecret, REDACTED, redact } from './redact.js';
export { renderCoverage } from './report-coverage.js';
export { type DiffReport, renderDiffMarkdown, renderDiffText } from './report-diff.js';
export { annotation, renderGithub } from './report-github.js';
export { renderJunit } from './report-junit.js';
export { renderText, type TextOptions } from './report-text.js';
export {
  type CaseResult,
  type Decision,
  type DecisionResult,
  type ExampleResult,
  type Problem,
  type SuiteResult,
  type Summary,
  summarize,
  summaryLine,
} from './results.js';
export { type RunOptions, runSuite, runTestFile } from './run.js';
export { resolveSides, type Side } from './sides.js';
export { type RuleSuggestion, type SuggestReport, suggestRules } from './suggest.js';
export { readSuite, type Suite, TEST_FILE_GLOB, type TestCase } from './suite.js';
