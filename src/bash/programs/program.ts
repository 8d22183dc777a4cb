import type { Word } from '../types.js';
import { type Grammar, optionNames, type Parsed, type ParseFailure, parseOptions } from './options.js';

/**
 * What automode knows about one program, as the program itself reads its command line: the option grammar
 * (short options and clusters, long options with their unique-prefix abbreviations, options that take a value,
 * `--`, short↔long aliases), its subcommands and their aliases, and which options and operands keep it
 * read-only. The read-only check, the normalisation deny and ask rules are matched through, and the
 * nested-command and file-effect handlers all read the same spec.
 */
export interface ProgramSpec extends SubcommandSpec {
  /** The program's name (`git`); rules and reasons use it. */
  name: string;
  /** Other names it runs under (`gsed` for `sed`). */
  aliases?: readonly string[];
  /** The family ships dotted variants (`mkfs.ext4`, `mkfs.vfat`): deny and ask rules on `mkfs` see them. */
  dottedVariants?: boolean;
  /**
   * The program reads its own (top-level) options after its subcommand words as well, to the same effect
   * (cobra's persistent flags, the cloud CLIs): `kubectl -n dev get pods` is `kubectl get pods -n dev`.
   */
  globalOptionsAnywhere?: boolean;
  /** The words the grammar reads, when some are not the program's own (the commands find's -exec runs). */
  ownWords?: (words: readonly Word[]) => Word[];
  /** Another program's reading of the whole line, when its first words switch to it (`unzip -Z` is zipinfo). */
  readAs?: (words: readonly Word[]) => { spec: ProgramSpec; words: readonly Word[] } | undefined;
}

/** One level of a command line: the program itself, or one of its subcommands. */
export interface SubcommandSpec {
  /** Options before the operands, or before the subcommand when there are subcommands. */
  grammar: Grammar;
  /**
   * GNU style: options may follow operands. Default true (git, docker and kubectl subcommands read options
   * after operands); a level with subcommands stops reading options at the subcommand.
   */
  permute?: boolean;
  subcommands?: Readonly<Record<string, SubcommandSpec>>;
  /**
   * Other spellings of subcommands (`helm delete` is `helm uninstall`); a value of several words names a
   * nested subcommand (`docker rm` is `docker container rm`).
   */
  subcommandAliases?: Readonly<Record<string, string>>;
  /** A unique prefix of a subcommand or alias names it (npm: `npm pub` is `npm publish`). */
  abbreviateSubcommands?: boolean;
  /** When present, the command is read-only when this allows it (at the last level of the command line). */
  readOnly?: ReadOnlySpec;
  /**
   * When present, the command reads the user's own service (an API, a cluster, remote state) and changes
   * nothing, prints no secret and sends no credential elsewhere, when this allows it. It counts only where the
   * settings turn service reads on for the program (`automode.readServices`); at levels without it, `readOnly`
   * stands in.
   */
  serviceRead?: ReadOnlySpec;
  /**
   * What the operands mean to deny and ask rules where the program reads them as an option would say:
   * `git checkout .` names paths as `git checkout -- .` does; `git push origin +main` forces.
   */
  normalizeOperands?: (operands: readonly string[], options: ReadonlySet<string>) => NormalizedOperands;
}

/** Operands as deny and ask rules read them (`--` where the paths begin) and the options they stand for. */
export interface NormalizedOperands {
  operands: readonly string[];
  options: readonly string[];
}

/**
 * An allow-list: the command is read-only only when every option it is given is listed here and its operands
 * are of the kind stated. An option the grammar does not know fails the parse, so it is never read-only.
 */
export interface ReadOnlySpec {
  /** Options that keep the command read-only, by the name the grammar reports (`n`, `--color`). */
  options: ReadonlySet<string>;
  /**
   * `files`: operands name files or folders that are read (checked as file effects); `inert`: operands are
   * data, never files (`echo`, `seq`); `none`: no operand allowed.
   */
  operands: 'files' | 'inert' | 'none';
  /** The most operands allowed (uniq's second operand is its output). */
  maxOperands?: number;
  /** A further condition on the parse: why the command is not read-only, or undefined when it is. */
  check?: (parsed: Parsed, words: readonly Word[]) => string | undefined;
  /** Why an option is not read-only, for the reason shown (`can write or run programs`). */
  why?: Readonly<Record<string, string>>;
}

/** A read-only allow-list written as space-separated option names. */
export function readOnly(
  options: string | (() => string),
  operands: ReadOnlySpec['operands'] = 'files',
  more: Pick<ReadOnlySpec, 'maxOperands' | 'check' | 'why'> = {},
): ReadOnlySpec {
  let names: ReadonlySet<string> | undefined;
  return {
    // Built on first use, as grammars are: a list drawn from a grammar would build the grammar at load.
    get options() {
      names ??= new Set((typeof options === 'string' ? options : options()).split(/\s+/).filter(Boolean));
      return names;
    },
    operands,
    ...more,
  };
}

/** Every option name the grammar knows, space-separated: for programs none of whose options writes. */
export function everyOption(g: Grammar): string {
  return optionNames(g).join(' ');
}

/** The same, less the options named. */
export function everyOptionBut(g: Grammar, names: string): string {
  const left = new Set(names.split(/\s+/));
  return everyOption(g)
    .split(' ')
    .filter((name) => !left.has(name))
    .join(' ');
}

/** One level of a parsed command line: the options and operands after a program or a subcommand. */
export interface ParsedLevel {
  /** `git`, `git stash`: the words naming this level, aliases resolved. */
  name: string;
  spec: ProgramSpec | SubcommandSpec;
  parsed: Parsed;
  /** Index of the word naming the level (0 for the program). */
  index: number;
}

export interface ParsedCommand {
  ok: true;
  /** The program's level first, then each subcommand level. */
  levels: ParsedLevel[];
  /** A subcommand word the spec does not know (an alias or plugin), when there is one. */
  unknownSubcommand?: { word: Word; index: number };
}

export interface ParseModeOptions {
  /** 'fail': an unknown option fails the parse (read-only checks); 'flag': it is kept as a flag. */
  unknown: 'fail' | 'flag';
  dynamic: 'fail' | 'operand';
}

/** Parses a command line as the program reads it, down through its subcommands. */
export function parseCommand(
  spec: ProgramSpec,
  words: readonly Word[],
  mode: ParseModeOptions,
): ParsedCommand | ParseFailure {
  const levels: ParsedLevel[] = [];
  let level: ProgramSpec | SubcommandSpec = spec;
  let name = spec.name;
  let index = 0;
  for (;;) {
    const nested = level.subcommands;
    const parsed = parseOptions(words, index + 1, level.grammar, {
      permute: nested ? false : (level.permute ?? true),
      unknown: mode.unknown,
      dynamic: mode.dynamic,
    });
    if (!parsed.ok) return parsed;
    levels.push({ name, spec: level, parsed, index });
    if (!nested) return { ok: true, levels };
    const at = parsed.operands[0];
    if (at === undefined) return { ok: true, levels };
    const word = words[at]!;
    const path = word.static ? subcommandPath(level, word.value) : undefined;
    if (!path) return { ok: true, levels, unknownSubcommand: { word, index: at } };
    // `docker rm` is `docker container rm`: the levels an alias skips read no words of their own.
    for (const [k, step] of path.entries()) {
      name = `${name} ${step.name}`;
      if (k < path.length - 1) levels.push({ name, spec: step.spec, parsed: passThrough(at), index: at });
      level = step.spec;
    }
    index = at;
  }
}

function passThrough(at: number): Parsed {
  return { ok: true, options: [], operands: [at], unknown: [], suspects: [], rest: at };
}

/** The subcommands a word names, aliases resolved: one, or several for an alias of a nested subcommand. */
function subcommandPath(
  level: ProgramSpec | SubcommandSpec,
  word: string,
): { name: string; spec: SubcommandSpec }[] | undefined {
  const aliases = level.subcommandAliases;
  const named = level.abbreviateSubcommands ? unabbreviated(level, word) : word;
  const canonical = aliases && Object.hasOwn(aliases, named) ? aliases[named]! : named;
  const path: { name: string; spec: SubcommandSpec }[] = [];
  let at: ProgramSpec | SubcommandSpec = level;
  for (const step of canonical.split(' ')) {
    const sub: SubcommandSpec | undefined =
      at.subcommands && Object.hasOwn(at.subcommands, step) ? at.subcommands[step] : undefined;
    if (!sub) return undefined;
    path.push({ name: step, spec: sub });
    at = sub;
  }
  return path;
}

/** The subcommand or alias a word is a unique prefix of, or the word itself. */
function unabbreviated(level: ProgramSpec | SubcommandSpec, word: string): string {
  const names = [...Object.keys(level.subcommands ?? {}), ...Object.keys(level.subcommandAliases ?? {})];
  if (names.includes(word)) return word;
  const matches = names.filter((name) => name.startsWith(word));
  const targets = new Set(matches.map((name) => level.subcommandAliases?.[name] ?? name));
  return targets.size === 1 && matches.length > 0 ? matches[0]! : word;
}
