import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from 'vitest';
import { loadBash } from '../../../src/bash/analyze.js';
import { psqlCommandProblem } from '../../../src/bash/programs/psql.js';
import { programSpec } from '../../../src/bash/programs/registry.js';
import { shown } from './support.js';

beforeAll(loadBash);

describe('psql', () => {
  test('the short options are the ones `psql --help` lists, with a value where it shows one', () => {
    const help = spawnSync('psql', ['--help'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
    });
    expect(help.error, 'psql is installed (scripts/setup-sandbox.sh)').toBeUndefined();
    const flags = new Set<string>();
    const values = new Set<string>();
    for (const m of help.stdout.matchAll(/^ {2}-(.)(?: \("one"\))?, --[\w-]+(=|\[=)?/gm)) {
      (m[2] === '=' ? values : flags).add(m[1]!);
    }
    const g = programSpec('psql')!.grammar;
    expect([...g.values].sort()).toEqual([...values].sort());
    expect([...g.flags].sort()).toEqual([...flags].sort());
  });

  test.each([
    '\\dt',
    '\\d users',
    '\\d+ public.users',
    '\\dt+ app.*',
    '\\conninfo',
    '\\dn',
    'SELECT 1',
    "SELECT * FROM users WHERE email LIKE '%@example.com'",
  ])('%j only reads', (text) => {
    expect(psqlCommandProblem(text)).toBeUndefined();
  });

  test.each([
    '\\! id',
    '\\dt \\! id',
    '\\o /tmp/x',
    '\\copy t to x.csv',
    '\\i x.sql',
    '\\ir x.sql',
    '\\w x.sql',
    '\\g /tmp/x',
    '\\gexec',
    '\\set x 1',
    '\\d `id`',
    '\\d :x',
    "\\d 'x'",
    '\\lo_export 1 /tmp/x',
    '\\setenv PAGER sh',
    '\\l',
    '\\pset pager on',
    'SELECT 1 \\g /tmp/x',
  ])('%j may do more than read', (text) => {
    expect(psqlCommandProblem(text)).toBeDefined();
  });

  test.each([
    ["psql -c 'SELECT 1' mydb", { known: true, effects: [], code: [] }],
    ['psql -f x.sql mydb', { known: true, effects: ['read x.sql'], code: ['script-file -f'] }],
    ["psql -c 'SELECT 1' -o out.txt", { known: true, effects: ['write out.txt'], code: [] }],
    ["psql -c 'SELECT 1' -o '|sh'", { known: false, effects: [], code: ['program-option -o'] }],
    ['psql mydb', { known: true, effects: [], code: ['stdin stdin'] }],
    ["psql -c '\\! id'", { known: true, effects: [], code: ['program-option -c'] }],
  ])('%s: %j', (line, expected) => {
    expect(shown(line)).toEqual(expected);
  });
});
