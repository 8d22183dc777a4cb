import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { awkFindings } from '../../src/bash/programs/awk/program.js';
import { AWK, awkPrograms } from '../../src/bash/programs/awk/spec.js';
import { parseOptions } from '../../src/bash/programs/options.js';

const lines = readFileSync(new URL('../../fixtures/nl2bash/commands.txt', import.meta.url), 'utf8')
  .split('\n')
  .filter(Boolean);

beforeAll(async () => {
  await loadBash();
});

/** The static awk programs of the NL2Bash lines. */
function programs(): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    for (const cmd of analyze(line).commands) {
      if (!cmd.name || !['awk', 'gawk', 'mawk', 'nawk'].includes(cmd.name.program)) continue;
      const parsed = parseOptions(cmd.argv, 1, AWK, { permute: false, unknown: 'flag', dynamic: 'operand' });
      if (!parsed.ok) continue;
      for (const program of awkPrograms(cmd.argv, parsed).programs) {
        if (program.static) found.add(program.value);
      }
    }
  }
  return [...found];
}

function installed(program: string): boolean {
  return spawnSync(program, ['-W', 'version'], { encoding: 'utf8' }).status === 0;
}

/** Whether the awk accepts the program, without running it: gawk pretty-prints it, mawk dumps its code. */
function accepts(awk: 'gawk' | 'mawk', program: string): boolean {
  const args = awk === 'gawk' ? ['--pretty-print=/dev/null', '--', program] : ['-W', 'dump', '--', program];
  return spawnSync(awk, args, { input: '', encoding: 'utf8', timeout: 5000 }).status === 0;
}

function parses(program: string): string | undefined {
  try {
    awkFindings(program);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const AWKS = (['gawk', 'mawk'] as const).filter(installed);

describe.runIf(AWKS.length > 0)(
  'every NL2Bash awk program that a real awk accepts parses (needs gawk or mawk)',
  () => {
    test('programs', () => {
      const all = programs().filter((program) => !program.includes('@load'));
      const accepted = all.filter((program) => AWKS.some((awk) => accepts(awk, program)));
      const failures = accepted.flatMap((program) => {
        const error = parses(program);
        return error === undefined ? [] : [`${JSON.stringify(program)}: ${error}`];
      });
      console.log(
        `awk programs: ${all.length}, accepted by ${AWKS.join('/')}: ${accepted.length}, failures: ${failures.length}`,
      );
      expect(accepted.length).toBeGreaterThan(300);
      expect(failures).toEqual([]);
    }, 300_000);
  },
);
