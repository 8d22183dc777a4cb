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

describe('iconv', () => {
  test.each([
    'iconv -l',
    'iconv --list',
    'iconv -f UTF-8 -t ASCII//TRANSLIT notes.txt',
    'iconv --from-code=latin1 --to-code=utf-8 -c -s a.txt b.txt',
    'iconv --verbose -t utf-16 notes.txt',
    'iconv --usage',
  ])('%s only reads', (line) => {
    expect(verdict(line).readOnly).toBe(true);
  });

  test.each([
    ['iconv -f latin1 -t utf-8 -o out.txt notes.txt', /writes its output to a file/],
    ['iconv --output=out.txt notes.txt', /writes its output to a file/],
    ['iconv -x notes.txt', /unknown option/],
  ])('%s does not (%s)', (line, why) => {
    const found = verdict(line);
    expect(found.readOnly).toBe(false);
    expect(found.reason).toMatch(why);
  });

  test('its files are read and -o written', () => {
    expect(shown('iconv -f latin1 -t utf-8 -o out.txt a.txt')).toMatchObject({
      known: true,
      effects: ['write out.txt', 'read a.txt'],
    });
  });

  test('a converter folder or openssl configuration set in the command is code no rule has seen', () => {
    expect(shown('GCONV_PATH=. iconv -f x -t utf-8 a.txt').code).toEqual(['environment GCONV_PATH']);
    expect(shown('OPENSSL_CONF=x.cnf openssl version').code).toEqual(['environment OPENSSL_CONF']);
  });

  test('iconv and xxd print their help and version and exit, with no other word', () => {
    expect(printsAndExits('iconv', ['--usage'])).toBe(true);
    expect(printsAndExits('xxd', ['--help'])).toBe(true);
    expect(printsAndExits('xxd', ['-v'])).toBe(true);
    expect(printsAndExits('xxd', ['--help', 'out.bin'])).toBe(false);
  });
});
