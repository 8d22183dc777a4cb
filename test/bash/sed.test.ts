import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parseSed, sedScriptSafety } from '../../src/bash/programs/sed/script.js';

describe('sed scripts: what they run, read and write', () => {
  test.each([
    ['s/[/]/x/;e rm x', ['e rm x']],
    ['s/[]/]/x/;e rm x', ['e rm x']],
    ['s/[^]/]/x/;e rm x', ['e rm x']],
    ['s/[[:alpha:]/]/x/;e rm x', ['e rm x']],
    ['s/[[.].]/]/x/;e rm x', ['e rm x']],
    ['s/[[=/=]]/x/;e rm x', ['e rm x']],
    ['/[/]/e rm x', ['e rm x']],
    ['\\%[%]%e rm x', ['e rm x']],
    ['s|a|b|;e rm x', ['e rm x']],
    ['s/a\\/b/c/;e rm x', ['e rm x']],
    ['y/a\\/b/xyz/;e rm x', ['e rm x']],
    ['1!e rm x', ['e rm x']],
    ['$!{e rm x\n}', ['e rm x']],
    ['/a/I,+3e rm x', ['e rm x']],
    ['0~4 e rm x', ['e rm x']],
    ['e', ['e']],
    ['e printf a\\tb', ['e']],
    ['s/a/b/e', ['s///e']],
    ['s/a/b/gIe;p', ['s///e']],
    ['s/a/b/ e', ['s///e']],
    ['a foo;e rm x', []],
    ['a\\\nfoo\\\ne rm x', []],
    ['a\\\nfoo\ne rm x', ['e rm x']],
    ['i\\e rm x', []],
    ['# e rm x\np', []],
    [':a;e rm x', ['e rm x']],
    ['ba;:a e rm x', ['e rm x']],
    ['y/e/f/;s/e/f/', []],
    ['r e rm x', []],
  ])('%j runs %j', (script, runs) => {
    const parsed = parseSed(script);
    expect(parsed.ok).toBe(true);
    expect(parsed.executes.map((x) => (x.command ? `${x.via} ${x.command}` : x.via))).toEqual(runs);
  });

  test.each([
    ['s/a/b/w out', [], ['out']],
    ['s/a/b/gw out;p', [], ['out;p']],
    ['1r in', ['in'], []],
    ['R in\nW out', ['in'], ['out']],
    ['/x/w out.txt', [], ['out.txt']],
    ['0r in', ['in'], []],
    ['0 r in', ['in'], []],
  ])('%j reads %j, writes %j', (script, reads, writes) => {
    const parsed = parseSed(script);
    expect(parsed.ok).toBe(true);
    expect(parsed.reads).toEqual(reads);
    expect(parsed.writes).toEqual(writes);
  });

  test.each([
    's/[/]x/',
    's/[[:alpha/]/x/',
    's/a/b/q',
    's/a/[/]/e',
    'bx',
    'v x',
    's/a/b/pp',
    's/a/b/0',
    'y/a/b/g',
    '1,2,3p',
    '1#c',
    '1:a',
    '}',
    '{p',
    'p}',
    'a',
    'r',
    's/a/b/w',
    'k',
    'I',
    '1!!p',
    'qx',
    'l5p',
    '0!r in',
    '0p',
    '0,5p',
    's\na\nb\n',
  ])('%j is rejected', (script) => {
    expect(parseSed(script).ok).toBe(false);
  });

  test.each([
    ['s/a/b/g', true],
    ['1,5p;$d;/x/!{N;P;D}', true],
    ['y/abc/xyz/', true],
    ['a\\\nfoo', true],
    ['s/a/b/e', false],
    ['e date', false],
    ['w out', false],
    ['r in', false],
    ['s/a/b/z', false],
  ])('%j read-only: %s', (script, readOnly) => {
    expect(sedScriptSafety(script).readOnly).toBe(readOnly);
  });
});

const GNU_SED = spawnSync('sed', ['--version'], { encoding: 'utf8' }).stdout?.includes('GNU sed') ?? false;

/** Pieces that combine into scripts that stress the places where a parser can lose track. */
// biome-ignore format: a table of pieces reads better packed
const PIECES = [
  's/a/b/', 's/[/]/x/', 's/[]/]/x/', 's/[^]/]/x/', 's/[[:alpha:]/]/x/', 's/[[.].]/]/x/', 's/[[=/=]]/x/',
  's|a|b|', 's,[,],x,', 's/a\\/b/c/', 's/a/\\n/g', 's/x[/', 's/[\\]/x/', 's/a/b/gIp', 's/a/b/ e', 's/a/b/3',
  's/a/b/w out', 's\\a\\b\\', 'y/ab/xy/', 'y/[/]/', 'y/a\\/b/xyz/', '/x/p', '/[/]/p', '\\%a%p', '\\%[%]%p',
  '/a/I,/b/M', '1,3', '0,/x/', '0', '0r in', '$', '1~2', '2,+3', '1,~4', '!', ' ', ';', '\n', '{', '}', 'p', 'd', 'N',
  'P', 'D', 'q', 'q 5', 'l', 'l 3', 'F', 'z', '=', 'x', 'h', 'G', ':a', 'ba', 'b', 't a', 'T', 'v',
  'a foo', 'a\\', 'i\\\nbar', 'c\\baz', 'e', 'e echo hi', 'r in', 'R in', 'w out', 'W out', '# c', '#',
  '\\', '[', ']', '/', 'e', 'w', ':', 'k', 's', 'y',
];

function randomScript(random: () => number): string {
  const n = 1 + Math.floor(random() * 5);
  let script = '';
  for (let k = 0; k < n; k++) script += PIECES[Math.floor(random() * PIECES.length)];
  return script;
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe.runIf(GNU_SED)('sed scripts agree with GNU sed (needs GNU sed)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sed-oracle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Accepted by sed, and whether --sandbox rejects it (it has e, r or w). Runs on no input: nothing executes. */
  function oracle(script: string): { accepted: boolean; sandboxed: boolean } {
    const run = (extra: string[]) =>
      spawnSync('sed', [...extra, '-n', '-e', script], { cwd: dir, input: '', encoding: 'utf8' }).status ===
      0;
    const accepted = run([]);
    return { accepted, sandboxed: accepted && !run(['--sandbox']) };
  }

  test('generated scripts', () => {
    const random = seeded(12);
    const disagreements: string[] = [];
    let accepted = 0;
    for (let k = 0; k < 1500; k++) {
      const script = randomScript(random);
      const truth = oracle(script);
      const mine = parseSed(script);
      const effects = mine.executes.length + mine.reads.length + mine.writes.length > 0;
      if (truth.accepted) accepted++;
      if (truth.accepted && !mine.ok)
        disagreements.push(`sed accepts, parse fails: ${JSON.stringify(script)}`);
      if (truth.accepted && mine.ok && truth.sandboxed !== effects)
        disagreements.push(`e/r/w: sed ${truth.sandboxed}, parse ${effects}: ${JSON.stringify(script)}`);
      if (!truth.accepted && mine.ok && !effects)
        disagreements.push(`sed rejects, parse accepts: ${JSON.stringify(script)}`);
    }
    console.log(
      `generated sed scripts: 1500, accepted by GNU sed: ${accepted}, disagreements: ${disagreements.length}`,
    );
    expect(accepted).toBeGreaterThan(300);
    expect(disagreements).toEqual([]);
  }, 300_000);
});
