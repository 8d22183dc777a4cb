import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { printsAndExits } from '../../../src/bash/programs/self-info.js';
import { shown } from './support.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  return { readOnly, reason };
}

describe('unzip -Z and zipinfo read with zipinfo’s grammar', () => {
  test.each([
    'unzip -Z a.zip',
    'unzip -Z -1 a.zip',
    'unzip -Zl a.zip',
    'unzip -Z1 a.zip',
    'unzip -Z -hTt a.zip docs/x.md -x docs/y.md',
    'unzip -Z -T a.zip',
    'zipinfo a.zip',
    'zipinfo -2hz a.zip',
    'zipinfo -v a.zip README.md',
    'unzip -l a.zip',
  ])('%s only reads', (line) => {
    const v = verdict(line);
    expect(v.readOnly, v.reason).toBe(true);
  });

  test.each([
    ['unzip -Z', /without an archive/],
    ['zipinfo', /without an archive/],
    ['zipinfo -M a.zip', /pager/],
    ['unzip -Z -M a.zip', /pager/],
    ["zipinfo '*.zip'", /wildcard/],
    ['unzip -Zd out a.zip', /unknown option -d/],
    ['unzip -Z -d out a.zip', /unknown option -d/],
    ['unzip -l a.zip -Z', /not a read-only option/],
    ['unzip -T a.zip', /sets the archive’s time/],
    ['unzip -h a.zip', /prints the usage only alone/],
    ['unzip a.zip', /extracts/],
  ])('%s is not read-only (%s)', (line, why) => {
    const v = verdict(line);
    expect(v.readOnly).toBe(false);
    expect(v.reason).toMatch(why);
  });

  test('-h and -hh alone print the usage', () => {
    expect(printsAndExits('unzip', ['-h'])).toBe(true);
    expect(printsAndExits('unzip', ['-hh'])).toBe(true);
    expect(printsAndExits('zipinfo', ['-h'])).toBe(true);
    expect(printsAndExits('unzip', ['-h', 'a.zip'])).toBe(false);
  });

  test('zipinfo reads the archive only: member names are not files', () => {
    expect(shown('unzip -Z -1 a.zip .env -x secret.txt')).toMatchObject({
      known: true,
      effects: ['read a.zip'],
    });
    expect(shown('zipinfo -l a.zip')).toMatchObject({ known: true, effects: ['read a.zip'] });
    expect(shown('unzip -l a.zip')).toMatchObject({ effects: ['read a.zip'] });
  });
});
