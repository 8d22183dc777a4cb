import type { Span, Word } from '../types.js';
import { leadingText, singleField, sliceWord, splitsFreely } from './words.js';

export type Arity = 'flag' | 'value' | 'optional';

interface Named {
  arity: Arity;
  /** The name the option is reported under: its short letter when it has one. */
  name: string;
}

/**
 * How programs read a long option they do not list exactly. getopt_long, git and tar accept any unique
 * prefix (`--force-w` is `--force-with-lease`); `negatable` programs (git) also read `--no-NAME` for a flag.
 */

export interface Grammar {
  /** Short options without a value. */
  flags: string;
  /** Short options with a value, attached (`-n5`) or in the next word (`-n 5`). */
  values: string;
  /** Short options whose value is optional and must be attached (`-i.bak`). */
  optional: string;
  /** `--name` options. */
  long: ReadonlyMap<string, Named>;
  /** Options matched as whole words (`-TT`, `-pe`, `-exec`). */
  words: ReadonlyMap<string, Named>;
  /** getopt_long: a unique prefix of a long option names it. */
  abbreviate: boolean;
  /** `--no-NAME` turns off the option `--NAME`, and takes no value (git's parse-options). */
  negatable: boolean;
  /** Options that stand for several (`git branch -D` is `--delete --force`): name → the names it implies. */
  implies: ReadonlyMap<string, readonly string[]>;
  /** `-5` is the option `-#` with value 5 (nice, head). */
  numeric: boolean;
  /** `+o`, `+x` are options too (shells). */
  plus: boolean;
  /** Options after which the program stops reading options (`python -c`). */
  stop: ReadonlySet<string>;
  /** Long options not listed that are known to be flags (`node --no-warnings`). */
  unlistedFlags?: RegExp;
  /** Long options matched only whole, never by a prefix (those another parser reads after the program's own). */
  whole?: ReadonlySet<string>;
  /** Long options `--no-` does not negate (git's PARSE_OPT_NONEG), by their name. */
  fixed?: ReadonlySet<string>;
  /** A known word is an option only when it matches: bash's echo reads `-neE` clusters and prints any other word. */
  options?: RegExp;
  /** Options whose value may be left off when they are the last word (git's PARSE_OPT_LASTARG_DEFAULT), by name. */
  lastDefault?: ReadonlySet<string>;
}

export interface GrammarSpec {
  flags?: string;
  values?: string;
  optional?: string;
  /**
   * Space-separated long options: `name` is a flag, `name=` takes a value, `name?` takes an optional
   * attached value; `/x` reports it under the short name `x` (`user=/u`).
   */
  long?: string;
  /** Whole-word options in the same notation (`-TT=`, `-pe=/e`). */
  words?: string;
  /**
   * Whether a unique prefix names a long option. The default is true, as getopt_long reads options: for a
   * program that does not, an abbreviation is an error, so reading it as the option it abbreviates is safe.
   */
  abbreviate?: boolean;
  negatable?: boolean;
  /** Space-separated names each option implies, by the name it is reported under: `{ D: 'd f' }`. */
  implies?: Record<string, string>;
  numeric?: boolean;
  plus?: boolean;
  stop?: string;
  unlistedFlags?: RegExp;
  /** Space-separated long option names matched only whole. */
  whole?: string;
  /** Space-separated long option names `--no-` does not negate. */
  fixed?: string;
  options?: RegExp;
  /** Space-separated long option names whose value defaults when they end the command line. */
  lastDefault?: string;
}

function named(spec: string | undefined, prefix: string): Map<string, Named> {
  const map = new Map<string, Named>();
  for (const entry of (spec ?? '').split(/\s+/).filter(Boolean)) {
    const match = /^(.+?)([=?]?)(?:\/(.+))?$/.exec(entry)!;
    const [, key, marker, alias] = match as unknown as [string, string, string, string | undefined];
    const arity: Arity = marker === '=' ? 'value' : marker === '?' ? 'optional' : 'flag';
    map.set(key, { arity, name: alias ?? prefix + key });
  }
  return map;
}

/**
 * The grammar of a program whose options are whole words after one dash or two (`-json`, `--json`), as the
 * SQLite shell and the shells descended from it read them: FLAGS and VALUES space-separated, each reported
 * under its one-dash name.
 */
export function dashWords(flags: string, values: string): Grammar {
  return grammar({
    words: [
      ...flags.split(' ').flatMap((name) => [`-${name}/-${name}`, `--${name}/-${name}`]),
      ...values.split(' ').flatMap((name) => [`-${name}=/-${name}`, `--${name}=/-${name}`]),
    ].join(' '),
    abbreviate: false,
  });
}

/**
 * The grammar a spec describes. Its tables are built on first use: a hook call reads the grammars of the
 * programs it names, not the hundreds every module declares when it loads.
 */
export function grammar(spec: GrammarSpec): Grammar {
  let long: ReadonlyMap<string, Named> | undefined;
  let words: ReadonlyMap<string, Named> | undefined;
  let implies: ReadonlyMap<string, readonly string[]> | undefined;
  let stop: ReadonlySet<string> | undefined;
  return {
    flags: spec.flags ?? '',
    values: spec.values ?? '',
    optional: spec.optional ?? '',
    get long() {
      long ??= named(spec.long, '--');
      return long;
    },
    get words() {
      words ??= named(spec.words, '');
      return words;
    },
    abbreviate: spec.abbreviate ?? true,
    negatable: spec.negatable ?? false,
    get implies() {
      implies ??= new Map(
        Object.entries(spec.implies ?? {}).map(([name, names]) => [name, names.split(/\s+/).filter(Boolean)]),
      );
      return implies;
    },
    numeric: spec.numeric ?? false,
    plus: spec.plus ?? false,
    get stop() {
      stop ??= new Set((spec.stop ?? '').split(/\s+/).filter(Boolean));
      return stop;
    },
    ...(spec.unlistedFlags ? { unlistedFlags: spec.unlistedFlags } : {}),
    ...(spec.whole ? { whole: new Set(spec.whole.split(/\s+/)) } : {}),
    ...(spec.fixed ? { fixed: new Set(spec.fixed.split(/\s+/)) } : {}),
    ...(spec.options ? { options: spec.options } : {}),
    ...(spec.lastDefault ? { lastDefault: new Set(spec.lastDefault.split(/\s+/).map((n) => `--${n}`)) } : {}),
  };
}

export interface Option {
  /** Short letter (`u`, `+o` for plus options), `--name` for a long option without one, or the whole word. */
  name: string;
  value?: Word;
  /** Index of the option's word. */
  index: number;
}

export interface ParseMode {
  /** GNU style: options may follow operands. Otherwise the first operand ends the options. */
  permute?: boolean;
  /**
   * 'fail' (default): a word that may or may not be an option, or one that may expand to several words,
   * fails the parse. 'operand': such words are kept and listed in `suspects`.
   */
  dynamic?: 'fail' | 'operand';
  /** 'fail' (default): an unknown option fails the parse. 'flag': it is kept in `unknown` as a flag. */
  unknown?: 'fail' | 'flag';
  /** Index to stop at (exclusive). */
  end?: number;
}

export interface Parsed {
  ok: true;
  options: Option[];
  /** Indices of operands, in order. */
  operands: number[];
  unknown: Option[];
  /** Words whose role depends on run-time values. */
  suspects: number[];
  /** Index of `--`. */
  dashdash?: number;
  /** Without permute: the index of the first operand (or of the end). */
  rest: number;
}

export interface ParseFailure {
  ok: false;
  reason: string;
  span: Span;
}

export type ParseResult = Parsed | ParseFailure;

/** The name of every option the grammar knows, as parses report them (`-#` for a numeric one). */
export function optionNames(g: Grammar): string[] {
  const names = [...`${g.flags}${g.values}${g.optional}`, ...(g.numeric ? ['-#'] : [])];
  for (const named of [...g.long.values(), ...g.words.values()]) names.push(named.name);
  return names;
}

/** An option as written on a command line: `-c` for `c`, `--user` unchanged. */
export function optionText(name: string): string {
  return name.length === 1 ? `-${name}` : name;
}

export function has(parsed: Parsed, ...names: string[]): boolean {
  return parsed.options.some((option) => names.includes(option.name));
}

export function optionsNamed(parsed: Parsed, ...names: string[]): Option[] {
  return parsed.options.filter((option) => names.includes(option.name));
}

export function lastValue(parsed: Parsed, ...names: string[]): Word | undefined {
  return optionsNamed(parsed, ...names).at(-1)?.value;
}

/** The long option `--name` names: an exact match, else a unique prefix, else `--no-` and a flag. */
export function lookupLong(g: Grammar, name: string): Named | undefined {
  const exact = g.long.get(name);
  if (exact || name === '') return exact;
  if (g.negatable) return lookupNegatable(g, name);
  if (!g.abbreviate) return undefined;
  let found: Named | undefined;
  for (const [key, spec] of g.long) {
    if (!key.startsWith(name) || g.whole?.has(key)) continue;
    if (found && found.name !== spec.name) return undefined;
    found = spec;
  }
  return found;
}

/**
 * git's parse-options: `--no-NAME` turns NAME off (and takes no value), `--NAME` turns off an option named
 * `no-NAME`, and with abbreviations any of these may be a unique prefix. An exact spelling wins.
 */
function lookupNegatable(g: Grammar, name: string): Named | undefined {
  const negated = name.startsWith('no-') ? name.slice(3) : undefined;
  const negates = (key: string): boolean => g.long.has(key) && !g.fixed?.has(key);
  if (negated !== undefined && negates(negated)) return { arity: 'flag', name: `--${name}` };
  if (negated === undefined && negates(`no-${name}`)) return { arity: 'flag', name: `--${name}` };
  if (!g.abbreviate) return undefined;
  let found: Named | undefined;
  let option: string | undefined;
  for (const [key, spec] of g.long) {
    if (g.whole?.has(key)) continue;
    const negatable = !g.fixed?.has(key);
    let match: Named | undefined;
    if (key.startsWith(name)) match = spec;
    else if (!negatable) continue;
    else if (negated !== undefined && key.startsWith(negated)) match = { arity: 'flag', name: `--no-${key}` };
    else if (negated === undefined && key.startsWith('no-') && key.startsWith(name, 3)) {
      match = { arity: 'flag', name: `--${key.slice(3)}` };
    } else if ('no-'.startsWith(name)) match = { arity: 'flag', name: `--no-${key}` };
    if (!match) continue;
    if (option !== undefined && option !== spec.name) return undefined;
    found = match;
    option = spec.name;
  }
  return found;
}

export function parseOptions(
  words: readonly Word[],
  start: number,
  g: Grammar,
  mode: ParseMode = {},
): ParseResult {
  const end = mode.end ?? words.length;
  const strict = (mode.dynamic ?? 'fail') === 'fail';
  const unknownFails = (mode.unknown ?? 'fail') === 'fail';
  const parsed: Parsed = { ok: true, options: [], operands: [], unknown: [], suspects: [], rest: end };
  const failure = (reason: string, word: Word): ParseFailure => ({ ok: false, reason, span: word.span });
  const operandsFrom = (from: number): Parsed => {
    parsed.rest = from;
    for (let k = from; k < end; k++) parsed.operands.push(k);
    return parsed;
  };

  /** The value in the next word, for option word `i`. A missing value fails the parse in every mode. */
  const nextValue = (i: number): Word | ParseFailure => {
    const next = words[i + 1];
    if (next === undefined || i + 1 >= end) {
      return failure(`option ${words[i]!.value} is missing its value`, words[i]!);
    }
    if (!singleField(next)) {
      if (strict) return failure(`option value ${next.text} may expand to several words`, next);
      parsed.suspects.push(i + 1);
    }
    return next;
  };

  const unknownOption = (name: string, i: number, value?: Word): ParseFailure | undefined => {
    if (unknownFails) return failure(`unknown option ${name}`, words[i]!);
    parsed.unknown.push({ name, index: i, ...(value ? { value } : {}) });
    return undefined;
  };

  let i = start;
  while (i < end) {
    const word = words[i]!;
    const lead = leadingText(word);
    if (word.static && word.value === '--') {
      parsed.dashdash = i;
      return operandsFrom(i + 1);
    }
    const optionLike =
      (lead.startsWith('-') || (g.plus && lead.startsWith('+'))) &&
      (word.value.length > 1 || !word.static) &&
      (!g.options || !word.static || g.options.test(word.value));
    if (!optionLike) {
      const unsure = lead === '' && !word.static;
      if (unsure && strict) return failure(`${word.text} may be an option or an operand`, word);
      if (!mode.permute && !unsure) return operandsFrom(i);
      if (strict && !singleField(word)) return failure(`${word.text} may expand to several words`, word);
      if (unsure || splitsFreely(word)) parsed.suspects.push(i);
      parsed.operands.push(i);
      i++;
      continue;
    }
    if (!singleField(word)) {
      if (strict) return failure(`${word.text} may expand to several words`, word);
      parsed.suspects.push(i);
    }

    let consumed = 1;
    let stopped = false;
    const add = (spec: Named, value: Word | undefined): void => {
      parsed.options.push({ name: spec.name, index: i, ...(value ? { value } : {}) });
      if (g.stop.has(spec.name)) stopped = true;
    };
    const withValue = (spec: Named, attached: Word | undefined): ParseFailure | undefined => {
      if (spec.arity === 'value' && attached === undefined) {
        if (i + 1 >= words.length && g.lastDefault?.has(spec.name)) {
          add(spec, undefined);
          return undefined;
        }
        const next = nextValue(i);
        if ('ok' in next) return next;
        consumed = 2;
        add(spec, next);
      } else {
        add(spec, spec.arity === 'flag' ? undefined : attached);
      }
      return undefined;
    };

    const eq = lead.indexOf('=');
    const wordKey = eq > 0 ? lead.slice(0, eq) : word.static ? word.value : undefined;
    const wordSpec = wordKey === undefined ? undefined : g.words.get(wordKey);
    if (wordSpec && (eq < 0 || wordSpec.arity !== 'flag')) {
      const problem = withValue(wordSpec, eq > 0 ? sliceWord(word, eq + 1) : undefined);
      if (problem) return problem;
    } else if (lead.startsWith('--')) {
      let name: string;
      let attached: Word | undefined;
      if (eq >= 0) {
        name = lead.slice(2, eq);
        attached = sliceWord(word, eq + 1);
      } else if (word.static) {
        name = word.value.slice(2);
      } else {
        if (strict) return failure(`${word.text} is an option only known at run time`, word);
        parsed.suspects.push(i);
        i++;
        continue;
      }
      const spec =
        lookupLong(g, name) ??
        (g.unlistedFlags?.test(name) ? { arity: 'flag', name: `--${name}` } : undefined);
      if (spec) {
        const problem = withValue(spec, attached);
        if (problem) return problem;
      } else {
        const problem = unknownOption(`--${name}`, i, attached);
        if (problem) return problem;
      }
    } else if (g.numeric && /^-\d+$/.test(word.value) && word.static) {
      add({ arity: 'value', name: '-#' }, sliceWord(word, 1));
    } else {
      const sign = lead[0]!;
      for (let j = 1; j < word.value.length; j++) {
        if (j >= lead.length) {
          if (strict) return failure(`${word.text} holds options only known at run time`, word);
          parsed.suspects.push(i);
          break;
        }
        const c = lead[j]!;
        const name = sign === '+' ? `+${c}` : c;
        const rest = j + 1 < word.value.length ? sliceWord(word, j + 1) : undefined;
        if (g.flags.includes(c)) {
          add({ arity: 'flag', name }, undefined);
        } else if (g.values.includes(c)) {
          const problem = withValue({ arity: 'value', name }, rest);
          if (problem) return problem;
          break;
        } else if (g.optional.includes(c)) {
          add({ arity: 'optional', name }, rest);
          break;
        } else {
          const problem = unknownOption(`${sign}${c}`, i);
          if (problem) return problem;
        }
        if (stopped) break;
      }
    }
    i += consumed;
    if (stopped && !mode.permute) return operandsFrom(i);
  }
  parsed.rest = Math.min(i, end);
  return parsed;
}

/** The operand words of a successful parse. */
export function operandWords(words: readonly Word[], parsed: Parsed): Word[] {
  return parsed.operands.map((index) => words[index]!);
}
