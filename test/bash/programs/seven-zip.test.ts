import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { SEVEN_ZIP_LISTING } from '../../../src/bash/programs/seven-zip.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  return { readOnly, reason };
}

describe('7z', () => {
  test.each([
    '7z l a.7z',
    '7za l a.7z',
    '7zr t a.7z',
    '7zz l a.7z',
    '7z l -slt a.7z',
    '7z l -ba -bb3 -bd -bt a.7z',
    '7z t -p a.7z',
    '7z t -psecret a.7z',
    '7z l -tzip -r -y -spd -ssc- a.zip',
    '7z l -sccUTF-8 -bso1 -bse2 a.7z docs/x.md',
    '7z l a.7z -- @x',
    '7z i',
    '7z',
    '7z --help',
    '7zz -h',
    '7z h .env',
    '7z h',
    '7z h -scrcSHA256 -scrcsha3-256 -bb0 a.txt docs',
    "7z h '-scrc*' a.txt",
    "7z h -spd 'odd*name'",
    '7z b',
    '7z b -mmt=4',
    '7zz b -mm=LZMA2',
    "7z b 3 -md=64m -mmt4 '-mm=*'",
    '7z t -scrcSHA256 a.7z',
    '7z l -scrcsha1 a.7z',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['7z x a.7z', /not a known read-only subcommand/],
    ['7z e a.7z', /not a known read-only subcommand/],
    ['7z a a.7z .', /not a known read-only subcommand/],
    ['7z u a.7z x', /not a known read-only subcommand/],
    ['7z d a.7z x', /not a known read-only subcommand/],
    ['7z rn a.7z x y', /not a known read-only subcommand/],
    ['7z b -o/etc', /not a read-only option/],
    ['7z b -w/tmp', /not a read-only option/],
    ['7z b -sdel', /not a read-only option/],
    ['7z b -mf=off', /not a benchmark switch/],
    ['7z b -mx=9x', /not a benchmark switch/],
    ['7z b x', /number of passes/],
    ['7z b 1 2', /arguments/],
    ['7z t -scrcROT13 a.7z', /not a read-only switch/],
    ['7z h -r a.txt', /not a read-only/],
    ['7z h -scrc* a.txt', /only known at run time/],
    ['7z h -scrcROT13 a.txt', /not a read-only switch/],
    ['7z h -i!*.txt', /not a read-only option/],
    ['7z h -x!a a.txt', /not a read-only option/],
    ["7z h '*.txt'", /wildcard/],
    ['7z h @list', /names listed in list/],
    ['7z h -so a.txt', /not a read-only switch/],
    ['7z h -w. a.txt', /not a read-only option/],
    ['7z -h x a.7z', /not a known read-only subcommand/],
    ['7z --help a.7z', /not a known read-only subcommand/],
    ['7z L a.7z', /not a known read-only subcommand/],
    ['7z l -SLT a.7z', /unknown option/],
    ['7z l -oout a.7z', /not a read-only option/],
    ['7z t -so a.7z', /not a read-only switch/],
    ['7z l -si a.7z', /not a read-only switch/],
    ['7z l -i@list a.7z', /not a read-only option/],
    ['7z l -ai!*.7z', /not a read-only option/],
    ['7z l -seml a.7z', /not a read-only switch/],
    ['7z l -w a.7z', /not a read-only option/],
    ['7z -slt l a.7z', /is not a read-only option/],
    ['7z l a.7z @list', /names listed in list/],
    ["7z l '*.7z'", /wildcard/],
    ['7z l a.7z.001', /other volumes/],
    ['7z t a.part1.rar', /other volumes/],
    ['7z l -tsplit a.7z', /not a read-only switch/],
    ['7z l', /without an archive/],
    ['7z i a.7z', /arguments/],
  ])('%s is not read-only (%s)', (line, why) => {
    const v = verdict(line);
    expect(v.readOnly).toBe(false);
    expect(v.reason).toMatch(why);
  });

  test.each([
    ['7z l a.7z', true, ['read a.7z']],
    ['7z t a.7z x', true, ['read a.7z']],
    ['7z a o.7z ~/.ssh', true, ['read o.7z', 'write o.7z', 'read ~/.ssh']],
    ['7z a -mx9 o.7z docs', true, ['read o.7z', 'write o.7z', 'read docs']],
    ['7z x o.7z -oout', false, ['read o.7z', 'write out']],
    ['7z l a.7z @list', false, ['read list', 'read ⟨$⟩', 'read a.7z']],
    ['7z h .env docs', true, ['read .env', 'read docs']],
    ['7z h -scrcSHA256', true, ['read .']],
    ['7z --help', true, []],
    ['7z', true, []],
  ])('%s: known %s, %j', (line, known, effects) => {
    expect(shown(line)).toMatchObject({ known, effects });
  });

  test('the listing the write-set code runs is read-only by this module', () => {
    const line = ['7z', ...SEVEN_ZIP_LISTING, 'a.7z'].join(' ');
    expect(verdict(line)).toMatchObject({ readOnly: true });
  });

  test('the grammar knows every switch `7z --help` lists, by its first letter, and no other letter', () => {
    const help = spawnSync('7z', ['--help'], { encoding: 'utf8' });
    expect(help.error, '7z is installed (scripts/setup-sandbox.sh)').toBeUndefined();
    const letters = new Set([...help.stdout.matchAll(/^ {2}-([a-z])/gm)].map((m) => m[1]!));
    expect([...letters].sort().join('')).toBe([...programSpec('7z')!.grammar.optional].sort().join(''));
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+) : /gm)].map((m) => m[1]!);
    expect(commands.sort()).toEqual(Object.keys(programSpec('7z')!.subcommands!).sort());
  });
});
