import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, analyzeParsed, loadBash } from '../../src/bash/analyze.js';
import { plainCommands } from '../../src/bash/simple.js';
import type { Analysis } from '../../src/bash/types.js';

const nl2bash = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);

beforeAll(async () => {
  await loadBash();
});

/**
 * The plain path must give exactly what tree-sitter gives, or decline. One exception: tree-sitter-bash reads
 * `a | b | c || d` as `a | (b | c || d)`, so where pipes and `&&`/`||` mix, its `list` and `pipeline` flags
 * can differ from bash's structure (which the plain path follows). The commands themselves must agree.
 */
function samePath(src: string): boolean {
  let n = 0;
  const plain = plainCommands(src, () => n++);
  if (!plain) return false;
  const mixed = /\|/.test(src.replaceAll('||', '')) && /&&|\|\|/.test(src);
  const comparable = (a: Analysis) =>
    JSON.parse(JSON.stringify(a), (key, value) =>
      key === 'context' && mixed
        ? (value as string[]).filter((f) => f !== 'list' && f !== 'pipeline')
        : value,
    );
  expect(comparable(analyze(src)), src).toEqual(comparable(analyzeParsed(src)));
  return true;
}

describe('plain command lines without tree-sitter', () => {
  it('agree with the full parse on every eligible NL2Bash line', () => {
    let eligible = 0;
    for (const src of nl2bash) if (samePath(src)) eligible++;
    expect(eligible).toBeGreaterThan(9000);
  });

  it('agree on hand-picked lines, and decline keywords and odd syntax', () => {
    for (const src of [
      'ls -la',
      'git status && git diff | head -20; echo done &',
      'FOO=1 BAR=2 npm test',
      'FOO=1',
      'a=1 b=2',
      'npm run build || exit 1',
      'cat a |& grep b',
      'sudo -u ci timeout 5 npm test',
      'env X=1 ls',
      'find . -name x -delete',
      'xargs rm',
      '. ./env.sh',
      "grep -rn 'foo bar' src | head -5",
      'find . -name "*.ts" -newer \'a b\'',
      'git commit -m "fix: the thing"',
      'echo \'a;b|c\' "d&e"',
      'echo "$HOME" $PWD/x "a $USER b"',
      "find . -name '*.log' -exec rm -f {} \\;",
      'ls *.ts src/?.js',
      'grep a\\|b file',
    ]) {
      expect(samePath(src), src).toBe(true);
    }
    for (const src of [
      'if',
      'time ls',
      'ls;; rm x',
      'ls &&',
      '| ls',
      'ls &> f',
      'X+=1 ls',
      '=x ls',
      'in x',
      ' ',
      'echo "a\\b"',
      'echo "$(ls)"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell word, not a template
      'echo "${x:-y}"',
      'echo $a[1]',
      'echo \\ x',
      'find . {a,b}',
      "echo 'unterminated",
      '"ls" -la',
    ]) {
      let n = 0;
      expect(
        plainCommands(src, () => n++),
        src,
      ).toBeUndefined();
    }
  });

  it('agree on generated lines', () => {
    const plain = fc.stringMatching(/^[A-Za-z0-9_\-./=:,@%+~]{1,6}$/);
    const special = fc.constantFrom(
      '*',
      '?',
      '{}',
      '{',
      '}',
      '\\;',
      '\\(',
      '\\\\',
      '\\"',
      "\\'",
      '\\ ',
      '$x',
      '$HOME',
      '$a_1',
      '$',
      '$1',
    );
    const inner = fc
      .array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9 _*?|;&<>(){}#~=$!\\.-]{0,4}$/), special), {
        maxLength: 3,
      })
      .map((parts) => parts.join(''));
    const quoted = fc.oneof(
      inner.map((t) => `'${t.replaceAll("'", '')}'`),
      inner.map((t) => `"${t.replaceAll('"', '')}"`),
    );
    const word = fc
      .array(
        fc.oneof(
          { weight: 3, arbitrary: plain },
          { weight: 1, arbitrary: quoted },
          { weight: 1, arbitrary: special },
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => parts.join(''));
    const name = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,5}$/);
    const command = fc
      .tuple(name, fc.array(word, { maxLength: 4 }))
      .map(([n, args]) => [n, ...args].join(' '));
    const op = fc.constantFrom(' | ', '|', ' && ', '||', '; ', ' & ', '|&', ';', '&');
    const line = fc
      .tuple(command, fc.array(fc.tuple(op, command), { maxLength: 4 }))
      .map(([first, rest]) => first + rest.map(([o, c]) => o + c).join(''));
    let eligible = 0;
    fc.assert(
      fc.property(line, (src) => {
        if (samePath(src)) eligible++;
      }),
      { numRuns: 20000, seed: 20261129 },
    );
    expect(eligible).toBeGreaterThan(5000);
  });
});
