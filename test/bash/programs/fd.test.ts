import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function readOnly(line: string): boolean {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true).readOnly;
}

/** The commands a line runs besides fd: their words and how they are linked. */
function runs(line: string): string[] {
  return analyze(line)
    .commands.filter((c) => c.nested)
    .map((c) => `${c.nested!.via}: ${c.argv.map((w) => w.value).join(' ')}`);
}

describe('fd', () => {
  test.each([
    'fd foo',
    'fdfind foo',
    'fd -e ts',
    'fd -H -I -t f env src',
    'fd -u',
    'fd -g "*.md" docs',
    'fd --search-path docs --search-path src',
    'fd -E node_modules -d 2 -0 --color=never x',
    'fd --changed-within 1d --size +1k -o root',
    'fd --format {/} md',
    'fd -1 -q x',
    'fd --exact main',
  ])('%s only reads', (line) => {
    expect(readOnly(line)).toBe(true);
  });

  // As find's -exec: what they run is a command of its own, decided on its own with the names as its arguments.
  test.each(['fd -x rm', 'fd -X wc -l', 'fd --exec-batch sh -c id', 'fd --exec=cat', 'fd -Hx cat', 'fd -l'])(
    '%s only reads itself',
    (line) => {
      expect(readOnly(line)).toBe(true);
    },
  );

  test.each(['fd -Lx cat', 'fd -HLx cat', 'fd -L -x cat'])('%s follows links: not read-only', (line) => {
    expect(readOnly(line)).toBe(false);
  });

  test.each([
    'fd -L x',
    'fd --follow x',
    'fd --base-directory ~/.ssh',
    'fd -C ~/.ssh x',
    'fd --ignore-file .env x',
    'fd --gen-completions',
    'fd --hid x',
    'fd --no-such-option x',
  ])('%s is not read-only', (line) => {
    expect(readOnly(line)).toBe(false);
  });

  test.each([
    ['fd foo', ['read .']],
    ['fd foo src docs', ['read src', 'read docs']],
    ['fd --search-path src foo', ['read src']],
    ['fd -x cat {} \\; foo src', ['read src']],
    ['fd --ignore-file ign x', ['read ign', 'read .']],
    ['fd -- -x src', ['read src']],
  ])('%s: %j', (line, effects) => {
    expect(shown(line)).toMatchObject({ known: true, effects });
  });

  test('fd -L follows the links below the folders it reads', () => {
    const cmd = analyze('fd -L x src').commands[0]!;
    expect(cmd.effects.map((e) => [e.path.value, e.followsLinks])).toEqual([['src', true]]);
    const clustered = analyze('fd -Lx cat').commands[0]!;
    expect(clustered.effects.map((e) => [e.path.value, e.followsLinks])).toEqual([['.', true]]);
  });

  test('fd --base-directory resolves its folders elsewhere: the files it touches are not all known', () => {
    expect(shown('fd --base-directory /tmp x').known).toBe(false);
  });

  test.each([
    ['fd -x rm', ['-x: rm']],
    ['fd -e zip -x unzip {} \\; -H', ['-x: unzip {}']],
    ['fd -X wc -l', ['-X: wc -l']],
    ['fd --exec=cat -n', ['--exec: cat -n']],
    ['fd -Hx cat', ['-x: cat']],
    ['fd -x echo a \\; -X echo b', ['-x: echo a', '-X: echo b']],
    ['fd -l src', ['-l: ls -l -h -d --color=auto']],
    ['fd -- -x', []],
  ])('%s runs %j', (line, commands) => {
    expect(runs(line)).toEqual(commands);
  });
});
