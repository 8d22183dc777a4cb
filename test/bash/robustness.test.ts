import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze, loadBash } from '../../src/bash/analyze.js';
import { FILE_EFFECTS } from '../../src/bash/programs/file-effects.js';
import { INTERPRETERS } from '../../src/bash/programs/interpreters.js';
import { PROGRAM_OPTIONS } from '../../src/bash/programs/program-options.js';
import { allProgramModules } from '../../src/bash/programs/registry.js';
import { RUNNERS } from '../../src/bash/programs/runners.js';
import { SHELLS } from '../../src/bash/programs/shells.js';
import { TOOL_EFFECTS } from '../../src/bash/programs/tool-effects.js';
import { WRAPPERS } from '../../src/bash/programs/wrappers.js';

beforeAll(async () => {
  await loadBash();
});

/** Every program the analyzer has a table for. */
const PROGRAMS = [
  ...new Set(
    [PROGRAM_OPTIONS, RUNNERS, INTERPRETERS, SHELLS, WRAPPERS, FILE_EFFECTS, TOOL_EFFECTS]
      .flatMap((t) => Object.keys(t))
      .concat(allProgramModules().flatMap((m) => m.names)),
  ),
].sort();

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const WORDS = [
  ...[...LETTERS].map((l) => `-${l}`),
  '--',
  '-',
  '--pre',
  '--exec',
  '--output',
  '--file',
  '--command',
  '-exec',
  '-delete',
  '-c',
  '{}',
  '\\;',
  '+',
  '$x',
  '*',
  'file',
  'a=b',
  'x.sh',
];

describe('every program table, on odd argument vectors', () => {
  it('has handlers to try', () => {
    expect(PROGRAMS.length).toBeGreaterThan(100);
  });

  it('an option missing its value, or any other odd argv, never throws', () => {
    for (const program of PROGRAMS) {
      for (const word of WORDS) {
        const line = `${program} ${word}`;
        expect(() => analyze(line), line).not.toThrow();
      }
    }
  });

  it('generated argument vectors never throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROGRAMS),
        fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }),
        (program, words) => {
          const line = [program, ...words].join(' ');
          expect(() => analyze(line), line).not.toThrow();
        },
      ),
      { numRuns: 20000, seed: 20261129 },
    );
  });
});
