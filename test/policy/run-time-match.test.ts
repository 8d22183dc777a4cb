import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../src/bash/analyze.js';
import type { SimpleCommand } from '../../src/bash/index.js';
import { loadBash } from '../../src/bash/parser.js';
import { denyMatches, mayMatch, viewsOf } from '../../src/policy/bash-match.js';
import { ANY, intersects, type Piece, patternPieces } from '../../src/policy/wildcards.js';
import { parseBashPattern } from '../../src/rules/index.js';

const HOME = '/home/u';

beforeAll(loadBash);

async function command(line: string): Promise<SimpleCommand> {
  const analysis = await analyze(line);
  const cmd = analysis.commands[0];
  if (!cmd) throw new Error(`no command in ${line}`);
  return cmd;
}

async function may(rule: string, line: string): Promise<boolean> {
  return mayMatch(parseBashPattern(rule).pattern, viewsOf(await command(line), HOME), HOME);
}

describe('a rule and a command with words known only at run time', () => {
  const cases: [rule: string, line: string, expected: boolean][] = [
    ['git push --force *', 'git diff foo-$(date -u).txt', false],
    ['docker system prune *', 'docker logs app-$(date +%Y%m%d)', false],
    ['kubectl delete *', 'kubectl get pods $NAME', false],
    ['git push --force *', 'git log -n $N', false],
    ['rm -rf /', 'cat $FILE', false],
    ['git push --force *', 'git push $REMOTE', true],
    ['git push --force *', 'git push origin "$BRANCH"', true],
    ['git push --force *', 'git $SUB', true],
    ['git push --force *', 'git -C $DIR push', true],
    ['git push --force *', 'git -C "$DIR" diff', false],
    ['git push --force *', 'git send-pack $URL main', true],
    ['kubectl delete *', 'kubectl $FLAG get pods', true],
    ['rm -rf /', 'rm -rf $DIR', true],
    ['rm -rf /', 'rm $FLAGS /', true],
    ['rm -rf /', 'rm -rf /tmp/$X', true],
    ['rm -rf /', 'rm -rf "/tmp/$X"', false],
    ['rm -rf /', 'rm -rf "$X"', true],
    ['git push --force *', 'git "pu$X"', true],
    ['rm -rf ~', 'rm -rf $HOME/$X', true],
    ['rm -rf /home/u/*', 'rm ~/cache $X', true],
    ['git stash drop *', 'git stash $X', true],
    ['git stash drop *', 'git stash list $X', false],
    ['docker system prune *', 'docker $(echo system) prune', true],
    ['terraform destroy', 'terraform plan -out=$F', false],
  ];
  it.each(cases)('%s against %s: %s', async (rule, line, expected) => {
    expect(await may(rule, line)).toBe(expected);
  });
});

/** Every string over `alphabet` of at most `length` characters. */
function strings(alphabet: readonly string[], length: number): string[] {
  const out = [''];
  let last = [''];
  for (let n = 0; n < length; n++) {
    last = last.flatMap((s) => alphabet.map((c) => s + c));
    out.push(...last);
  }
  return out;
}

function regexOf(pieces: readonly Piece[]): string {
  return pieces
    .map((p) =>
      p === ANY
        ? '[\\s\\S]*'
        : typeof p === 'string'
          ? p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          : `(?:${regexOf(p.optional)})?`,
    )
    .join('');
}

describe('intersects', () => {
  const SHORT = strings(['a', 'b', ' '], 6);
  const piece = fc.oneof(
    fc.constantFrom<Piece>('a', 'b', ' ', 'ab', ' a', ANY),
    fc.array(fc.constantFrom<Piece>('a', ' ', ANY), { maxLength: 2 }).map((optional) => ({ optional })),
  );
  const side = fc.array(piece, { maxLength: 3 });
  it('agrees with a brute force over short strings', () => {
    fc.assert(
      fc.property(side, side, (a, b) => {
        const ra = new RegExp(`^${regexOf(a)}$`);
        const rb = new RegExp(`^${regexOf(b)}$`);
        const brute = SHORT.some((s) => ra.test(s) && rb.test(s));
        expect(intersects(a, b)).toBe(brute);
      }),
      { numRuns: 150 },
    );
  });
  it('reads a rule pattern as Claude Code does', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab][ab *]{0,4}$/), (source) => {
        const parsed = parseBashPattern(source).pattern;
        const body = parsed.wordBoundary ? parsed.source.slice(0, -2) : parsed.source;
        const re = new RegExp(`^${regexOf(patternPieces(body, parsed.wordBoundary))}$`);
        const real = new RegExp(parsed.regex);
        expect(SHORT.filter((s) => re.test(s))).toEqual(SHORT.filter((s) => real.test(s)));
      }),
      { numRuns: 50 },
    );
  });
});

describe('mayMatch', () => {
  const RULES = [
    'git push --force *',
    'git push origin main',
    'git stash drop *',
    'git clean -fd',
    'rm -rf /',
    'rm -rf *',
    'rm -r /tmp/*',
    'kubectl delete *',
    'kubectl -n prod *',
    'docker system prune *',
  ].map((r) => parseBashPattern(r).pattern);
  const WORDS = [
    'push',
    'diff',
    'stash',
    'drop',
    'clean',
    '--force',
    '-f',
    '-rf',
    '-d',
    '-C',
    'x',
    '/',
    '/tmp/a',
    'origin',
    'main',
    '--',
    'delete',
    'get',
    '-n',
    'prod',
    'system',
    'prune',
    '+main',
  ];
  const PROGRAMS = ['git', 'rm', 'kubectl', 'docker'];
  it('holds for every line the command can become that a rule matches', async () => {
    const lines = fc.sample(
      fc.tuple(
        fc.constantFrom(...PROGRAMS),
        fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
        fc.nat(3),
        fc.constantFrom('$X', '"$X"', 'a$X', '"a$X"', '"-$X"'),
      ),
      { numRuns: 30, seed: 7 },
    );
    for (const [program, words, at, dynamic] of lines) {
      const place = Math.min(at, words.length);
      const template = [program, ...words.slice(0, place), dynamic, ...words.slice(place)];
      const views = viewsOf(await command(template.join(' ')), HOME);
      for (const value of ['', ...WORDS, '-rf /', 'push --force', 'drop x']) {
        const quoted = dynamic.startsWith('"');
        const known = dynamic.replace(/"/g, '').replace('$X', value);
        if (quoted && value.includes("'")) continue;
        const text = quoted ? `'${known}'` : known;
        const line = [program, ...words.slice(0, place), text, ...words.slice(place)].join(' ');
        const concrete = viewsOf(await command(line), HOME);
        for (const rule of RULES) {
          if (denyMatches(rule, concrete, HOME) && !mayMatch(rule, views, HOME))
            throw new Error(`${rule.source} matches ${line} but not ${template.join(' ')}`);
        }
      }
    }
  });
});
