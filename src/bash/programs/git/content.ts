import type { CommandView, EffectsResult, FileEffect, Word } from '../../types.js';
import { argument, option } from '../effect-helpers.js';
import { type Grammar, has, lookupLong, optionsNamed, type Parsed, parseOptions } from '../options.js';
import { leadingText, sliceWord, syntheticWord } from '../words.js';
import { mayBeRevision } from './operands.js';
import { REVISION_WALK } from './read-only.js';
import { gitLevel } from './spec.js';

/**
 * How a command comes to print the contents of files: `patch` prints a diff unless a format option says
 * otherwise (`git show`, `git diff`); `options` only when an option asks for it (`git log -p`, `-S`);
 * `always` whatever its options (`git grep`, `git blame`).
 */
type Prints = 'patch' | 'options' | 'always';

/** Commands that print what the repository holds, and how. */
const CONTENT: Readonly<Record<string, Prints>> = {
  show: 'patch',
  diff: 'patch',
  'stash show': 'patch',
  log: 'options',
  whatchanged: 'options',
  reflog: 'options',
  'reflog show': 'options',
  'stash list': 'options',
  'diff-tree': 'options',
  'diff-files': 'options',
  'diff-index': 'options',
  'rev-list': 'options',
  grep: 'always',
  blame: 'always',
  annotate: 'always',
  'cat-file': 'always',
  archive: 'always',
  'format-patch': 'always',
  'range-diff': 'always',
  'fast-export': 'always',
  'notes show': 'always',
  'merge-tree': 'always',
  'pack-objects': 'always',
  'bundle create': 'always',
  'checkout-index': 'always',
};

/** Content commands that may also write (files, packs, objects): what they touch is not all listed. */
const WRITING = new Set(['merge-tree', 'pack-objects', 'bundle create', 'checkout-index', 'fast-export']);

/** Commands that print the whole history or tree they are given, whatever pathspecs follow. */
const WHOLE = new Set([
  'archive',
  'format-patch',
  'range-diff',
  'fast-export',
  'notes show',
  'merge-tree',
  'pack-objects',
  'bundle create',
  'checkout-index',
]);

/**
 * Options of the revision walker and the diff machinery that print no line of any file: names, counts, hashes,
 * messages, and how commits are picked. Any other option (`-p`, `-U3`, `--cc`, `--word-diff`, `--check`, `-S`,
 * `-G`, `-L`, `--submodule=diff`…) may print contents or tell them apart, and makes the command a reader of the
 * files it walks.
 */
const NO_CONTENT =
  `${REVISION_WALK} ` +
  '--no-diff-merges -t -r --root --always --no-commit-id ' +
  '--track-linear --unsorted-input --object-names --no-object-names -v -q --quiet --source --use-mailmap ' +
  '--mailmap --clear-decorations --decorate-refs --decorate-refs-exclude --decorate --no-decorate ' +
  '-s --no-patch --raw --numstat --shortstat -X --dirstat --cumulative --dirstat-by-file --summary ' +
  '--name-only --name-status --stat --stat-width --stat-name-width --stat-graph-width --stat-count ' +
  '--compact-summary --color --no-color --abbrev --no-abbrev --full-index --src-prefix --dst-prefix ' +
  '--line-prefix --no-prefix -B --break-rewrites -M --find-renames -D --irreversible-delete -C --find-copies ' +
  '--find-copies-harder --no-renames --rename-empty --no-rename-empty --follow --no-follow --relative ' +
  '--no-relative --exit-code --no-ext-diff --no-textconv --ignore-submodules --ita-invisible-in-index ' +
  '--ita-visible-in-index --diff-filter -l -R -z --find-object --minimal --patience --histogram ' +
  '--diff-algorithm --anchored --indent-heuristic --no-indent-heuristic -O --cached --staged --merge-base ' +
  '--no-index -0 -1 -2 -3 --base --ours --theirs --stdin -m --include-untracked --only-untracked';

/** Formats that replace the patch `git show` and `git diff` print by default. */
const NO_PATCH =
  '-s --no-patch --raw --numstat --shortstat -X --dirstat --dirstat-by-file --summary --name-only ' +
  '--name-status --stat --compact-summary --quiet';

/** The names a parse reports for the options written, those the grammar has. */
function reportedNames(g: Grammar, options: string): Set<string> {
  const names = new Set<string>();
  for (const option of options.split(/\s+/).filter(Boolean)) {
    if (option.startsWith('--')) {
      const name = option.slice(2);
      const found = g.long.get(name) ?? (name.startsWith('no-') ? lookupLong(g, name) : undefined);
      if (found) names.add(found.name);
    } else if (option === '-#') {
      if (g.numeric) names.add(option);
    } else if (`${g.flags}${g.values}${g.optional}`.includes(option[1]!)) {
      names.add(option[1]!);
    }
  }
  return names;
}

const lists = new Map<Grammar, { quiet: Set<string>; noPatch: Set<string> }>();

function listsFor(g: Grammar) {
  let found = lists.get(g);
  if (!found) {
    found = { quiet: reportedNames(g, NO_CONTENT), noPatch: reportedNames(g, NO_PATCH) };
    lists.set(g, found);
  }
  return found;
}

/** Whether the command's options make it print file contents (or tell them apart, as `-S` does). */
function printsContent(sub: string, prints: Prints, parsed: Parsed, g: Grammar): boolean {
  if (prints === 'always') return sub !== 'cat-file' || catFilePrints(parsed);
  const { quiet, noPatch } = listsFor(g);
  if (parsed.unknown.length > 0 || parsed.options.some((found) => !quiet.has(found.name))) return true;
  if (prints === 'options') return false;
  return !parsed.options.some((found) => noPatch.has(found.name));
}

/** `git cat-file -t`, `-s`, `-e` and `--batch-check` print types and sizes; any other form prints objects. */
function catFilePrints(parsed: Parsed): boolean {
  if (has(parsed, 'p', '--batch', '--batch-command', '--textconv', '--filters')) return true;
  return !has(parsed, 't', 's', 'e', '--batch-check');
}

/** What the operands of a content command name. */
interface Named {
  /** Paths that are read, relative to the working folder. */
  paths: Word[];
  /** Paths that are read, relative to the top of the repository. */
  fromRoot: Word[];
  /** Something names every file (no pathspec, a pathspec with magic or a wildcard, `REV:`). */
  whole: boolean;
  /** A pathspec limits what is printed. */
  limited: boolean;
  /** An operand may be a revision that is not `REV:PATH`: an object that may be any blob or tree. */
  objects: boolean;
  /** An operand is `REV:PATH`: a blob or a tree. */
  blobs: boolean;
  /** An operand names a commit. */
  commits: boolean;
}

/** `:(glob)…`, `:!x`, `:^x`, `:/x`: a pathspec with magic, or `:/text`, a commit found by its message. */
const MAGIC = /^:[(!^/]/;
/** Characters that make a pathspec a pattern. */
const WILDCARD = /[*?[]/;

/**
 * `REV:PATH` as git reads it (gitrevisions(7)): the first `:` outside `{…}` (`HEAD^{/fix: x}:a` names `a`);
 * `:PATH` and `:N:PATH` name PATH in the index. The path, or undefined when the word names no path this way.
 */
export function revisionPath(word: Word): Word | undefined {
  const text = leadingText(word);
  if (MAGIC.test(text)) return undefined;
  let colon = -1;
  if (text.startsWith(':')) {
    const stage = /^:\d:/.exec(text);
    colon = stage ? stage[0].length - 1 : 0;
  } else {
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '{') depth++;
      else if (c === '}' && depth > 0) depth--;
      else if (c === ':' && depth === 0) {
        colon = i;
        break;
      }
    }
  }
  return colon < 0 ? undefined : sliceWord(word, colon + 1);
}

/** The sides of `A..B` and `A...B`, split where git splits them: at the first `..`. */
function rangeSides(word: Word): Word[] {
  const text = leadingText(word);
  const at = text.indexOf('..');
  if (at < 0) return [];
  const from = text.startsWith('...', at) ? at + 3 : at + 2;
  const left = { ...word, value: word.value.slice(0, at), text: word.text.slice(0, at) };
  return [left, sliceWord(word, from)].filter((side) => side.value !== '');
}

/**
 * What each operand may name. git tells revisions from paths by what exists, so a word that may be either is
 * read as a path too (`src/../.env`, `../x` are paths as much as ranges); a revision's `:PATH` names a path from
 * the top of the repository, `:./x` and `:../x` from the working folder. `skip` operands are not files (the
 * pattern of `git grep`, the type of `git cat-file TYPE OBJECT`).
 */
function namedBy(cmd: CommandView, parsed: Parsed, skip: number): Named {
  const named: Named = {
    paths: [],
    fromRoot: [],
    whole: false,
    limited: false,
    objects: false,
    blobs: false,
    commits: false,
  };
  const pathspec = (word: Word) => {
    named.limited = true;
    if (MAGIC.test(leadingText(word)) || WILDCARD.test(word.value)) named.whole = true;
    if (!MAGIC.test(leadingText(word))) named.paths.push(word);
  };
  for (const index of parsed.operands.slice(skip)) {
    const word = cmd.argv[index]!;
    if (parsed.dashdash !== undefined && index > parsed.dashdash) {
      pathspec(word);
      continue;
    }
    if (!word.static) {
      named.paths.push(word);
      named.objects = true;
      continue;
    }
    const text = word.value;
    let revision = false;
    for (const side of [word, ...rangeSides(word)]) {
      const path = revisionPath(side);
      if (!path) continue;
      revision = true;
      if (path.value === '' || WILDCARD.test(path.value)) named.whole = true;
      else if (/^\.\.?\//.test(leadingText(path))) named.paths.push(path);
      else named.fromRoot.push(path);
    }
    if (MAGIC.test(text)) {
      named.whole = true;
      named.objects = true;
    } else if (revision) {
      // A blob or tree named by its path: it limits what is printed as a pathspec does.
      named.limited = true;
      named.blobs = true;
    } else if (text.includes('..')) {
      named.paths.push(word);
      named.objects = true;
    } else if (COMMIT.test(text)) {
      // git refuses a word that names both a revision and a file, and these always name a commit.
      named.commits = true;
    } else if (mayBeRevision(text) || REVISION_MARK.test(text)) {
      named.paths.push(word);
      named.objects = true;
    } else {
      pathspec(word);
    }
  }
  return named;
}

/** `HEAD^!`, `x^@`, `x^-2`, `x@{u}`: characters that make a word a revision as much as a path. */
const REVISION_MARK = /[~^@{}!]/;

/** Revisions that can only name a commit: HEAD and its kin, their ancestors and reflog entries. */
const COMMIT =
  /^(HEAD|@|ORIG_HEAD|FETCH_HEAD|MERGE_HEAD|CHERRY_PICK_HEAD)(~\d*|\^\d*|\^!|\^@|\^-\d*|@\{[^}]*\}|\^\{(commit|\/[^}]*)\})*$/;

/** `-L<start>,<end>:<file>` and `-L:<funcname>:<file>`: the file is after one of the colons. */
function lineRangeFiles(value: Word): Word[] {
  const text = leadingText(value);
  const files: Word[] = [];
  for (let i = text.indexOf(':', 1); i >= 0; i = text.indexOf(':', i + 1)) {
    const file = sliceWord(value, i + 1);
    if (file.value !== '') files.push(file);
  }
  return files;
}

/**
 * The repository's files, all of them, hidden ones included: what a command reads when nothing limits it (from
 * the top of the repository, or the working folder's files for `fromRoot` false), with those of its history
 * unless `history` is false.
 */
export function everyFile(at: Word, fromRoot = true, history = true, tracked = true): FileEffect {
  const effect: FileEffect = argument('read', syntheticWord('.', at.span));
  if (fromRoot) effect.fromRepositoryRoot = true;
  if (history) effect.history = true;
  if (tracked) effect.tracked = true;
  return effect;
}

/** Options whose value names a file the command reads. */
const FILE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  grep: ['f'],
  blame: ['S', '--contents', '--ignore-revs-file'],
  annotate: ['S', '--contents', '--ignore-revs-file'],
};

/** Commands that read the one file they are given, never the whole tree. */
const ONE_FILE = new Set(['blame', 'annotate', 'cat-file']);

/**
 * The files a git command prints the contents of, as `REV:PATH`, pathspecs, `-L` ranges, or every file of the
 * repository when no pathspec limits it or an operand may name any object (a blob's id); undefined for a command
 * automode knows no contents of.
 */
export function gitContentReads(
  cmd: CommandView,
  sub: string,
  subIndex: number,
  icase = false,
): EffectsResult | undefined {
  if (sub === 'status') return statusReads(cmd, subIndex);
  if (sub === 'unpack-file') return unpackReads(cmd, subIndex);
  if (REF_FORMATS.has(sub)) return rawReads(cmd, sub, subIndex);
  const prints = CONTENT[sub];
  const level = gitLevel(sub);
  if (!prints || !level) return undefined;
  const parsed = parseOptions(cmd.argv, subIndex + sub.split(' ').length, level.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return { effects: [], known: false };
  const known = parsed.unknown.length === 0 && parsed.suspects.length === 0 && !WRITING.has(sub);
  const effects: FileEffect[] = optionsNamed(parsed, ...(FILE_OPTIONS[sub] ?? ['O']))
    .filter((found) => found.value && !(found.value.static && found.value.value === '-'))
    .map((found) => option('read', found.value!));
  const skip =
    (sub === 'grep' && !has(parsed, 'e', 'f')) || (sub === 'cat-file' && parsed.operands.length === 2)
      ? 1
      : 0;
  const named = namedBy(cmd, parsed, skip);
  // `git show` prints a blob it is given whatever the format options say.
  const showsBlob = sub === 'show' && (named.objects || named.blobs);
  if (!printsContent(sub, prints, parsed, level.grammar) && !showsBlob) return { effects, known };
  effects.push(...named.paths.map((path) => argument('read', path)));
  effects.push(
    ...named.fromRoot.map((path) => ({ ...argument('read', path), fromRepositoryRoot: true as const })),
  );
  const lineRanges = ['log', 'show', 'whatchanged'].includes(sub) ? optionsNamed(parsed, 'L') : [];
  for (const found of lineRanges) {
    if (found.value) effects.push(...lineRangeFiles(found.value).map((file) => option('read', file)));
  }
  const limited =
    named.limited ||
    lineRanges.length > 0 ||
    ONE_FILE.has(sub) ||
    (sub === 'diff' && has(parsed, '--no-index'));
  // `--icase-pathspecs` makes `.ENV` name `.env`.
  const whole =
    named.whole ||
    icase ||
    (named.objects && (sub === 'show' || sub === 'cat-file')) ||
    !limited ||
    WHOLE.has(sub) ||
    has(parsed, '--stdin', '--batch', '--batch-command', '--batch-all-objects');
  if (whole) {
    // git grep searches below the working folder (the top with `:/`); the others print the whole repository.
    // Without a revision or --cached it searches the files of the working tree only.
    // `git diff` with no revision compares the work tree with the index: the tracked files, no history.
    const history =
      (sub !== 'grep' && sub !== 'diff') ||
      named.objects ||
      named.blobs ||
      named.commits ||
      has(parsed, '--cached', '--staged');
    // Only `git grep --untracked` and `--no-index` read files git does not track.
    const tracked = !has(parsed, '--untracked', '--no-index');
    if (sub === 'grep') effects.push(everyFile(cmd.argv[subIndex]!, false, history, tracked));
    if (sub !== 'grep' || named.whole) effects.push(everyFile(cmd.argv[subIndex]!, true, history, tracked));
  }
  return { effects: distinct(effects), known };
}

function distinct(effects: FileEffect[]): FileEffect[] {
  const seen = new Set<string>();
  return effects.filter((effect) => {
    const key = `${effect.access} ${effect.via} ${effect.path.text} ${effect.fromRepositoryRoot ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `git unpack-file BLOB` copies any blob into a file of the working folder, which it names on its output. */
function unpackReads(cmd: CommandView, subIndex: number): EffectsResult {
  const blob = subIndex + 1 < cmd.argv.length ? [subIndex + 1] : [];
  const parsed: Parsed = {
    ok: true,
    options: [],
    operands: blob,
    unknown: [],
    suspects: [],
    rest: subIndex + 1,
  };
  const named = namedBy(cmd, parsed, 0);
  const effects = named.fromRoot.map((path) => ({
    ...argument('read', path),
    fromRepositoryRoot: true as const,
  }));
  return { effects: [...effects, everyFile(cmd.argv[subIndex]!)], known: false };
}

/** Commands that print refs in a `--format`, where `%(raw)` prints the object a ref names, a blob as well. */
const REF_FORMATS = new Set(['for-each-ref', 'branch', 'tag']);

function rawReads(cmd: CommandView, sub: string, subIndex: number): EffectsResult | undefined {
  const level = gitLevel(sub);
  const parsed =
    level &&
    parseOptions(cmd.argv, subIndex + 1, level.grammar, {
      permute: true,
      unknown: 'flag',
      dynamic: 'operand',
    });
  if (!parsed?.ok) return undefined;
  const formats = optionsNamed(parsed, '--format').map((found) => found.value!);
  if (!formats.some((format) => !format.static || format.value.includes('%(raw'))) return undefined;
  return { effects: [everyFile(cmd.argv[subIndex]!)], known: true };
}

/** `git status -v` shows the staged changes, `-vv` the unstaged ones too. */
function statusReads(cmd: CommandView, subIndex: number): EffectsResult | undefined {
  const level = gitLevel('status');
  if (!level) return undefined;
  const parsed = parseOptions(cmd.argv, subIndex + 1, level.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok || !has(parsed, 'v')) return undefined;
  return { effects: [everyFile(cmd.argv[subIndex]!)], known: true };
}
