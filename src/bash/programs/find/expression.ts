import { DYN, type Word } from '../../types.js';
import { is, leadingText, singleField, splitsFreely } from '../words.js';

/** Primaries and how many arguments they take; -exec and friends take a command up to `;` or `{} +`. */
export const ARITY: Record<string, number> = {};
for (const name of [
  'amin anewer atime cmin cnewer ctime fls fprint fprint0 fstype gid group ilname iname inum ipath iregex',
  'iwholename links lname maxdepth mindepth mmin mtime name newer path perm printf regex regextype samefile',
  'size type uid used user wholename xtype context files0-from Bmin Bnewer Btime gname uname xattrname',
].flatMap((line) => line.split(' '))) {
  ARITY[`-${name}`] = 1;
}
ARITY['-fprintf'] = 2;

export const EXEC_PRIMARIES = ['-exec', '-execdir', '-ok', '-okdir'];

/** Primaries that name a file: what they do with it. */
export const FILE_PRIMARIES: Record<string, 'read' | 'write'> = {
  '-fls': 'write',
  '-fprint': 'write',
  '-fprint0': 'write',
  '-fprintf': 'write',
  '-newer': 'read',
  '-anewer': 'read',
  '-cnewer': 'read',
  '-Bnewer': 'read',
  '-samefile': 'read',
  '-files0-from': 'read',
};

export interface FindExec {
  primary: string;
  /** The command words between the primary and its terminator. */
  words: Word[];
  /** `{}` appears: find substitutes file names. */
  extraArgs: boolean;
}

export interface FindPrimary {
  name: string;
  args: Word[];
  index: number;
}

export interface FindExpression {
  paths: Word[];
  primaries: FindPrimary[];
  execs: FindExec[];
  /** Words whose role (path, primary or argument) depends on run-time values. */
  unsure: { word: Word; reason: string; runs: boolean }[];
  /** A primary not in the table: its arguments, if any, were read as expression words. */
  unknownPrimary: boolean;
  /** find will reject the expression (a missing terminator or argument): it runs nothing. */
  invalid: boolean;
}

const OPERATORS = ['(', ')', '!', ',', '-a', '-o', '-and', '-or', '-not'];

/** Field splitting, or a glob at the start of the word, may turn it into any words at all. */
function mayBecomeAnything(word: Word): boolean {
  return splitsFreely(word) || (!singleField(word) && leadingText(word) === '');
}

function mayBeTerminator(word: Word): boolean {
  return !word.static && word.value.replaceAll(DYN, '') === '';
}

function startsExpression(word: Word): boolean {
  const lead = leadingText(word);
  return (lead.startsWith('-') && word.value.length > 1) || is(word, ...OPERATORS);
}

/** The nested-command and file-effect tables both read a find expression: it is parsed once per argv. */
const parsed = new WeakMap<readonly Word[], FindExpression>();

export function parseFind(words: readonly Word[]): FindExpression {
  let result = parsed.get(words);
  if (!result) {
    result = parseFindExpression(words);
    parsed.set(words, result);
  }
  return result;
}

function parseFindExpression(words: readonly Word[]): FindExpression {
  const result: FindExpression = {
    paths: [],
    primaries: [],
    execs: [],
    unsure: [],
    unknownPrimary: false,
    invalid: false,
  };
  const laterTerminator = (from: number) => words.slice(from).some((word) => is(word, ';', '+'));
  let i = 1;
  while (i < words.length && (is(words[i], '-H', '-L', '-P') || /^-O\d*$/.test(words[i]!.value))) i++;
  if (is(words[i], '-D')) i += 2;

  const noteUnsure = (index: number) => {
    const word = words[index]!;
    const next = words[index + 1];
    const couldRunNext = next !== undefined && !startsExpression(next) && laterTerminator(index + 1);
    const runs = mayBecomeAnything(word) || couldRunNext;
    result.unsure.push({ word, reason: `${word.text} may be a path or a find primary`, runs });
  };

  for (; i < words.length; i++) {
    const word = words[i]!;
    if (startsExpression(word)) break;
    if ((!word.static && leadingText(word) === '') || mayBecomeAnything(word)) noteUnsure(i);
    result.paths.push(word);
  }

  while (i < words.length) {
    const word = words[i]!;
    if ((!word.static && leadingText(word) === '') || mayBecomeAnything(word)) {
      noteUnsure(i);
      i++;
      continue;
    }
    const name = word.value;
    if (EXEC_PRIMARIES.includes(name)) {
      const end = execEnd(words, i + 1);
      if (end < 0) {
        result.invalid = true;
        return result;
      }
      const command = words.slice(i + 1, end);
      checkExecWords(command, result);
      result.execs.push({
        primary: name,
        words: command,
        extraArgs: command.some((arg) => arg.value.includes('{}')),
      });
      result.primaries.push({ name, args: command, index: i });
      i = end + 1;
      continue;
    }
    if (OPERATORS.includes(name) || !name.startsWith('-')) {
      i++;
      continue;
    }
    const arity = ARITY[name] ?? (/^-newer[aBcm][aBcmt]$/.test(name) ? 1 : 0);
    if (ARITY[name] === undefined && arity === 0 && !ZERO_ARITY.has(name)) result.unknownPrimary = true;
    if (i + arity >= words.length) {
      result.invalid = true;
      return result;
    }
    const args = words.slice(i + 1, i + 1 + arity);
    for (const arg of args) {
      if (mayBecomeAnything(arg)) {
        result.unsure.push({ word: arg, reason: `${arg.text} may expand to several words`, runs: true });
      }
    }
    result.primaries.push({ name, args, index: i });
    i += 1 + arity;
  }
  return result;
}

export const ZERO_ARITY = new Set(
  (
    '-delete -depth -d -empty -false -true -follow -ignore_readdir_race -noignore_readdir_race -ls -mount ' +
    '-xdev -nogroup -nouser -noleaf -print -print0 -prune -quit -readable -writable -executable -daystart ' +
    '-warn -nowarn -help -version -x -s -E -X -sparse -xattr -acl -exit'
  ).split(' '),
);

/** Index of the `;` or `{} +` ending an -exec command that starts at `from`; -1 when there is none. */
function execEnd(words: readonly Word[], from: number): number {
  for (let j = from; j < words.length; j++) {
    if (is(words[j], ';')) return j;
    if (is(words[j], '+') && j > from && is(words[j - 1], '{}')) return j;
  }
  return -1;
}

/** A dynamic word that expands to `;` ends the command early and hands the rest to find as expression. */
function checkExecWords(command: Word[], result: FindExpression): void {
  command.forEach((word, index) => {
    if (mayBecomeAnything(word)) {
      result.unsure.push({
        word,
        reason: `${word.text} may expand to several words, ending -exec early`,
        runs: true,
      });
    } else if (mayBeTerminator(word) && command.slice(index + 1).some(startsExpression)) {
      result.unsure.push({ word, reason: `${word.text} may be \`;\`, ending -exec early`, runs: true });
    }
  });
}
