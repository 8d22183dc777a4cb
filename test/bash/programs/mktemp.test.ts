import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../../src/bash/analyze.js';
import { checkProgram } from '../../../src/bash/programs/read-only.js';
import { programModule, programSpec } from '../../../src/bash/programs/registry.js';

beforeAll(loadBash);

function verdict(line: string): { readOnly: boolean; reason: string; known: boolean } {
  const cmd = analyze(line).commands[0]!;
  const { readOnly, reason } = checkProgram(programSpec(cmd.name!.program)!, cmd.argv, true);
  const effects = programModule('mktemp')!.effects!({ argv: cmd.argv, assignments: [], program: 'mktemp' });
  return { readOnly, reason, known: effects.known && effects.effects.length === 0 };
}

describe('mktemp -u only prints a name', () => {
  test.each([
    'mktemp -u',
    'mktemp -u tmp.XXXXXX',
    'mktemp -du',
    'mktemp --dry-run -t build.XXXXXXXX',
    'mktemp -u -p /tmp x.XXXX',
    'mktemp -q -u --suffix=.json',
    'mktemp --tmpdir -u run.XXXX',
  ])('%s', (line) => {
    expect(verdict(line)).toMatchObject({ readOnly: true, known: true });
  });

  test.each([
    'mktemp',
    'mktemp -d',
    'mktemp tmp.XXXXXX',
    'mktemp -p . x.XXXX',
    'mktemp -u a.XXX b.XXX',
    'mktemp -u --bogus',
  ])('%s creates something or is unknown', (line) => {
    expect(verdict(line).readOnly).toBe(false);
  });
});
