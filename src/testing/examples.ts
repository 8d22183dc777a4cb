import { PATTERN_KEYS, readDocument } from '../rules/index.js';
import type { ExampleResult } from './results.js';

const LISTS = ['match', 'not_match'] as const;

/**
 * The examples of a pattern rule file as test results, each located in the file. Rules the loader refuses
 * (bad regex, super-linear backtracking) are its to report and are left out here.
 */
export async function exampleResults(file: string, refused: ReadonlySet<string>): Promise<ExampleResult[]> {
  const outcome = await readDocument(file);
  if (outcome.status !== 'ok') return [];
  const doc = outcome.document;
  const rules = (doc.value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return [];
  const results: ExampleResult[] = [];
  rules.forEach((raw: unknown, index) => {
    if (typeof raw !== 'object' || raw === null) return;
    const rule = raw as Record<string, unknown>;
    const key = PATTERN_KEYS.find((k) => typeof rule[k] === 'string');
    const pattern = key === undefined ? undefined : (rule[key] as string);
    if (pattern === undefined || refused.has(pattern)) return;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern);
    } catch {
      return;
    }
    const label = typeof rule.label === 'string' ? rule.label : undefined;
    const examples = (rule.examples ?? {}) as Record<string, unknown>;
    for (const list of LISTS) {
      const entries = examples[list];
      if (!Array.isArray(entries)) continue;
      entries.forEach((example: unknown, i) => {
        if (typeof example !== 'string') return;
        const started = performance.now();
        const matched = regex.test(example);
        const passed = matched === (list === 'match');
        const position = doc.locate(['rules', index, 'examples', list, i]);
        const verb = list === 'match' ? 'matches' : 'does not match';
        results.push({
          kind: 'example',
          file,
          ...(position ? { line: position.line, column: position.column } : {}),
          name: `${label ?? `/${pattern}/`} ${verb} ${JSON.stringify(example)}`,
          status: passed ? 'passed' : 'failed',
          ...(passed
            ? {}
            : {
                message: `/${pattern}/ ${matched ? 'matches' : 'does not match'} ${JSON.stringify(example)}`,
              }),
          rule: { pattern, ...(label === undefined ? {} : { label }) },
          example,
          expected: list,
          durationMs: performance.now() - started,
        });
      });
    }
  });
  return results;
}
