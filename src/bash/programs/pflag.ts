import type { Word } from '../types.js';
import { type Grammar, grammar, type Option } from './options.js';
import { type ParsedCommand, type ProgramSpec, parseCommand, type SubcommandSpec } from './program.js';
import { leadingText, sliceWord } from './words.js';

/**
 * A command line as Go's pflag reads it (docker, kubectl, helm): as getopt does, but `-o=VALUE` gives a short
 * option the value after the `=`.
 */
export function parsePflag(spec: ProgramSpec, words: readonly Word[]): ParsedCommand | undefined {
  const parsed = parseCommand(spec, words, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) return undefined;
  for (const level of parsed.levels) {
    level.parsed.options = level.parsed.options.map((found) => shortValue(found, words));
  }
  return parsed;
}

function shortValue(found: Option, words: readonly Word[]): Option {
  const value = found.value;
  const word = words[found.index];
  if (!value || !word || found.name.length !== 1 || value.span.start < word.span.start) return found;
  if (value.span.end > word.span.end || value.span.start === word.span.start) return found;
  return leadingText(value).startsWith('=') ? { ...found, value: sliceWord(value, 1) } : found;
}

/** The one-letter forms in a `grammar()` notation: of flags (`name/x`) and of options taking a value (`name=/x`). */
export function shortLetters(notation: string): { flags: string; values: string } {
  let flags = '';
  let values = '';
  for (const entry of notation.split(' ').filter(Boolean)) {
    const [, , value, letter] = /^([\w.-]+)(=?)(?:\/(\w))?$/.exec(entry)!;
    if (letter && value) values += letter;
    else if (letter) flags += letter;
  }
  return { flags, values };
}

/**
 * A Go CLI's options (docker, podman) read with pflag: exact long names, no abbreviations; `-h` is `--help`
 * wherever the command gives the letter no other meaning. `notation` is `grammar()`'s: `name` a flag, `name=`
 * takes a value, `/x` its one-letter form.
 */
export function pflagGrammar(notation: string): Grammar {
  const { flags, values } = shortLetters(notation);
  const helpLetter = !flags.includes('h') && !values.includes('h');
  return grammar({
    flags: helpLetter ? `${flags}h` : flags,
    values,
    long: `${notation} ${helpLetter ? 'help/h' : 'help'}`,
    abbreviate: false,
  });
}

/**
 * A cobra program's commands as nested levels (`network ls` under the group `network`): `group` makes the level of
 * a group the first time a path names it, `command` the level of one command from its path and option notation.
 */
export function commandTree(
  commands: Readonly<Record<string, string>>,
  group: (name: string) => SubcommandSpec,
  command: (path: string, notation: string) => SubcommandSpec,
): Record<string, SubcommandSpec> {
  const root: Record<string, SubcommandSpec> = {};
  for (const [path, notation] of Object.entries(commands)) {
    const words = path.split(' ');
    let level = root;
    for (const name of words.slice(0, -1)) {
      level[name] ??= group(name);
      level = level[name].subcommands as Record<string, SubcommandSpec>;
    }
    level[words.at(-1)!] = command(path, notation);
  }
  return root;
}
