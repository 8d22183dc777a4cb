import type { CommandView, EffectsResult, FileAccess, FileEffect, Word, WriteNames } from '../types.js';
import { makeWord } from '../words.js';
import { type Grammar, has, operandWords, type Parsed, parseOptions } from './options.js';
import { is, leadingText, runtimeWord, syntheticWord } from './words.js';

export type EffectHandler = (cmd: CommandView) => EffectsResult;

export const UNKNOWN: EffectsResult = { effects: [], known: false };
export const NONE: EffectsResult = { effects: [], known: true };

export function argument(access: FileAccess, path: Word): FileEffect {
  return { access, path, via: 'argument' };
}

export function option(access: FileAccess, path: Word): FileEffect {
  return { access, path, via: 'option' };
}

/** A folder written with entries the command line does not name (see `FileEffect.tree`). */
export function treeWrite(
  path: Word,
  via: 'argument' | 'option' = 'argument',
  names?: WriteNames,
): FileEffect {
  return names
    ? { access: 'write', path, via, tree: true, names }
    : { access: 'write', path, via, tree: true };
}

/** The last part of a path word, when it is known and names an entry (`.` and `..` do not). */
export function basename(word: Word): string | undefined {
  if (!word.static) return undefined;
  const name = word.value.replace(/\/+$/, '').split('/').at(-1);
  return name && name !== '.' && name !== '..' ? name : undefined;
}

/**
 * What copying or moving `sources` into the folder `dest` writes: `dest/NAME` for each source's name (checked
 * whether or not `dest` turns out to be a folder: a protected name is asked about either way), and the folder
 * as a tree when a source's name is only known at run time.
 */
export function intoFolder(dest: Word, sources: readonly Word[]): FileEffect[] {
  return sources.map((source) => {
    const name = basename(source);
    return name === undefined
      ? treeWrite(dest)
      : argument('write', underFolder(dest, { ...source, text: name, value: name }));
  });
}

export function each(access: FileAccess | FileAccess[], words: readonly Word[]): FileEffect[] {
  const accesses = Array.isArray(access) ? access : [access];
  return words.flatMap((word) => accesses.map((kind) => argument(kind, word)));
}

export interface FileCommand {
  grammar: Grammar;
  /** Options whose value names a file, and what the command does with it. */
  fileOptions?: Record<string, FileAccess>;
  /** Options after which the files touched are not all named (`wc --files0-from`, `md5sum -c`). */
  unlisted?: string[];
  /** Options end at the first operand (POSIX); GNU commands permute by default. */
  posix?: boolean;
  /** What the command does with its operands. */
  operands: (operands: Word[], parsed: Parsed) => FileEffect[] | EffectsResult;
}

/**
 * A command whose options are parsed from the grammar. The result is unknown when an unlisted option
 * appears, or when a word that may be an option appears and some option of the command names a file.
 */
export function fileCommand(spec: FileCommand): EffectHandler {
  return (cmd) => {
    const parsed = parseOptions(cmd.argv, 1, spec.grammar, {
      permute: !spec.posix,
      unknown: 'flag',
      dynamic: 'operand',
    });
    if (!parsed.ok) return UNKNOWN;
    if (has(parsed, '--help', '--version')) return NONE;
    const effects: FileEffect[] = [];
    for (const found of parsed.options) {
      const access = spec.fileOptions?.[found.name];
      if (access && found.value) effects.push(option(access, found.value));
      if (spec.unlisted?.includes(found.name))
        effects.push(listedIn('read', found.value ?? cmd.argv[found.index]!));
    }
    const fromOperands = spec.operands(operandWords(cmd.argv, parsed), parsed);
    const result = Array.isArray(fromOperands) ? { effects: fromOperands, known: true } : fromOperands;
    const optionsNameFiles =
      Object.keys(spec.fileOptions ?? {}).length > 0 || (spec.unlisted?.length ?? 0) > 0;
    const known =
      result.known &&
      parsed.unknown.length === 0 &&
      (parsed.suspects.length === 0 || !optionsNameFiles) &&
      !has(parsed, ...(spec.unlisted ?? []));
    return { effects: [...effects, ...result.effects], known };
  };
}

/**
 * Files named only at run time, in a list file or on stdin (`tar -T LIST`, `rsync --files-from`): an effect whose
 * path is unknown, so that no rule can vouch for it.
 */
export function listedIn(access: FileAccess, at: Word): FileEffect {
  return option(access, runtimeWord(`the files listed in ${at.text}`, at.span));
}

/** Every operand is read. */
export function reads(operands: Word[]): FileEffect[] {
  return each('read', operands);
}

/** The folder a recursive search reads when it names none: the working folder, placed right after `after`. */
export function workingFolder(after: Word | undefined): Word {
  const at = after?.span.end ?? 0;
  return makeWord('.', '.', [], { start: at, end: at });
}

/** `member` read from inside `folder`: one word, static only when both are. */
export function underFolder(folder: Word, member: Word): Word {
  if (member.static && (member.value.startsWith('/') || member.text.startsWith('~'))) return member;
  const join = folder.value.endsWith('/') ? '' : '/';
  return {
    text: `${folder.text}${join}${member.text}`,
    value: `${folder.value}${join}${member.value}`,
    static: folder.static && member.static,
    dynamic: [...new Set([...folder.dynamic, ...member.dynamic])],
    span: { ...member.span },
  };
}

/** One word of a command line read by hand (`argvWords`). */
export interface ArgvStep {
  word: Word;
  /** The word's leading static text. */
  lead: string;
  /** False once `--` has ended the options (the `--` itself is not a step). */
  options: boolean;
  /** The next word, without taking it. */
  peek(): Word | undefined;
  /** Takes the next word (an option's value): it is not a step of its own. */
  take(): Word | undefined;
}

/** The words of a command line from `start`, for programs whose options are read by hand; the first `--` ends the options. */
export function* argvWords(words: readonly Word[], start = 1): Generator<ArgvStep> {
  let options = true;
  let i = start;
  const step = (word: Word): ArgvStep => ({
    word,
    lead: leadingText(word),
    options,
    peek: () => words[i + 1],
    take: () => words[++i],
  });
  for (; i < words.length; i++) {
    const word = words[i]!;
    if (options && is(word, '--')) {
      options = false;
      continue;
    }
    yield step(word);
  }
}

/**
 * Files the command line does not name and no rule can be checked against (`the files the links below docs lead
 * to`): the effect is decided as a path known only at run time, and the reason shows the description.
 */
export function unseenFiles(
  access: FileAccess,
  what: string,
  at: Word,
  via: FileEffect['via'] = 'argument',
): FileEffect {
  return { access, path: { ...runtimeWord(what, at.span), value: `⟨${what}⟩` }, via };
}

/**
 * The file a download without an output name writes: the URL's last path segment (`fallback` when it has none),
 * in `folder`; a name only known at run time when the URL is.
 */
export function downloadedName(url: Word, folder: Word | undefined, fallback: string | undefined): Word {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url.value)?.[1];
  const last = path?.slice(path.lastIndexOf('/') + 1) || fallback;
  const name =
    url.static && last ? syntheticWord(last, url.span) : runtimeWord('the name the server gives', url.span);
  return folder ? underFolder(folder, name) : name;
}
