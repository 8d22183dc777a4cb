import { analyzeBash } from '../bash/index.js';
import {
  alwaysAsks,
  classifyBash,
  classifyBashInput,
  classifyTool,
  type DecisionContext,
  type PartVerdict,
  RuleIndex,
} from '../policy/index.js';
import { canonicalToolName, cliRules, type Diagnostic, formatDiagnostic } from '../rules/index.js';

/** A handler's `if`: a permission rule the call must match for the handler to run. */
export interface Condition {
  text: string;
  index: RuleIndex;
  /** The rule is about Bash: a command it cannot be checked against matches it. */
  bash: boolean;
}

/** Compiles `if` as a permission rule; a string says why it cannot be one. */
export function compileCondition(text: string, cwd: string): Condition | string {
  const diagnostics: Diagnostic[] = [];
  const rules = cliRules({ deny: [text] }, cwd, diagnostics);
  const error = diagnostics.find((d) => d.severity === 'error');
  if (error || rules.length !== 1) {
    return `"if": ${JSON.stringify(text)} is not a permission rule (${error ? formatDiagnostic(error) : 'no rule'})`;
  }
  const rule = rules[0]!;
  return {
    text,
    index: new RuleIndex(rules),
    bash: rule.type === 'permission' && rule.parsed.tool === 'Bash',
  };
}

/**
 * Whether the call matches the condition. The rule is matched as a deny rule is (each command of a compound line,
 * wrappers and prefixes seen through): a guard must run whenever Claude Code would run it. A Bash command a
 * Bash rule cannot be checked against (one that cannot be analysed) matches too.
 */
export async function conditionHolds(
  condition: Condition,
  toolName: string,
  input: unknown,
  where: { cwd: string; home: string },
): Promise<boolean> {
  const tool = canonicalToolName(toolName);
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const ctx: DecisionContext = {
    ...where,
    mode: 'default',
    index: condition.index,
    additionalDirectories: [],
    failed: [],
    hasModel: false,
  };
  let parts: PartVerdict[];
  try {
    if (tool !== 'Bash') parts = classifyTool(tool, fields, ctx);
    else if (typeof fields.command !== 'string') return true;
    else parts = [...classifyBashInput(fields, ctx), ...classifyBash(await analyzeBash(fields.command), ctx)];
  } catch {
    return true;
  }
  const unchecked = (p: PartVerdict) => condition.bash && tool === 'Bash' && alwaysAsks(p.by);
  return parts.some((p) => (p.decision === 'deny' && p.by === 'rule') || unchecked(p));
}
