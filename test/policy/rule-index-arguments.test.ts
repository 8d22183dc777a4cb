import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/bash/analyze.js';
import type { Analysis } from '../../src/bash/index.js';
import { loadBash } from '../../src/bash/parser.js';
import { classifyBash } from '../../src/policy/bash.js';
import type { DecisionContext } from '../../src/policy/context.js';
import { RuleIndex } from '../../src/policy/rule-index.js';
import { locatedPermissionRule } from '../../src/rules/permission/located.js';
import type { Rule } from '../../src/rules/types.js';

const HOME = '/home/u';
/** An empty working folder: the decisions that walk it (a producer's paths, a recursive read) see no files. */
const WORK = realpathSync(mkdtempSync(join(tmpdir(), 'automode-rule-index-')));
const lines = readFileSync(join(__dirname, '../../fixtures/nl2bash/commands.txt'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .filter((_, i) => i % 40 === 0);

const analyses: Analysis[] = [];
beforeAll(async () => {
  await loadBash();
  for (const line of lines) analyses.push(await analyze(line));
});

/** Words a rule may use: each command's own words (so that rules match), options, wildcards, home spellings. */
function wordsOf(line: string): string[] {
  return line.split(/\s+/).filter((w) => w !== '' && !w.includes(')'));
}

function ctx(index: RuleIndex): DecisionContext {
  return {
    cwd: WORK,
    home: HOME,
    mode: 'default',
    index,
    additionalDirectories: [],
    failed: [],
    hasModel: false,
  };
}

describe('Bash rules indexed by their first argument', () => {
  it('decide every corpus command as the unindexed rules do', () => {
    const extra = [
      '*',
      '-rf',
      '--force*',
      '~/x',
      '$HOME',
      'commit',
      'ci',
      'build:*',
      '-m',
      '/tmp',
      '--',
      '.',
    ];
    const ruleArb = fc.record({
      behavior: fc.constantFrom('allow', 'ask', 'deny'),
      line: fc.integer({ min: 0, max: lines.length - 1 }),
      words: fc.array(fc.oneof(fc.nat(8), fc.constantFrom(...extra)), { minLength: 0, maxLength: 3 }),
      tail: fc.constantFrom('', ' *', ':*', '*'),
    });
    fc.assert(
      fc.property(fc.array(ruleArb, { minLength: 1, maxLength: 60 }), (specs) => {
        const rules: Rule[] = [];
        specs.forEach((s, i) => {
          const own = wordsOf(lines[s.line]!);
          if (own.length === 0) return;
          const picked = s.words.map((w) => (typeof w === 'number' ? (own[w % own.length] ?? 'x') : w));
          const text = `Bash(${[own[0], ...picked].join(' ')}${s.tail})`;
          const located = locatedPermissionRule(
            text,
            s.behavior,
            { source: 'cliArg', root: WORK },
            undefined,
            [s.behavior, i],
          );
          if (located.rule) rules.push(located.rule);
        });
        const indexed = new RuleIndex(rules, { argumentIndexFrom: 0 });
        const plain = new RuleIndex(rules, { argumentIndexFrom: Number.POSITIVE_INFINITY });
        for (const analysis of analyses) {
          const got = classifyBash(analysis, ctx(indexed)).map((p) => [p.decision, p.rule?.text, p.reason]);
          const want = classifyBash(analysis, ctx(plain)).map((p) => [p.decision, p.rule?.text, p.reason]);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
