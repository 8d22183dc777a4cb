export { analyze, analyzeBash, loadBash, MAX_INPUT_BYTES } from './bash/analyze.js';
export type * from './bash/types.js';
export { DYN } from './bash/types.js';
export type { DecidedBy, Decision, PartVerdict, RuleRef, Verdict } from './classifier/verdict.js';
export {
  type ClassifiedVerdict,
  type Classifier,
  type ClassifierOptions,
  createClassifier,
  type ToolCall,
} from './permissions/classifier.js';
export { loadSettings, type SettingsOptions } from './permissions/settings.js';
export { BUILTIN_FILES, builtinOptions, builtinProse } from './rules/builtin.js';
export { formatDiagnostic } from './rules/diagnostics.js';
export type { LoadOptions } from './rules/load.js';
export type { LoadedSettings } from './rules/settings-types.js';
export type { Behavior, Diagnostic, Mode, Rule, SourceName } from './rules/types.js';
