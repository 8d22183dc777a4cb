import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leadingWords, PatternIndex } from '../../src/policy/pattern-index.js';
import type { PatternRule } from '../../src/rules/types.js';

function rule(text: string): PatternRule {
  return {
    type: 'pattern',
    behavior: 'deny',
    text,
    tool: 'Bash',
    field: 'command',
    label: text,
    provenance: { source: 'ruleFile', pointer: '', index: 0 },
  };
}

describe('pattern rules indexed by their leading word', () => {
  it('reads the literal words an anchored regex starts with', () => {
    expect(leadingWords('^git push( .*)? -f')).toEqual(['git']);
    expect(leadingWords('^(nc|ncat|netcat)( .*)? -e')).toEqual(['nc', 'ncat', 'netcat']);
    expect(leadingWords('^(vault kv (put|delete)|vault write|kubectl create secret)')).toEqual([
      'vault',
      'vault',
      'kubectl',
    ]);
    expect(leadingWords('rm -rf')).toBeUndefined();
    expect(leadingWords('^.*rm')).toBeUndefined();
    expect(leadingWords('^(a|.*)x')).toBeUndefined();
    expect(leadingWords('^rm*x')).toBeUndefined();
    expect(leadingWords('^(rm)?x')).toBeUndefined();
  });

  it('never leaves out a rule that matches (generated regexes and lines)', () => {
    const word = fc.constantFrom('rm', 'rmdir', 'git', 'nc', 'ncat', 'x', 'g', '/bin/rm', 'a.b');
    const tail = fc.constantFrom('', '( |$)', ' -rf', '.*', '( .*)?', '[a-z]+', 's?', '+', '*', '{2}', '|ls');
    const regex = fc.oneof(
      fc.tuple(word, tail).map(([w, t]) => `^${w}${t}`),
      fc.tuple(word, word, tail).map(([a, b, t]) => `^(${a}|${b})${t}`),
      fc.tuple(word, tail).map(([w, t]) => `${w}${t}`),
    );
    const line = fc
      .tuple(word, fc.constantFrom('', ' -rf /', 'x', 's', ' x'))
      .map(([w, rest]) => `${w}${rest}`);
    fc.assert(
      fc.property(
        fc.array(regex, { minLength: 1, maxLength: 6 }),
        fc.array(line, { minLength: 1, maxLength: 3 }),
        (sources, lines) => {
          const rules = sources.map(rule);
          const order = new Map(rules.map((r, i) => [r, i]));
          const candidates = new Set(new PatternIndex(rules).candidates(lines, order));
          for (const r of rules) {
            if (lines.some((l) => new RegExp(r.text).test(l)))
              expect(candidates.has(r), `${r.text} on ${lines}`).toBe(true);
          }
        },
      ),
      { numRuns: 3000, seed: 20261129 },
    );
  });
});
