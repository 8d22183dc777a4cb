import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  return { readOnly, reason };
}

describe('gzip, gunzip and zcat', () => {
  test.each([
    'gzip -c notes.txt',
    'gzip --stdout -9 notes.txt',
    'gzip -ck --fast notes.txt',
    'gunzip -c logs/app.log.gz',
    'gzip -dc logs/app.log.gz',
    'gzip --decompress --stdout a.gz b.gz',
    'gzip -l a.gz',
    'gunzip --list -v a.gz',
    'gzip -t a.gz',
    'gunzip -tv a.gz',
    'zcat a.gz',
    'zcat -f notes.txt',
    'gzip --stdo notes.txt',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['gzip notes.txt', /replaces each file/],
    ['gunzip a.gz', /replaces each file/],
    ['gzip -k notes.txt', /replaces each file/],
    ['gzip -d -f a.gz', /replaces each file/],
    ['gzip -S .z -f notes.txt', /replaces each file/],
    ['gzip -cr src', /walks folders/],
    ['zcat -r logs', /walks folders/],
    ['gzip -c -b 3 notes.txt', /unknown option/],
    ['gzip --to-stdout notes.txt', /unknown option/],
    ['gunzip -d a.gz', /unknown option/],
  ])('%s does not (%s)', (line, why) => {
    const found = verdict(line);
    expect(found.readOnly).toBe(false);
    expect(found.reason).toMatch(why);
  });

  test('the files each form reads and writes', () => {
    expect(shown('zcat a.gz b.gz')).toMatchObject({ known: true, effects: ['read a.gz', 'read b.gz'] });
    expect(shown('gunzip -c a.gz').effects).toEqual(['read a.gz']);
    expect(shown('gunzip a.gz').effects).toEqual(['read a.gz', 'delete a.gz', 'create a']);
    expect(shown('gzip notes.txt').effects).toEqual([
      'read notes.txt',
      'delete notes.txt',
      'create notes.txt.gz',
    ]);
  });
});
