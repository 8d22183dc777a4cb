export { addRules } from './add-rules.js';
export { matchBashPattern, parseBashPattern } from './bash-pattern.js';
export { BUILTIN_FILES, builtinOptions, builtinProse } from './builtin.js';
export { formatDiagnostic, isError } from './diagnostics.js';
export { matchDomain, parseDomainPattern } from './domain.js';
export type { CliRules, LoadOptions } from './load.js';
export { loadSettings } from './load.js';
export { matchMcpTool, parseMcpName } from './mcp.js';
export { matchParamRule } from './param-rule.js';
export { absoluteGlob, matchPathRule, type PathContext, parsePathPattern } from './path-pattern.js';
export { matchPatternRule, readPatternRules } from './pattern-rules.js';
export * from './pattern-schema.js';
export {
  type ParseOptions,
  type ParseResult,
  parsePermissionRule,
  type RuleIssue,
} from './permission-rule.js';
export { mergeProse, proseLabel } from './prose.js';
export * from './prose-types.js';
export { superLinearReason } from './redos.js';
export { matchRuleTool } from './rule-tool.js';
export { automodeRulesJsonSchema, renderAutomodeRulesSchema } from './schema.js';
export type * from './settings-types.js';
export { DEFAULT_MANAGED_PATH } from './sources.js';
export { isKnownTool, KNOWN_TOOLS, MAIN_FIELDS, suggestTool } from './tools.js';
export * from './types.js';
