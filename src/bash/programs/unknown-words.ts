import type { Word } from '../types.js';
import { type ParsedLevel, type ProgramSpec, parseCommand } from './program.js';

/** A word of a command line the program's spec does not know. */
export interface UnknownWord {
  /**
   * `form`: the line cannot be read at all; `subcommand`: a subcommand the spec does not list (`leftToHandler`:
   * the spec lists none at that level, leaving them to the program's handler); `option`: an option at any level;
   * `unlisted`: a flag the grammar reads without listing it (`unlistedFlags`) and the allow-list does not name.
   */
  kind: 'form' | 'subcommand' | 'option' | 'unlisted';
  /** Why, for a reason shown to the user: `git log has no option --zz that automode knows`. */
  what: string;
  /** Index of the word in the argument vector. */
  at: number;
  leftToHandler?: true;
}

/** Every word of the command line the spec does not know: the subcommand first, then the options level by level. */
export function unknownWords(spec: ProgramSpec, words: readonly Word[]): UnknownWord[] {
  const other = spec.readAs?.(words);
  if (other) {
    return unknownWords(other.spec, other.words).map((u) => {
      const at = words.indexOf(other.words[u.at]!);
      return { ...u, at: at < 0 ? Math.min(u.at + 1, words.length - 1) : at };
    });
  }
  const own = spec.ownWords?.(words);
  if (own && own.length !== words.length) {
    // Indices into the words the grammar reads, mapped back to the command line's.
    return unknownWords({ ...spec, ownWords: undefined }, own).map((u) => ({
      ...u,
      at: words.indexOf(own[u.at] ?? own[own.length - 1]!),
    }));
  }
  const argv = words;
  const parsed = parseCommand(spec, argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok) {
    const at = argv.findIndex((w) => w.span.start <= parsed.span.start && parsed.span.start < w.span.end);
    return [
      { kind: 'form', what: `${spec.name} cannot read ${parsed.reason}`, at: at < 0 ? argv.length - 1 : at },
    ];
  }
  const out: UnknownWord[] = [];
  if (parsed.unknownSubcommand) {
    const { word, index } = parsed.unknownSubcommand;
    const listed = Object.keys(parsed.levels.at(-1)!.spec.subcommands ?? {}).length > 0;
    out.push({
      kind: 'subcommand',
      what: `${spec.name} has no subcommand ${word.text} that automode knows`,
      at: index,
      ...(listed ? {} : { leftToHandler: true as const }),
    });
  }
  for (const level of parsed.levels) {
    for (const option of level.parsed.unknown) {
      const what = `${level.name} has no option ${argv[option.index]?.text ?? option.name} that automode knows`;
      out.push({ kind: 'option', what, at: option.index });
    }
    for (const option of unlisted(level)) {
      const what = `${level.name} reads ${option.name} without listing it`;
      out.push({ kind: 'unlisted', what, at: option.index });
    }
  }
  return out;
}

/** Flags a grammar reads without listing them (`unlistedFlags`) that its read-only allow-list does not name. */
function unlisted(level: ParsedLevel) {
  const { grammar, readOnly } = level.spec;
  if (!grammar.unlistedFlags) return [];
  return level.parsed.options.filter(
    (found) =>
      found.name.startsWith('--') &&
      !grammar.long.has(found.name.slice(2)) &&
      !readOnly?.options.has(found.name) &&
      !Object.hasOwn(readOnly?.why ?? {}, found.name),
  );
}
