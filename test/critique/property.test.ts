import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { regexLanguage, wildcardLanguage } from '../../src/critique/automata.js';
import { matchBashPattern, parseBashPattern } from '../../src/rules/permission/bash.js';

/** Small regexes over `a`, `b` and space, with anchors, word boundaries and simple lookarounds. */
const atom = fc.constantFrom(
  'a',
  'b',
  ' ',
  '.',
  '[ab]',
  '[^a]',
  '\\w',
  '\\W',
  '^',
  '$',
  '\\b',
  '\\B',
  '(?=a)',
  '(?!b)',
  '(?<= )',
  '(?<!a)',
);
const regex: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `${x}${y}`),
    fc.tuple(tie('node'), tie('node')).map(([x, y]) => `(?:${x}|${y})`),
    fc.tuple(tie('node'), fc.constantFrom('*', '+', '?')).map(([x, q]) => `(?:${x})${q}`),
  ),
})).node as fc.Arbitrary<string>;

const subject = fc.array(fc.constantFrom('a', 'b', ' '), { maxLength: 6 }).map((cs) => cs.join(''));

function accepts(source: string, s: string): boolean | undefined {
  const result = regexLanguage(source);
  if ('error' in result || result.language.approximation) return undefined;
  const word = [0xe000, ...[...s].map((c) => c.charCodeAt(0)), 0xe001];
  return result.language.nfa.test(word);
}

describe('the framed automaton of a regex is exactly its search language', () => {
  it('agrees with RegExp.test on every subject (when it claims to be exact)', () => {
    let exact = 0;
    fc.assert(
      fc.property(regex, fc.array(subject, { minLength: 8, maxLength: 8 }), (source, subjects) => {
        const real = new RegExp(source);
        for (const s of subjects) {
          const got = accepts(source, s);
          if (got === undefined) return;
          expect(got, `/${source}/ on ${JSON.stringify(s)}`).toBe(real.test(s));
        }
        exact++;
      }),
      { numRuns: 400 },
    );
    expect(exact).toBeGreaterThan(150);
  });
});

describe('the automaton of a Bash wildcard rule is exactly what matchBashPattern matches', () => {
  it('agrees on every subject', () => {
    const spec = fc
      .tuple(
        fc.array(fc.constantFrom('a', 'b', ' ', '*', ':'), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('', ' *', ':*'),
      )
      .map(([cs, tail]) => `${cs.join('')}${tail}`)
      .filter((s) => s.trim() !== '' && s.trim() !== '*' && s.trim() !== ':*');
    fc.assert(
      fc.property(spec, fc.array(subject, { minLength: 8, maxLength: 8 }), (text, subjects) => {
        const { pattern } = parseBashPattern(text);
        const body = pattern.legacyColonStar
          ? pattern.source.slice(0, -2).trimEnd()
          : pattern.wordBoundary
            ? pattern.source.slice(0, -2)
            : pattern.source;
        const language = wildcardLanguage(body, pattern.wordBoundary, pattern.regex, () => false);
        for (const s of subjects) {
          const word = [0xe000, ...[...s].map((c) => c.charCodeAt(0)), 0xe001];
          expect(language.nfa.test(word), `${text} on ${JSON.stringify(s)}`).toBe(
            matchBashPattern(pattern, s),
          );
        }
      }),
      { numRuns: 400 },
    );
  });
});
