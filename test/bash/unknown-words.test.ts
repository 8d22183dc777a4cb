import { describe, expect, test } from 'vitest';
import { effectsOf } from '../../src/bash/effects.js';
import { allProgramSpecs } from '../../src/bash/programs/registry.js';
import { command } from '../support/words.js';

/**
 * An option or a subcommand the spec does not know may do anything (`docker foo` runs a `docker-foo` plugin, a
 * newer version's option may write a file): whatever the program, the files it touches are then not all known.
 */
/** The shell's own builtins are the exception: an option they do not know is an operand or an error. */
const BUILTINS = new Set(['echo', 'printf', 'true', 'false', 'test', '[', 'cd', 'pwd', 'type']);
const names = allProgramSpecs()
  .flatMap((spec) => [spec.name, ...(spec.aliases ?? [])])
  .filter((name) => !BUILTINS.has(name));

describe('an option the spec does not know makes the effects unknown', () => {
  test.each(names)('%s --zz-unknown', (name) => {
    expect(effectsOf(command([name, '--zz-unknown', 'x'])).known).toBe(false);
  });
});

const withSubcommands = allProgramSpecs().filter(
  (spec) => spec.subcommands && Object.keys(spec.subcommands).length,
);

describe('a subcommand the spec does not know makes the effects unknown', () => {
  test.each(withSubcommands.map((spec) => spec.name))('%s zz-unknown', (name) => {
    expect(effectsOf(command([name, 'zz-unknown', 'x'])).known).toBe(false);
  });
});

describe('what stays known', () => {
  test.each([
    [['echo', '--zz-unknown']],
    [['printf', '--', '%s', 'x']],
    [['chmod', '-x', 'f']],
    [['rg', '--hidden', 'x', '.']],
    [['sleep', '1']],
  ])('%j', (items) => {
    expect(effectsOf(command(items)).known).toBe(true);
  });

  test('an allow-listed flag a grammar reads without listing is known; one it does not list is not', () => {
    expect(effectsOf(command(['rg', '--no-ignore', 'x'])).known).toBe(true);
    expect(effectsOf(command(['rg', '--zz-unknown', 'x'])).known).toBe(false);
  });
});
