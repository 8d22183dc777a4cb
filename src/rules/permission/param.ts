import { matchWildcard } from './wildcard.js';

export interface ParamRuleLike {
  param: string;
  value: string;
}

/** Whether the tool input's top-level scalar field `param` matches the rule's value (`*` = any characters). */
export function matchParamRule(
  rule: ParamRuleLike | { parsed: ParamRuleLike },
  input: Record<string, unknown>,
): boolean {
  const { param, value } = 'parsed' in rule ? rule.parsed : rule;
  if (!Object.hasOwn(input, param)) return false;
  const field = input[param];
  if (typeof field !== 'string' && typeof field !== 'number' && typeof field !== 'boolean') return false;
  return matchWildcard(value, String(field));
}
