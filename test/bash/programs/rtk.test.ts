import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';

beforeAll(loadBash);

/** The commands rtk runs on a line, and what cannot be analysed. */
function runs(line: string): string[] {
  const analysis = analyze(line);
  return [
    ...analysis.commands
      .filter((c) => c.nested)
      .map((c) => `${c.nested!.via}: ${c.argv.map((w) => w.value).join(' ')}`),
    ...analysis.problems.map((p) => `unresolved: ${p.message}`),
  ];
}

function readOnly(line: string): boolean {
  const cmd = analyze(line).commands[0]!;
  return checkProgram(programSpec('rtk')!, cmd.argv, true).readOnly;
}

describe('rtk', () => {
  test.each([
    ['rtk git status', ['rtk: git status']],
    ['rtk git -C sub --no-pager log -5', ['rtk: git -C sub --no-pager log -5']],
    ['rtk ls -la src', ['rtk: ls -la src']],
    ['rtk tree -L 2', ['rtk: tree -L 2']],
    ['rtk wc -l a b', ['rtk: wc -l a b']],
    ['rtk proxy git status', ['rtk proxy: git status']],
    ['rtk --ultra-compact proxy make', ['rtk proxy: make']],
    // Not one of its subcommands: clap fails and rtk runs the line as it is.
    ['rtk cat README.md', ['rtk: cat README.md']],
    ['rtk head -5', ['rtk: head -5']],
    ["rtk sh -c 'rm -rf x'", ['rtk: sh -c rm -rf x', 'sh -c: rm -rf x']],
  ])('%s runs %j', (line, expected) => {
    expect(runs(line)).toEqual(expected);
  });

  test.each([
    ['rtk git add', /adds every file/],
    ['rtk git', /without a subcommand/],
    ['rtk -v cat x', /options before a command/],
    ['rtk read x', /rtk read runs what its own code chooses/],
    ['rtk run -c ls', /rtk run runs what its own code chooses/],
    ['rtk init -g', /rtk init runs what its own code chooses/],
    ['rtk "$X" status', /may be an option/],
    ['rtk --no-such-option ls', /rtk/],
  ])('%s cannot be analysed (%s)', (line, reason) => {
    const analysis = analyze(line);
    expect(analysis.opaque || analysis.problems.length > 0).toBe(true);
    expect(analysis.problems.map((p) => p.message).join('\n')).toMatch(reason);
  });

  test.each([
    'rtk help',
    'rtk help gain',
    'rtk gain',
    'rtk gain --history',
    'rtk gain -H',
    'rtk gain -p -g -q -t pro -a -f json -F',
  ])('%s only reads', (line) => {
    expect(readOnly(line)).toBe(true);
    expect(runs(line)).toEqual([]);
  });

  test.each([
    'rtk gain --reset',
    'rtk gain --reset --yes',
    'rtk config --create',
    'rtk trust',
    'rtk gain --nope',
  ])('%s is not read-only', (line) => {
    expect(readOnly(line)).toBe(false);
  });
});
