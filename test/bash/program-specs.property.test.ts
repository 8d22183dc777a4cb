import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lookupLong } from '../../src/bash/programs/options.js';
import type { ProgramSpec } from '../../src/bash/programs/program.js';
import { checkProgram } from '../../src/bash/programs/read-only.js';
import { allProgramSpecs } from '../../src/bash/programs/registry.js';
import { makeWord } from '../../src/bash/words.js';

/**
 * Property: an option a program's spec does not know never yields a read-only verdict, wherever it stands
 * among words that are read-only on their own, for every spec'd program.
 */

const SEED = 20_261_201;

const word = (value: string) => makeWord(value, value, [], { start: 0, end: 0 });

/** Read-only command lines to put the unknown option into: the program alone and with a plain operand. */
const BASES: Record<string, string[]> = {
  sed: ['p'],
  awk: ['1'],
  gawk: ['1'],
  mawk: ['1'],
  nawk: ['1'],
  jq: ['.'],
  // Read-only only in their listing or look-up forms.
  command: ['-v', 'git'],
  tar: ['--list', '--file=a.tar'],
  unzip: ['-l', 'a.zip'],
  zipinfo: ['a.zip'],
  sqlite3: ['file:app.db?mode=ro&immutable=1', '.tables'],
  duckdb: ['-c', 'SELECT 42'],
  fzf: ['--filter', 'x'],
  printenv: ['PATH'],
  pkgutil: ['--pkgs'],
  scutil: ['--dns'],
  networksetup: ['-listallnetworkservices'],
  codesign: ['-d'],
  spctl: ['--status'],
  security: ['list-keychains'],
  defaults: ['domains'],
  dscl: ['.', '-list', '/Users'],
  textutil: ['-info', 'a.rtf'],
  binhex: ['probe', 'a.hqx'],
  compression_tool: ['-encode'],
  lipo: ['-info'],
  sysctl: ['kernel.hostname'],
  helm: ['version'],
  terraform: ['version'],
  gh: ['version'],
  openssl: ['version'],
  gzip: ['-l', 'a.gz'],
  gunzip: ['-c', 'a.gz'],
  isort: ['--check-only'],
  black: ['--check'],
  ansible: ['--version'],
  'ansible-playbook': ['--version'],
  'ansible-inventory': ['--version'],
  'ansible-doc': ['--version'],
  'ansible-config': ['--version'],
  'ansible-galaxy': ['--version'],
  'ansible-vault': ['--version'],
  'ansible-console': ['--version'],
  'ansible-pull': ['--version'],
  cdk: ['--version'],
  'pre-commit': ['--version'],
  mktemp: ['-u'],
};

function unknownShort(spec: ProgramSpec, letter: string): boolean {
  const g = spec.grammar;
  if (g.numeric && /\d/.test(letter)) return false;
  return !`${g.flags}${g.values}${g.optional}`.includes(letter) && !g.words.has(`-${letter}`);
}

function unknownLong(spec: ProgramSpec, name: string): boolean {
  const g = spec.grammar;
  return lookupLong(g, name) === undefined && !g.words.has(`--${name}`);
}

const withReadOnly = allProgramSpecs().filter((spec) => spec.readOnly);
/** Programs that read only some words as options and take every other word as an operand (bash's echo). */
const someWordsOnly = withReadOnly.filter((spec) => spec.grammar.options);
const withOptions = withReadOnly.filter((spec) => !spec.grammar.options);

describe('program specs: an unknown option is never read-only', () => {
  it.each(withReadOnly.map((spec) => [spec.name, spec] as const))(
    '%s is read-only without it',
    (_name, spec) => {
      const words = [spec.name, ...(BASES[spec.name] ?? [])].map(word);
      expect(checkProgram(spec, words, true)).toMatchObject({ readOnly: true });
    },
  );

  it.each(withOptions.map((spec) => [spec.name, spec] as const))('%s', (_name, spec) => {
    const base = BASES[spec.name] ?? [];
    const letters = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'].filter((letter) =>
      unknownShort(spec, letter),
    );
    const long = fc
      .stringMatching(/^[a-z][a-z0-9-]{0,14}$/)
      .filter((name) => unknownLong(spec, name))
      .chain((name) => fc.constantFrom(`--${name}`, `--${name}=x`));
    // A grammar that takes every letter (openssl's single-word options, read by its check) leaves only long ones.
    const option =
      letters.length === 0
        ? long
        : fc.oneof(
            fc.constantFrom(...letters).map((letter) => `-${letter}`),
            long,
          );
    fc.assert(
      fc.property(option, fc.nat(), (unknown, at) => {
        const argv = [spec.name, ...base];
        // Without permutation the first operand ends the options: later words are operands.
        const positions = spec.permute === false ? 1 : argv.length;
        argv.splice(1 + (at % positions), 0, unknown);
        expect(checkProgram(spec, argv.map(word), true).readOnly, argv.join(' ')).toBe(false);
      }),
      { seed: SEED, numRuns: 60 },
    );
  });
});

describe('programs that read only some words as options', () => {
  it('bash prints every other word, and the spec reads it as an operand', () => {
    expect(someWordsOnly.map((spec) => spec.name)).toEqual(['echo']);
    const words = ['-a', '-x', '--help', '--', '-> arrow', '-nx', '-', '-n-', '--version'];
    for (const w of words) {
      const printed = spawnSync('bash', ['-c', 'echo "$1"', '_', w], { encoding: 'utf8' }).stdout;
      expect(printed, w).toBe(`${w}\n`);
      expect(checkProgram(someWordsOnly[0]!, ['echo', w].map(word), true).readOnly, w).toBe(true);
    }
  });
});
