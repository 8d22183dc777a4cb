/**
 * A simple command reduced to what deny and ask rules care about: the program, its subcommand words in order,
 * and its options as a set (`-fr`, `-r -f` and `--recursive --force` all become {r, f}).
 */
import type { Option } from '../bash/index.js';
import {
  DYN,
  familySpec,
  type ParsedCommand,
  type ProgramSpec,
  parseCommand,
  type Word,
} from '../bash/index.js';

export interface NormalizedCommand {
  program: string;
  /** The program family deny and ask rules read it as: `mkfs` for `mkfs.ext4`, else the program. */
  family: string;
  /** Non-option words after the program, global options removed; `--` is kept, it changes what follows. */
  positionals: string[];
  /** Canonical option names: single letters for short options, long names without dashes otherwise. */
  options: Set<string>;
  /** The command line with global options removed and the program's basename: `git clean -fd`. */
  line: string;
}

export function basename(program: string): string {
  const slash = program.lastIndexOf('/');
  return slash >= 0 ? program.slice(slash + 1) : program;
}

/** `--name=value` is `name`; a cluster `-rf` is `r` and `f`. */
function optionNames(option: string): string[] {
  if (option.startsWith('--')) return [option.slice(2).split('=')[0]!];
  return option.slice(1).split('');
}

/**
 * Normalises argv values (already quote-removed). `argv[0]` may be a path: its basename is the program. A
 * program automode has a spec for is read as it reads its own command line: abbreviations, aliases and
 * subcommand aliases resolved. `words`, when given, are the argv words the values come from.
 */
export function normalize(argv: readonly string[], words?: readonly Word[]): NormalizedCommand {
  const program = basename(argv[0] ?? '');
  const spec = familySpec(program);
  if (spec) {
    const read = bySpec(spec, program, argv, words ?? argv.map(valueWord));
    if (read) return read;
  }
  return byWords(program, argv);
}

/** A word rebuilt from its value: dynamic where the value holds DYN. */
export function valueWord(value: string): Word {
  const span = { start: 0, end: 0 };
  return value.includes(DYN)
    ? { text: value, value, static: false, dynamic: ['parameter'], span }
    : { text: value, value, static: true, dynamic: [], span };
}

/** A spec'd program's options by canonical name (`f` for `--force`), with what an option implies. */
function canonicalNames(option: Option, implies: ReadonlyMap<string, readonly string[]>): string[] {
  const implied = implies.get(option.name);
  const names = implied ?? [option.name];
  return names.map((name) => name.replace(/^-+/, ''));
}

function bySpec(
  spec: ProgramSpec,
  program: string,
  argv: readonly string[],
  words: readonly Word[],
): NormalizedCommand | undefined {
  const parsed: ParsedCommand | { ok: false } = parseCommand(spec, words, {
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return undefined;
  const options = new Set<string>();
  const positionals: string[] = [];
  const levels = spec.subcommands ? parsed.levels.slice(1) : parsed.levels;
  for (const level of parsed.levels.slice(1))
    positionals.push(level.name.slice(level.name.lastIndexOf(' ') + 1));
  for (const level of levels) {
    for (const option of [...level.parsed.options, ...level.parsed.unknown]) {
      for (const name of canonicalNames(option, level.spec.grammar.implies)) options.add(name);
    }
  }
  const last = parsed.levels[parsed.levels.length - 1]!;
  let rest: readonly string[];
  if (parsed.unknownSubcommand) {
    const tail = byWords(program, ['', ...argv.slice(parsed.unknownSubcommand.index)]);
    for (const option of tail.options) options.add(option);
    positionals.push(...tail.positionals);
    rest = argv.slice(parsed.unknownSubcommand.index);
  } else {
    const operands = spec.subcommands && last.spec.subcommands ? [] : last.parsed.operands;
    const dashdash = last.parsed.dashdash;
    const given: string[] = [];
    for (const index of operands) {
      if (dashdash !== undefined && index === dashdash + 1) given.push('--');
      given.push(argv[index]!);
    }
    if (dashdash !== undefined && !operands.includes(dashdash + 1)) given.push('--');
    const read = last.spec.normalizeOperands?.(given, options);
    positionals.push(...(read ? read.operands : given));
    for (const name of read?.options ?? []) options.add(name);
    rest = argv.slice(last.index + 1);
  }
  const head = [
    program,
    ...parsed.levels.slice(1).map((level) => level.name.slice(level.name.lastIndexOf(' ') + 1)),
  ];
  const line =
    spec.subcommands || parsed.unknownSubcommand
      ? [...head, ...rest]
      : argv.length > 0
        ? [program, ...argv.slice(1)]
        : [];
  return { program, family: spec.name, positionals, options, line: line.join(' ') };
}

/** Any other program: options are the words that start with a dash, up to `--`. */
function byWords(program: string, argv: readonly string[]): NormalizedCommand {
  const rest = argv.slice(1);
  const positionals: string[] = [];
  const options = new Set<string>();
  let endOfOptions = false;
  for (const word of rest) {
    if (!endOfOptions && word === '--') {
      endOfOptions = true;
      positionals.push(word);
      continue;
    }
    if (!endOfOptions && word.length > 1 && word.startsWith('-') && !/^-\d+$/.test(word)) {
      for (const o of optionNames(word)) options.add(o);
    } else {
      positionals.push(word);
    }
  }
  return { program, family: program, positionals, options, line: [program, ...rest].join(' ') };
}
