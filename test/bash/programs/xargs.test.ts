import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { onlyRunsCommand } from '../../../src/bash/index.js';

beforeAll(loadBash);

/** The command xargs runs: its words (`?` for one only known at run time) and whether its files are all known. */
function inner(line: string): { words: string; known: boolean } {
  const cmd = analyze(line).commands.find((c) => c.nested?.via === 'xargs')!;
  return { words: cmd.argv.map((w) => (w.static ? w.value : '?')).join(' '), known: cmd.effectsKnown };
}

describe('xargs', () => {
  test.each([
    // Appended words cannot name a file for a program that reads none.
    ['xargs echo', 'echo', true],
    ['xargs', 'echo', true],
    ['xargs -n1 basename', 'basename', true],
    // They can for one that reads its operands.
    ['xargs grep -n foo', 'grep -n foo', false],
    ['xargs wc -l', 'wc -l', false],
    // -I writes each input line wherever a word holds the string: the program's name too.
    ['xargs -I{} echo {}', 'echo {}', true],
    ['xargs -I echo echo hi', '? hi', false],
    ['xargs -i echo x{}', 'echo x{}', true],
    ['xargs --replace=% echo a%b c', 'echo a%b c', true],
    ['xargs -I % %cmd a', '? a', false],
  ])('%s runs %s', (line, words, known) => {
    expect(inner(line)).toEqual({ words, known });
  });

  test.each([
    ['xargs -0 -n 10 -P 4 echo', true],
    ['xargs -a list -I{} -d , -L 2 -r -t -x -s 100 echo', true],
    ['xargs --show-limits echo', true],
    ['xargs -p echo', false],
    ['xargs -o echo', false],
    ['xargs --process-slot-var=BASH_ENV echo', false],
    ['xargs --bogus echo', false],
  ])('%s only runs its command: %s', (line, only) => {
    const cmd = analyze(line).commands[0]!;
    expect(onlyRunsCommand({ argv: cmd.argv, assignments: [], program: 'xargs' })).toBe(only);
  });
});
