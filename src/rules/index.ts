export { closestName, didYouMean, meantIn } from './closest-name.js';
export { formatDiagnostic, isError } from './diagnostics.js';
// pattern/schema.ts and pattern/json-schema.ts (zod) and pattern/redos.ts (the regex analysis) are lazy entries.
export { PATTERN_KEYS, type PatternKey } from './pattern/keys.js';
export { matchPatternRule, patternChecks, readPatternRules, TRUSTED_CHECKS } from './pattern/rules.js';
export type { PatternRuleFile, PatternRuleSpec } from './pattern/schema.js';
export { matchBashPattern, parseBashPattern } from './permission/bash.js';
export { gluedOptionStar, splitCommands } from './permission/bash-checks.js';
export { matchDomain, parseDomainPattern } from './permission/domain.js';
export { matchMcpTool, parseMcpName } from './permission/mcp.js';
export { matchParamRule } from './permission/param.js';
export {
  type ParseOptions,
  type ParseResult,
  parsePermissionRule,
  type RuleIssue,
} from './permission/parse.js';
export {
  absoluteGlob,
  type CompiledPathPattern,
  compilePathPattern,
  matchPathRule,
  type PathContext,
  parsePathPattern,
} from './permission/path.js';
export { matchRuleTool } from './permission/tool-name.js';
export {
  canonicalToolName,
  isKnownTool,
  KNOWN_TOOLS,
  MAIN_FIELDS,
  suggestTool,
  TOOL_NAME_ALIASES,
} from './permission/tools.js';
export { cachedRegex, escapeRegex } from './permission/wildcard.js';
export { mergeProse, proseLabel } from './prose/merge.js';
export * from './prose/types.js';
export { addRules } from './settings/add-rules.js';
export { BUILTIN_FILES, builtinOptions, builtinProse } from './settings/builtin.js';
export { type SchemaIssue, settingsLookValid, settingsSchemaIssues } from './settings/check.js';
export {
  formatOf,
  type LocatedDocument,
  parseText,
  readDocument,
  toPointer,
} from './settings/document.js';
export {
  checkRuleText,
  type EditOutcome,
  editReadServicesText,
  editRuleText,
  RULE_SCOPES,
  type RuleEdit,
  type RuleScope,
  readForEdit,
  type ScopeFile,
  scopeFile,
  withRuleEdit,
  writeAtomically,
} from './settings/edit.js';
export { readSettingsContent } from './settings/file.js';
export type { CliRules, LoadOptions } from './settings/load.js';
export { cliRules, loadSettingsFiles } from './settings/load.js';
export { loadSettings, type SettingsOptions } from './settings/load-settings.js';
export { bySource } from './settings/order.js';
export type { Origin } from './settings/origin.js';
export { type ProjectFolders, projectFolders, repositoryRoot } from './settings/project-root.js';
export { type DisabledRule, type DisableEntry, disableShipped } from './settings/shipped.js';
export { DEFAULT_MANAGED_PATH, locateSettings } from './settings/sources.js';
export { type FileStamp, readRegularFileSync, stampHolds } from './settings/stamp.js';
export type * from './settings/types.js';
export * from './types.js';
