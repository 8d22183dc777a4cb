import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { commandLine, shellWord } from '../../src/bash/render.js';
import type { Assignment, Word } from '../../src/bash/types.js';

const SPECIALS = [...` \t\n'"\\$\`!*?[]{}()<>|&;#~=:,@%+^-./`, 'é', '字', '\u00a0'];
const char = fc.oneof(fc.constantFrom(...SPECIALS), fc.constantFrom(...'abcXYZ019_'));
const value = fc.oneof(
  fc.string({ unit: char, maxLength: 8 }),
  fc.constantFrom('if', 'then', '!', '{', '}', '[[', 'time', 'a=b', 'A=~', '~', '~/x', 'x:~', '--opt=~', ''),
);
const BUILTINS = new Set(execFileSync('bash', ['-c', 'compgen -b'], { encoding: 'utf8' }).split('\n'));
/**
 * Command names bash's `hash -p` can bind: not empty, no slash (a path is run as a path), not a builtin, and not
 * starting with `%` (bash reads such a command as a job, quoted or not).
 */
const name = value.filter((v) => v !== '' && !v.includes('/') && !BUILTINS.has(v) && !v.startsWith('%'));
const PARSE_PROBLEMS = /^(syntax-error|missing-node|unknown-node|uncovered-text|misparse-)/;

function word(v: string): Word {
  return { text: v, value: v, static: true, dynamic: [], span: { start: 0, end: 0 } };
}

function assignment(n: string, v: string): Assignment {
  return { name: n, append: false, value: word(v), array: false, span: { start: 0, end: 0 } };
}

/** Runs each line in its own bash; what each printed, NUL-separated values. */
function bash(lines: string[]): string[][] {
  const script = lines.map((l) => `( ${l}\n) 2>/dev/null; printf '\\1'`).join('\n');
  const out = execFileSync('bash', ['--norc', '--noprofile', '-c', script], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8', HOME: '/home/h' },
    encoding: 'utf8',
  });
  return out
    .split('\u0001')
    .slice(0, -1)
    .map((s) => s.split('\0').slice(0, -1));
}

beforeAll(async () => {
  await loadBash();
});

describe('argv written back as a command line (shell-quote)', () => {
  it('bash reads every argument back unchanged', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 30 }),
        (argvs) => {
          const lines = argvs.map((argv) =>
            commandLine({ assignments: [], argv: ['printf', '%s\\0', ...argv].map(word) }),
          );
          expect(bash(lines)).toEqual(argvs);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('bash runs the word in command position as the command, whatever it is', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 30 }), (calls) => {
        // `hash -p` makes the name run printf: a reserved word or an assignment read as such would not.
        const lines = calls.map(
          ([n, arg]) =>
            `hash -p "$(type -P printf)" -- ${shellWord(n)}; ${commandLine({ assignments: [], argv: [n, '%s\\0', arg].map(word) })}`,
        );
        expect(bash(lines)).toEqual(calls.map(([, arg]) => [arg]));
      }),
      { numRuns: 30 },
    );
  });

  it('bash assigns every value back unchanged', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 30 }), (values) => {
        const lines = values.map(
          (v) => `${commandLine({ assignments: [assignment('A', v)], argv: [] })}; printf '%s\\0' "$A"`,
        );
        expect(bash(lines)).toEqual(values.map((v) => [v]));
      }),
      { numRuns: 30 },
    );
  });

  it('the analyzer parses the line back to the same assignments and argv', () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 2 }),
        name,
        fc.array(value, { maxLength: 5 }),
        (env, program, args) => {
          const assignments = env.map((v, i) => assignment(`V${i}`, v));
          const argv = [program, ...args].map(word);
          const line = commandLine({ assignments, argv });
          const a = analyze(line);
          expect(a.problems.filter((p) => PARSE_PROBLEMS.test(p.code))).toEqual([]);
          const [cmd] = a.commands;
          expect(cmd?.argv.map((w) => w.value)).toEqual([program, ...args]);
          expect(cmd?.assignments.map((x) => [x.name, x.value.value])).toEqual(
            env.map((v, i) => [`V${i}`, v]),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves plain words bare, so rules and explanations read as people write them', () => {
    const words = ['git', 'log', 'HEAD~1', '--format=%H', 'src/a.ts', 'user@host:/path', '-m', 'a,b', '1.2'];
    expect(commandLine({ assignments: [assignment('NODE_ENV', 'test')], argv: words.map(word) })).toBe(
      `NODE_ENV=test ${words.join(' ')}`,
    );
    expect(
      commandLine({ assignments: [], argv: ['git', 'commit', '-m', 'fix it', "it's", ''].map(word) }),
    ).toBe(`git commit -m 'fix it' "it's" ''`);
    expect(shellWord('if', true)).toBe(`'if'`);
    expect(shellWord('a=b', true)).not.toBe('a=b');
    expect(shellWord('a=b')).toBe('a=b');
  });
});
