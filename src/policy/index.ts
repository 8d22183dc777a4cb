export { classifyBash } from './bash.js';
export { allowRuleMatches, type CommandViews, viewsOf } from './bash-match.js';
export { isBroadAllow } from './broad.js';
export type { DecisionContext } from './context.js';
export { allowSettles, alwaysAsks, type DecidedBy, failsClosed, modelSettles } from './decided-by.js';
export { applyMode } from './modes.js';
export { RuleIndex } from './rule-index.js';
export { classifyBashInput, classifyTool } from './tools.js';
export {
  combine,
  type Decision,
  type PartVerdict,
  type RuleRef,
  type Verdict,
} from './verdict.js';
