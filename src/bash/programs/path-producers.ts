import type { CommandView, Word } from '../types.js';
import { FD_GRAMMAR, splitExecs } from './fd.js';
import { parseFind } from './find/expression.js';
import { grammar, operandWords, optionsNamed, parseOptions } from './options.js';
import { is, syntheticWord } from './words.js';
import { wrapperSyntax } from './wrappers.js';

/**
 * What a command prints when it prints only the names of files below known folders: the input a consumer of run-time
 * operands (`… | xargs cat`, `cat $(…)`, `find … -exec cat {} +`) gets. A command not listed here, or run with an
 * option not listed, prints something else (`find -printf`, `ls -l`, `fd --format`) and gives undefined.
 */
export interface ProducedPaths {
  /** The folders every printed name lies below, as written; `.` stands for the working folder. */
  roots: Word[];
  /** What ends each name: a newline, or a NUL byte (`find -print0`, `git ls-files -z`, `fd -0`). */
  separator: 'newline' | 'nul';
  /**
   * Names are printed bare, relative to the working folder (`ls`, `git ls-files`, `fd` without a folder): one that
   * begins with `-` reads as an option to the consumer.
   */
  bare: boolean;
  /** The walk follows links below the roots (`find -L`, `fd -L`), printing the names in the folders they lead to. */
  followsLinks: boolean;
  /** Only the entries directly in the roots are printed (`ls`). */
  shallow: boolean;
}

/**
 * find's primaries that only choose which names are printed and print them with -print or -print0 (GNU find's
 * manual: the tests and the options that change the walk). Actions that print anything else (-printf, -ls,
 * -fprint…), run programs (-exec) or delete are left out.
 */
const FIND_TESTS = new Set(
  (
    '-amin -anewer -atime -cmin -cnewer -ctime -empty -executable -false -fstype -gid -group -ilname -iname ' +
    '-inum -ipath -iregex -iwholename -links -lname -mmin -mtime -name -newer -nogroup -nouser -path -perm ' +
    '-readable -regex -samefile -size -true -type -uid -used -user -wholename -writable -xtype ' +
    '-depth -maxdepth -mindepth -mount -xdev -noleaf -daystart -regextype -ignore_readdir_race ' +
    '-noignore_readdir_race -follow -prune -print -print0 -a -o -and -or -not'
  ).split(' '),
);
const FIND_OPERATORS = new Set(['(', ')', '!', '-a', '-o', '-and', '-or', '-not']);

/** find ROOTS EXPRESSION: the roots, when the expression only filters and prints names. */
function findPaths(view: CommandView): ProducedPaths | undefined {
  const roots = findRoots(view);
  if (!roots) return undefined;
  const expression = parseFind(view.argv);
  if (expression.execs.length > 0) return undefined;
  let print = false;
  let print0 = false;
  for (const primary of expression.primaries) {
    if (!FIND_TESTS.has(primary.name)) return undefined;
    if (primary.name === '-print') print = true;
    if (primary.name === '-print0') print0 = true;
  }
  // The words between primaries are operators only: anything else is a word find would refuse.
  const used = new Set<number>();
  for (const primary of expression.primaries) {
    for (let i = 0; i <= primary.args.length; i++) used.add(primary.index + i);
  }
  for (let i = 1 + roots.leading + expression.paths.length; i < view.argv.length; i++) {
    const word = view.argv[i]!;
    if (!used.has(i) && !(word.static && FIND_OPERATORS.has(word.value))) return undefined;
  }
  if (print && print0) return undefined;
  return {
    roots: roots.words,
    separator: print0 ? 'nul' : 'newline',
    bare: false,
    followsLinks: roots.follows || expression.primaries.some((p) => p.name === '-follow'),
    shallow: false,
  };
}

/**
 * The folders `find` starts from (`.` when none is given) and whether it follows links (`-L`), whatever its
 * expression: every name it prints or passes to `-exec … {}` begins with one of them. Undefined when a root is
 * only known at run time or could read as an option, or a debug or optimisation option is given.
 */
export function findRoots(
  view: CommandView,
): { words: Word[]; follows: boolean; leading: number } | undefined {
  if (view.program !== 'find') return undefined;
  const argv = view.argv;
  let i = 1;
  let follows = false;
  while (i < argv.length && is(argv[i], '-H', '-L', '-P')) {
    if (argv[i]!.value === '-L') follows = true;
    else follows = false;
    i++;
  }
  const leading = i - 1;
  const expression = parseFind(argv);
  if (expression.invalid || expression.unknownPrimary || expression.unsure.length > 0) return undefined;
  const words = expression.paths;
  if (words.some((w) => !w.static || w.value === '' || w.value.startsWith('-'))) return undefined;
  if (argv.slice(1, i).length !== leading) return undefined;
  const roots = words.length > 0 ? words : [syntheticWord('.', argv[0]!.span)];
  return { words: roots, follows, leading };
}

/** `git ls-files` options that only choose which of the work tree's files are listed, by name. */
const LS_FILES_FLAGS = new Set(['z', 'c', 'm', 'o', 'd']);
const LS_FILES_LONG = new Set(['--cached', '--modified', '--others', '--deleted', '--exclude-standard']);

/**
 * `git ls-files [-z] [-c|-m|-o|-d] [--exclude-standard] [PATHSPEC…]` (git-ls-files(1)): the files below the working
 * folder, printed relative to it. Pathspecs only narrow the list when they stay below it (no `..`, no magic, no
 * absolute path).
 */
function lsFilesPaths(view: CommandView): ProducedPaths | undefined {
  const argv = view.argv;
  if (!is(argv[1], 'ls-files')) return undefined;
  let nul = false;
  let dashdash = false;
  for (const word of argv.slice(2)) {
    if (!word.static && !(word.dynamic.every((d) => d === 'glob') && !word.text.includes('/')))
      return undefined;
    const value = word.value;
    if (!dashdash && value === '--') {
      dashdash = true;
      continue;
    }
    if (!dashdash && value.startsWith('--')) {
      if (!LS_FILES_LONG.has(value)) return undefined;
      continue;
    }
    if (!dashdash && value.startsWith('-') && value.length > 1) {
      for (const flag of value.slice(1)) if (!LS_FILES_FLAGS.has(flag)) return undefined;
      if (value.includes('z')) nul = true;
      continue;
    }
    if (value === '' || value.startsWith(':') || value.startsWith('/') || value.split('/').includes('..'))
      return undefined;
  }
  return {
    roots: [dot(view)],
    separator: nul ? 'nul' : 'newline',
    bare: true,
    followsLinks: false,
    shallow: false,
  };
}

/** fd's options that only choose which names are printed, printed as paths (not --format, -l, --color, -x). */
const FD_PRINTS_PATHS = new Set(
  (
    'H --no-hidden I --ignore --no-ignore-vcs --ignore-vcs --no-require-git --require-git --no-ignore-parent ' +
    '--ignore-parent --no-global-ignore-file u s i g --regex F --exact a --relative-path --no-follow L p 0 d ' +
    '--min-depth --exact-depth E --prune t e S --changed-within --changed-before o --search-path ' +
    '--strip-cwd-prefix --one-file-system'
  ).split(' '),
);

/** With a command to run: `-l` too, which runs `ls -l` on the names; `--strip-cwd-prefix` is left out. */
const FD_EXEC_OPTIONS = new Set([...FD_PRINTS_PATHS, 'l'].filter((name) => name !== '--strip-cwd-prefix'));

/** `fd [PATTERN] [FOLDER…]`: the names below the folders, or below the working folder, printed bare. */
function fdPaths(view: CommandView): ProducedPaths | undefined {
  return fdNames(view.argv, FD_PRINTS_PATHS);
}

/**
 * The names fd hands the commands of `-x`, `-X` and `-l` (`ls -l`): those it would print, each as a path (`./`
 * before a name found below the working folder, fd's `--strip-cwd-prefix` default with a command).
 */
export function fdExecPaths(view: CommandView): ProducedPaths | undefined {
  if (view.program !== 'fd' && view.program !== 'fdfind') return undefined;
  const { own, follows } = splitExecs(view.argv);
  const produced = fdNames(own, FD_EXEC_OPTIONS);
  if (!produced) return undefined;
  return { ...produced, bare: false, followsLinks: produced.followsLinks || follows };
}

function fdNames(words: readonly Word[], allowed: ReadonlySet<string>): ProducedPaths | undefined {
  const parsed = parseOptions(words, 1, FD_GRAMMAR, { permute: true });
  if (!parsed.ok) return undefined;
  if (parsed.options.some((option) => !allowed.has(option.name))) return undefined;
  if (words.slice(1).some((word) => !word.static)) return undefined;
  const operands = operandWords(words, parsed);
  const folders = [
    ...operands.slice(1),
    ...optionsNamed(parsed, '--search-path').map((option) => option.value!),
  ];
  if (folders.some((w) => w.value === '' || w.value.startsWith('-'))) return undefined;
  return {
    roots: folders.length > 0 ? folders : [syntheticWord('.', words[0]!.span)],
    separator: optionsNamed(parsed, '0').length > 0 ? 'nul' : 'newline',
    bare: folders.length === 0 || optionsNamed(parsed, '--strip-cwd-prefix').length > 0,
    followsLinks: optionsNamed(parsed, 'L').length > 0,
    shallow: false,
  };
}

/** ls options that keep its output one bare name per line (no long format, no `.` and `..`, no markers). */
const LS = grammar({
  flags: '1AtrSXUvcud',
  values: '',
  long: 'almost-all/A reverse/r directory/d',
  abbreviate: true,
});

/**
 * `ls [NAME…]` of names in the working folder (no `/` in any: a glob like `*.txt`, or `.`): each printed name is a
 * bare name read relative to the working folder, an entry of it or of a folder in it.
 */
function lsPaths(view: CommandView): ProducedPaths | undefined {
  // A glob may expand to a name beginning with `-`: the names the policy walks are checked for one.
  const parsed = parseOptions(view.argv, 1, LS, { permute: true, dynamic: 'operand' });
  if (!parsed.ok) return undefined;
  for (const word of operandWords(view.argv, parsed)) {
    if (!word.static && !word.dynamic.every((d) => d === 'glob')) return undefined;
    const value = word.value;
    if (value === '..' || value === '' || value.startsWith('-')) return undefined;
    if (value !== '.' && value !== './' && value.includes('/')) return undefined;
  }
  return { roots: [dot(view)], separator: 'newline', bare: true, followsLinks: false, shallow: true };
}

function dot(view: CommandView): Word {
  return syntheticWord('.', view.argv[0]!.span);
}

/** The names a command prints, when it prints only names of files below known folders. */
export function producedPaths(view: CommandView): ProducedPaths | undefined {
  if (view.assignments.length > 0) return undefined;
  switch (view.program) {
    case 'find':
      return findPaths(view);
    case 'git':
      return lsFilesPaths(view);
    case 'fd':
    case 'fdfind':
      return fdPaths(view);
    case 'ls':
      return lsPaths(view);
    default:
      return undefined;
  }
}

/** How xargs reads its input into arguments. */
export interface XargsInput {
  /** `blanks`: names end at blanks and newlines, quotes and backslashes are read; `newline` (`-d '\n'`); `nul` (`-0`). */
  split: 'blanks' | 'newline' | 'nul';
  /** `-I R`: each name replaces R in the command's words instead of being appended. */
  replace?: string;
  /** `-E`/`-e`: input stops at a line holding this string. */
  eof?: true;
}

/**
 * xargs options that only change how many names go to each run and how runs are scheduled (GNU xargs --help);
 * `-a` (names from a file), `-p`/`-o` (a terminal), `--process-slot-var` (sets a variable the command sees) and a
 * delimiter other than newline are left out.
 */
const XARGS_BATCHING = new Set(['n', 'L', 'l', 's', 'x', 'r', 't', 'P', 'E', 'e', '0', 'd', 'I', 'i']);

/** How xargs, run with these words, splits its input; undefined for an option outside the batching ones. */
export function xargsInput(view: CommandView): XargsInput | undefined {
  if (view.program !== 'xargs' || view.assignments.length > 0) return undefined;
  const syntax = wrapperSyntax('xargs');
  const parsed = parseOptions(view.argv, 1, syntax.grammar, { permute: false });
  if (!parsed.ok) return undefined;
  let split: XargsInput['split'] = 'blanks';
  let replace: string | undefined;
  for (const option of parsed.options) {
    if (!XARGS_BATCHING.has(option.name)) return undefined;
    if (option.value && !option.value.static) return undefined;
    if (option.name === '0') split = 'nul';
    if (option.name === 'd') {
      if (option.value?.value !== '\\n' && option.value?.value !== '\n') return undefined;
      split = 'newline';
    }
    if (option.name === 'I' || option.name === 'i') replace = option.value?.value ?? '{}';
  }
  const eof = parsed.options.some((option) => option.name === 'E' || option.name === 'e');
  return { split, ...(replace === undefined ? {} : { replace }), ...(eof ? { eof: true as const } : {}) };
}

/**
 * How xargs, run with these words, takes its input from its own stdin and nothing else: only its batching options
 * (not `-a FILE`, nor `-o`/`-p`, which open the terminal), with the `-I` string if one is given; undefined
 * otherwise.
 */
export function xargsStdinInput(view: CommandView): { replace?: string } | undefined {
  if (view.program !== 'xargs' || view.assignments.length > 0) return undefined;
  const parsed = parseOptions(view.argv, 1, wrapperSyntax('xargs').grammar, { permute: false });
  if (!parsed.ok) return undefined;
  let replace: string | undefined;
  for (const option of parsed.options) {
    if (!XARGS_BATCHING.has(option.name) || (option.value && !option.value.static)) return undefined;
    if (option.name === 'I' || option.name === 'i') replace = option.value?.value ?? '{}';
  }
  return replace === undefined ? {} : { replace };
}

/**
 * What `echo WORD…` or `printf FORMAT [WORD…]` prints, when every word is written out and holds no `~`: bash's builtin `echo`
 * without options (a word starting with `-` may be one) or backslashes; `printf` with a format of `%s`, `%%`,
 * `\n`, `\t`, `\0` and plain characters, repeated while words are left (bash's `help printf`).
 */
export function literalOutput(view: CommandView): string | undefined {
  if (view.assignments.length > 0 || view.argv.some((word) => !word.static)) return undefined;
  const words = view.argv.slice(1).map((word) => word.value);
  // A tilde may be the home folder (`echo ~/a`) or a name, by its quoting and place.
  if (words.some((word) => word.includes('~'))) return undefined;
  if (view.program === 'echo') {
    if (words.some((word) => word.startsWith('-') || word.includes('\\'))) return undefined;
    return `${words.join(' ')}\n`;
  }
  if (view.program !== 'printf' || words.length === 0) return undefined;
  const [format, ...args] = words as [string, ...string[]];
  if (format.startsWith('-')) return undefined;
  const tokens = format.match(/%s|%%|\\[nt0]|[^%\\]/g);
  if (!tokens || tokens.join('') !== format) return undefined;
  const takes = tokens.filter((token) => token === '%s').length;
  let out = '';
  let next = 0;
  do {
    for (const token of tokens) {
      if (token === '%s') out += args[next++] ?? '';
      else out += ESCAPES[token] ?? token;
    }
  } while (takes > 0 && next < args.length);
  return out;
}

const ESCAPES: Record<string, string> = { '%%': '%', '\\n': '\n', '\\t': '\t', '\\0': '\0' };

/**
 * The arguments xargs makes of a known input: split at blanks (quotes and backslashes refused: xargs reads them),
 * at newlines (`-d '\n'`, and `-I`, which also drops a line's leading blanks) or at NUL bytes (`-0`). Undefined
 * when there are none (xargs would run the command once without them) or an end-of-input string may cut them.
 */
export function xargsWords(input: string, how: XargsInput): string[] | undefined {
  if (how.eof) return undefined;
  const replace = how.replace !== undefined;
  if (how.split !== 'nul' && input.includes('\0')) return undefined;
  if (how.split === 'blanks' && /['"\\]/.test(input)) return undefined;
  let words: string[];
  if (how.split === 'nul') words = input.split('\0');
  else if (how.split === 'newline' || replace) words = input.split('\n');
  else words = input.split(/[ \t\n]+/).filter((word) => word !== '');
  if (replace && how.split === 'blanks') words = words.map((word) => word.replace(/^[ \t]+/, ''));
  if (words.at(-1) === '') words.pop();
  if (words.length === 0 || words.includes('')) return undefined;
  return words;
}
