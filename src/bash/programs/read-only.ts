import type { Word } from '../types.js';
import { type Grammar, optionNames, optionText, type Parsed } from './options.js';
import {
  type ParsedLevel,
  type ProgramSpec,
  parseCommand,
  type ReadOnlySpec,
  type SubcommandSpec,
} from './program.js';
import { leadingText } from './words.js';

export interface ReadOnlyVerdict {
  readOnly: boolean;
  reason: string;
  /** The program has a spec: when it is refused, the reason says which word made it unsafe. */
  known: boolean;
}

/** Which allow-list a check reads: local reads (`readOnly`) or reads of the user's own service (`serviceRead`). */
export type ReadKind = 'readOnly' | 'serviceRead';

/**
 * Whether a command only reads, by its program's allow-list: every option must be listed as read-only and
 * every operand of the kind the spec states. `globsOnly`: every word is static or a glob that only picks file
 * names. With `kind` `serviceRead`, the service-read allow-lists are read (each level's `readOnly` where it has
 * none).
 */
export function checkProgram(
  spec: ProgramSpec,
  words: readonly Word[],
  globsOnly: boolean,
  kind: ReadKind = 'readOnly',
): ReadOnlyVerdict {
  const other = spec.readAs?.(words);
  if (other) return checkProgram(other.spec, other.words, globsOnly, kind);
  const own = spec.ownWords?.(words);
  if (own && own.length !== words.length)
    return checkProgram({ ...spec, ownWords: undefined }, own, globsOnly, kind);
  const refuse = (reason: string): ReadOnlyVerdict => ({ readOnly: false, reason, known: true });
  const parsed = parseCommand(spec, words, { unknown: 'fail', dynamic: 'operand' });
  if (!parsed.ok) return refuse(`${spec.name}: ${parsed.reason}`);
  if (parsed.unknownSubcommand) {
    const word = parsed.unknownSubcommand.word;
    const name = parsed.levels.map((level) => level.name).at(-1)!;
    return refuse(`${name} ${word.text} is not a known read-only subcommand`);
  }
  const last = parsed.levels[parsed.levels.length - 1]!;
  if (!allowList(last.spec, kind)) {
    return refuse(
      last.spec.subcommands
        ? `${last.name} without a subcommand`
        : `${last.name} is not a known read-only subcommand`,
    );
  }
  for (const level of parsed.levels) {
    const problem = levelProblem(level, words, level === last, globsOnly, kind);
    if (problem) return refuse(problem);
  }
  const what = kind === 'serviceRead' ? 'only reads its service' : 'only reads';
  return { readOnly: true, reason: `${last.name} ${what}`, known: true };
}

function allowList(level: SubcommandSpec, kind: ReadKind): ReadOnlySpec | undefined {
  return kind === 'serviceRead' ? (level.serviceRead ?? level.readOnly) : level.readOnly;
}

function levelProblem(
  level: ParsedLevel,
  words: readonly Word[],
  last: boolean,
  globsOnly: boolean,
  kind: ReadKind,
): string | undefined {
  const allow = allowList(level.spec, kind);
  const { parsed } = level;
  for (const option of parsed.options) {
    if (allow?.options.has(option.name)) continue;
    return `${level.name} ${optionText(option.name)} ${allow?.why?.[option.name] ?? 'is not a read-only option'}`;
  }
  if (!allow || !last) return undefined;
  const dynamic = dynamicProblem(level, allow, parsed, words, globsOnly);
  if (dynamic) return dynamic;
  const operands = last && level.spec.subcommands ? [] : parsed.operands;
  if (allow.operands === 'none' && operands.length > 0) {
    return `${level.name} with arguments is not read-only`;
  }
  if (allow.maxOperands !== undefined && operands.length > allow.maxOperands) {
    return `${level.name} with ${operands.length} arguments can write`;
  }
  return allow.check?.(parsed, words);
}

/**
 * A word only known at run time may turn into any option: it is harmless only when every option the program
 * reads is read-only. A glob naming files (`src/*.ts`) is fine among file operands.
 */
function dynamicProblem(
  level: ParsedLevel,
  allow: ReadOnlySpec,
  parsed: Parsed,
  words: readonly Word[],
  globsOnly: boolean,
): string | undefined {
  // Operands after the options end (no permutation) are not suspects: harmless data, or files only known at run
  // time.
  const dynamicFile = allow.operands !== 'inert' && parsed.operands.some((index) => !words[index]!.static);
  if (parsed.suspects.length === 0 && !dynamicFile) return undefined;
  const allReadOnly = allOptionsReadOnly(level.spec.grammar, allow);
  if (allow.operands === 'inert' && allReadOnly) return undefined;
  if (!globsOnly) return `${level.name} has arguments only known at run time`;
  for (const index of parsed.suspects) {
    const word = words[index]!;
    const beforeDashdash = parsed.dashdash === undefined || index < parsed.dashdash;
    if (leadingText(word) === '' && !allReadOnly && beforeDashdash) {
      return `a glob could expand to a file name that ${level.name} reads as an option`;
    }
  }
  return undefined;
}

/**
 * Whether any words at all keep the program read-only: no subcommands, data operands with no condition on them,
 * and every option it reads on its allow-list (`echo`). Words a carrier appends at run time (`xargs echo`) are
 * then harmless, whatever they turn out to be.
 */
export function takesAnyWords(spec: ProgramSpec): boolean {
  const allow = spec.readOnly;
  if (
    !allow ||
    spec.subcommands ||
    allow.operands !== 'inert' ||
    allow.check ||
    allow.maxOperands !== undefined
  )
    return false;
  return allOptionsReadOnly(spec.grammar, allow);
}

const everyOptionCache = new WeakMap<ReadOnlySpec, boolean>();

/** Every option the grammar knows is in the allow-list: no word can turn into one that is not. */
function allOptionsReadOnly(g: Grammar, allow: ReadOnlySpec): boolean {
  let known = everyOptionCache.get(allow);
  if (known === undefined) {
    known = !g.negatable && !g.numeric && optionNames(g).every((name) => allow.options.has(name));
    everyOptionCache.set(allow, known);
  }
  return known;
}
