import { isObject } from '../../shared/index.js';
import { didYouMean } from '../closest-name.js';
import { canonicalToolName, isKnownTool, suggestTool } from '../permission/tools.js';
import { cachedRegex } from '../permission/wildcard.js';
import type { LocatedDocument } from '../settings/document.js';
import { diagnosticAt, type Origin, provenanceAt } from '../settings/origin.js';
import type { Report, Segment } from '../settings/types.js';
import type { Diagnostic, PatternField, PatternRule } from '../types.js';
import { PATH_TOOLS } from '../types.js';
import { PATTERN_KEYS, type PatternKey } from './keys.js';
import type { PatternRuleSpec } from './schema.js';

const FIELDS: Record<PatternKey, PatternField> = {
  command_pattern: 'command',
  path_pattern: 'path',
  input_pattern: 'input',
};

/** How rule entries are validated: the zod schema and the backtracking check, or trust for shipped rules. */
export interface PatternChecks {
  validate(raw: unknown): { spec: PatternRuleSpec } | { issues: { path: Segment[]; message: string }[] };
  superLinear(source: string): string | undefined;
}

/** The full checks; zod and the regex analysis load on first use. */
export async function patternChecks(): Promise<PatternChecks> {
  const [{ PatternRuleSpecSchema }, { superLinearReason }] = await Promise.all([
    import('./schema.js'),
    import('./redos.js'),
  ]);
  return {
    validate(raw) {
      const checked = PatternRuleSpecSchema.safeParse(raw);
      if (checked.success) return { spec: checked.data };
      return { issues: checked.error.issues.map((i) => ({ path: i.path as Segment[], message: i.message })) };
    },
    superLinear: superLinearReason,
  };
}

/** For automode's own shipped rules, which the test suite checks with the full checks. */
export const TRUSTED_CHECKS: PatternChecks = {
  validate: (raw) => ({ spec: raw as PatternRuleSpec }),
  superLinear: () => undefined,
};

/** Validates and compiles a pattern rule file; each rule is checked on its own so one bad rule spares the rest. */
export function readPatternRules(
  doc: LocatedDocument,
  origin: Origin,
  checks: PatternChecks,
): { rules: PatternRule[]; diagnostics: Diagnostic[] } {
  const rules: PatternRule[] = [];
  const diagnostics: Diagnostic[] = [];
  const error = (path: Segment[], code: Diagnostic['code'], message: string, rule?: string) =>
    diagnostics.push(diagnosticAt(origin, doc, path, 'error', code, message, rule));
  const file = doc.value;
  if (!isObject(file)) {
    error([], 'schema', 'a rule file is an object with a "rules" array');
    return { rules, diagnostics };
  }
  for (const key of Object.keys(file)) {
    if (key !== 'rules' && key !== '$schema') error([key], 'schema', `unknown key "${key}"`);
  }
  const list = file.rules;
  if (!Array.isArray(list)) {
    error(['rules'], 'schema', '"rules" must be an array');
    return { rules, diagnostics };
  }
  list.forEach((raw, index) => {
    const checked = checks.validate(raw);
    if ('issues' in checked) {
      for (const issue of checked.issues) {
        const where = ['rules', index, ...issue.path];
        error(where, 'schema', `${where.join('.')}: ${issue.message}`);
      }
      return;
    }
    const compiled = compileRule(checked.spec, index, origin, doc, diagnostics, checks);
    if (compiled) rules.push(compiled);
  });
  return { rules, diagnostics };
}

function compileRule(
  spec: PatternRuleSpec,
  index: number,
  origin: Origin,
  doc: LocatedDocument,
  diagnostics: Diagnostic[],
  checks: PatternChecks,
): PatternRule | undefined {
  const key = PATTERN_KEYS.find((k) => spec[k] !== undefined)!;
  const source = spec[key]!;
  const at = (path: Segment[], severity: Diagnostic['severity'], code: Diagnostic['code'], message: string) =>
    diagnostics.push(diagnosticAt(origin, doc, ['rules', index, ...path], severity, code, message, source));

  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (err) {
    at([key], 'error', 'invalid-regex', (err as Error).message);
    return undefined;
  }
  const slow = checks.superLinear(source);
  if (slow) {
    at([key], 'error', 'redos', `/${source}/ is refused: ${slow}`);
    return undefined;
  }
  checkTool(spec, key, at);
  const failures = checkExamples(spec, regex, at);
  // An allow rule whose examples fail is dropped; a deny or ask rule is kept, as it can only make things stricter.
  if (failures > 0 && spec.decision === 'allow') return undefined;
  return {
    type: 'pattern',
    behavior: spec.decision,
    text: source,
    tool: canonicalToolName(spec.tool),
    field: FIELDS[key],
    label: spec.label ?? `${spec.tool} /${source}/`,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    provenance: provenanceAt(origin, doc, ['rules', index]),
  };
}

function checkTool(spec: PatternRuleSpec, key: PatternKey, report: Report): void {
  if (!isKnownTool(spec.tool)) {
    const suggestion = suggestTool(spec.tool);
    const hint = didYouMean(suggestion);
    report(['tool'], 'warning', 'unknown-tool', `unknown tool "${spec.tool}"${hint}`);
  }
  if (!isKnownTool(spec.tool) || spec.tool.startsWith('mcp__')) return;
  const tool = canonicalToolName(spec.tool);
  if (key === 'command_pattern' && tool !== 'Bash') {
    report([key], 'warning', 'pattern-field', `command_pattern only applies to Bash, not ${spec.tool}`);
  }
  if (key === 'path_pattern' && !(PATH_TOOLS as readonly string[]).includes(tool)) {
    report([key], 'warning', 'pattern-field', `path_pattern only applies to file tools, not ${spec.tool}`);
  }
}

function checkExamples(spec: PatternRuleSpec, regex: RegExp, report: Report): number {
  let failures = 0;
  const check = (list: 'match' | 'not_match', expected: boolean) => {
    spec.examples?.[list]?.forEach((example, i) => {
      if (regex.test(example) === expected) return;
      failures++;
      const verb = expected ? 'should match but does not' : 'should not match but does';
      report(
        ['examples', list, i],
        'error',
        'example-mismatch',
        `example ${JSON.stringify(example)} ${verb}`,
      );
    });
  };
  check('match', true);
  check('not_match', false);
  return failures;
}

/** Tests a pattern rule's regex against its subject (see PatternRule for what each field is matched with). */
const compiledRules = new WeakMap<PatternRule, RegExp>();

export function matchPatternRule(rule: PatternRule, subject: string): boolean {
  let regex = compiledRules.get(rule);
  if (!regex) {
    regex = cachedRegex(rule.text);
    compiledRules.set(rule, regex);
  }
  return regex.test(subject);
}
