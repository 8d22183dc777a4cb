export { classifyBash } from './bash.js';
export { allowRuleMatches, type CommandViews, viewsOf } from './bash-match.js';
export { broadAllowWitness, isBroadAllow, isCodeRunnerRule, loadRuleChecks } from './broad.js';
export type { DecisionContext } from './context.js';
export { applyMode } from './modes.js';
export { PROTECTED_NAMES } from './paths.js';
export { indexedProgram, lookupNames, RuleIndex } from './rule-index.js';
export {
  exampleCommand,
  isShipped,
  overridesShipped,
  type ShippedOverride,
  shippedOverrides,
} from './tiers.js';
export { classifyBashInput, classifyTool, EDIT_TOOLS, READ_TOOLS } from './tools.js';
export {
  allowSettles,
  alwaysAsks,
  asksOnlyFor,
  autoSoft,
  combine,
  type DecidedBy,
  type Decision,
  failsClosed,
  isShippedAsk,
  isShippedRule,
  modelSettles,
  type PartVerdict,
  type RuleRef,
  SHIPPED_SECRET_ASKS,
  type Verdict,
} from './verdict.js';
