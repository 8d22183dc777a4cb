import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { literalOutput, xargsWords } from '../../../src/bash/programs/path-producers.js';

beforeAll(loadBash);

function printed(line: string): string | undefined {
  const cmd = analyze(line).commands[0]!;
  return literalOutput({ argv: cmd.argv, assignments: cmd.assignments, program: cmd.name!.program });
}

describe('what echo and printf print', () => {
  test.each([
    ['echo a.txt', 'a.txt\n'],
    ["echo 'a b' c", 'a b c\n'],
    ['echo', '\n'],
    ["printf '%s\\n' a b", 'a\nb\n'],
    ["printf '%s\\0' a b", 'a\0b\0'],
    ["printf '%s %s\\n' a b c", 'a b\nc \n'],
    ["printf 'x\\n'", 'x\n'],
    ["printf '%s\\t%%\\n' a", 'a\t%\n'],
  ])('%s prints %j', (line, out) => {
    expect(printed(line)).toBe(out);
  });

  test.each([
    'echo -n a',
    'echo -e a',
    'echo "a\\nb"',
    'echo ~/x',
    "echo '~/x'",
    'echo $HOME',
    'echo *.txt',
    'echo "$(ls)"',
    "printf '%b' a",
    "printf '%d\\n' 1",
    "printf '%q' a",
    "printf -v x '%s' a",
    "printf '\\x41'",
    'printf',
    'X=1 echo a',
    'cat a',
  ])('%s: not known', (line) => {
    expect(printed(line)).toBeUndefined();
  });
});

describe('the arguments xargs makes of a known input', () => {
  test.each([
    ['a b\nc\n', { split: 'blanks' }, ['a', 'b', 'c']],
    ['  a\t b  \n', { split: 'blanks' }, ['a', 'b']],
    ['a b\nc\n', { split: 'newline' }, ['a b', 'c']],
    ['a\0b c\0', { split: 'nul' }, ['a', 'b c']],
    ['  a b\nc\n', { split: 'blanks', replace: '{}' }, ['a b', 'c']],
    ['  a\n', { split: 'newline', replace: 'X' }, ['  a']],
  ] as const)('%j split %j', (input, how, words) => {
    expect(xargsWords(input, how)).toEqual(words);
  });

  test.each([
    ["'a b'\n", { split: 'blanks' }],
    ['"a"\n', { split: 'blanks' }],
    ['a\\ b\n', { split: 'blanks' }],
    ['\n', { split: 'blanks' }],
    ['', { split: 'nul' }],
    ['a\n\nb\n', { split: 'newline' }],
    ['a\0b\n', { split: 'newline' }],
    ['a\n', { split: 'blanks', eof: true }],
  ] as const)('%j split %j: not known', (input, how) => {
    expect(xargsWords(input, how)).toBeUndefined();
  });
});
