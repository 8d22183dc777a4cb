import type { CommandView, EffectsResult, FileAccess, FileEffect, Word } from '../../types.js';
import {
  argument,
  type EffectHandler,
  each,
  listedIn,
  NONE,
  option,
  reads,
  treeWrite,
  UNKNOWN,
  underFolder,
  unseenFiles,
} from '../effect-helpers.js';
import {
  grammar,
  has,
  lastValue,
  operandWords,
  optionsNamed,
  type Parsed,
  parseOptions,
} from '../options.js';
import { parseCommand, type SubcommandSpec } from '../program.js';
import { checkProgram } from '../read-only.js';
import { is, leadingText, runtimeWord, sliceWord, syntheticWord } from '../words.js';
import { everyFile, gitContentReads, revisionPath } from './content.js';
import { creationEffects, moveNames } from './moves.js';
import { parseGit } from './nested.js';
import { GIT_SPEC, gitLevel } from './spec.js';

function lenient(cmd: CommandView, start: number, g = GIT_PATHS): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, start, g, { permute: true, unknown: 'flag', dynamic: 'operand' });
  return parsed.ok ? parsed : undefined;
}

function clean(parsed: Parsed): boolean {
  return parsed.unknown.length === 0 && parsed.suspects.length === 0;
}

/** The command a git command line runs, nested levels included (`stash show`), aliases resolved. */
function commandName(cmd: CommandView, subIndex: number, sub: string): string {
  let name = sub;
  let level: SubcommandSpec | undefined = gitLevel(sub);
  for (let i = subIndex + 1; level?.subcommands; i++) {
    const word = cmd.argv[i];
    if (!word?.static) break;
    const next = level.subcommandAliases?.[word.value] ?? word.value;
    if (!Object.hasOwn(level.subcommands, next)) break;
    name = `${name} ${next}`;
    level = level.subcommands[next];
  }
  return name;
}

/** Subcommands that touch no files (beyond reading the repository) whatever their options. */
const GIT_NO_FILES = new Set('help var verify-commit verify-tag fsck'.split(' '));

const GIT_PATHS = grammar({
  flags: 'nvfiepuANrqkWSs',
  long:
    'dry-run/n verbose/v force/f cached staged/S worktree/W source=/s quiet/q pathspec-from-file= ' +
    'pathspec-file-nul ignore-unmatch sparse update/u all/A intent-to-add/N chmod= refresh ignore-errors ' +
    'ignore-missing renormalize patch/p ours theirs merge conflict= overlay no-overlay',
  unlistedFlags: /./,
});

/**
 * git: the files a command prints the contents of (`content.ts`), the paths given to add, rm, mv, restore and
 * `checkout --`, the files options name; other read-only commands touch nothing else.
 */
export const gitEffects: EffectHandler = (cmd) => {
  const found = parseGit(cmd.argv);
  if ('kind' in found) return UNKNOWN;
  const { parsed: global, sub, subIndex } = found;
  if (!sub) return NONE;
  if (!sub.static) return UNKNOWN;
  const elsewhere = has(global, 'C', '--git-dir', '--work-tree');
  const args = cmd.argv.slice(subIndex + 1);
  const output = gitOutput(args);
  const canonical = GIT_SPEC.subcommandAliases?.[sub.value] ?? sub.value;
  const result =
    canonical === 'config'
      ? gitConfigEffects(cmd, subIndex, elsewhere)
      : gitPaths(cmd, canonical, subIndex, args, has(global, '--icase-pathspecs'));
  const folder = lastValue(global, 'C');
  const otherRepository = has(global, '--git-dir', '--work-tree', '--namespace');
  const effects = [...output.effects, ...result.effects]
    .map((e) =>
      otherRepository && e.names
        ? { ...e, names: { kind: 'unknown' as const, why: 'another repository or work tree is named' } }
        : e,
    )
    .flatMap((e) => elsewhereToo(e, global, folder));
  return { effects, known: result.known && output.known && !elsewhere };
};

/**
 * A path relative to the working folder, under `-C DIR`; a path from the top of the repository, also from the
 * top of the repository `-C` or `--work-tree` may name instead of the one the command runs in.
 */
function elsewhereToo(effect: FileEffect, global: Parsed, folder: Word | undefined): FileEffect[] {
  if (!effect.fromRepositoryRoot)
    return [folder ? { ...effect, path: underFolder(folder, effect.path) } : effect];
  const { fromRepositoryRoot: _, ...relative } = effect;
  const tops = [lastValue(global, '--work-tree'), folder].filter((word) => word !== undefined);
  return [effect, ...tops.map((top) => ({ ...relative, path: underFolder(top, effect.path) }))];
}

function gitOutput(args: Word[]): EffectsResult {
  const effects: FileEffect[] = [];
  let known = true;
  args.forEach((word, index) => {
    const lead = leadingText(word);
    if (lead.startsWith('--output=')) effects.push(option('write', sliceWord(word, '--output='.length)));
    else if (is(word, '--output') && args[index + 1]) effects.push(option('write', args[index + 1]!));
    else if (!word.static && lead === '') known = false;
  });
  return { effects, known };
}

function globsOnly(words: readonly Word[]): boolean {
  return words.every((word) => word.static || word.dynamic.every((kind) => kind === 'glob'));
}

function gitPaths(
  cmd: CommandView,
  sub: string,
  subIndex: number,
  args: Word[],
  icase: boolean,
): EffectsResult {
  const credentials = credentialReads(cmd, sub, subIndex);
  if (credentials) return credentials;
  const content = gitContentReads(cmd, commandName(cmd, subIndex, sub), subIndex, icase);
  const named = gitFileOptions(cmd, sub, commandName(cmd, subIndex, sub));
  if (content && named) {
    // A read-only command's file options are all named (`git archive --add-file`); a writer's are not.
    const known = named.known || checkProgram(GIT_SPEC, cmd.argv, globsOnly(cmd.argv)).readOnly;
    return { effects: [...named.effects, ...content.effects], known: known && content.known };
  }
  if (content) return content;
  if (GIT_NO_FILES.has(sub) || checkProgram(GIT_SPEC, cmd.argv, globsOnly(cmd.argv)).readOnly) {
    // A read-only command still reads the files it is given (`git apply --check x.patch`).
    return named ? { effects: named.effects.filter((e) => e.access === 'read'), known: true } : NONE;
  }
  const written = gitWrites(cmd, sub, subIndex, args, named);
  // checkout -- and restore discard what the paths they name hold.
  const pathsNamed = sub === 'restore' || (sub === 'checkout' && args.some((word) => is(word, '--')));
  const namedPaths = pathsNamed
    ? written.effects.filter((e) => e.tree && e.access === 'write').map((e) => e.path.value)
    : [];
  const found = pathsNamed
    ? {
        ...written,
        effects: written.effects.map((e) =>
          e.tree && e.access === 'write' ? { ...e, discards: `uncommitted changes to ${e.path.value}` } : e,
        ),
      }
    : written;
  if (!WORK_TREE_WRITERS.has(sub) || branchesHere(cmd, sub, subIndex)) return found;
  if (sub === 'reset' && !args.some((w) => !w.static || /^--(?:hard|merge|keep)$/.test(w.value)))
    return found;
  if (CREATES.has(sub)) {
    const created = creationEffects(cmd, sub);
    if (created) return { effects: [...found.effects, ...created], known: false };
  }
  const names = CREATES.has(sub) ? undefined : moveNames(cmd, sub);
  if (names === 'none') return found;
  // The names come from the repository, the patch or the stash, read at decision time.
  const top = syntheticWord('.', cmd.argv[subIndex]!.span);
  const tree: FileEffect = {
    ...treeWrite(
      top,
      'argument',
      names ?? { kind: 'unknown', why: 'the names come from elsewhere as it runs' },
    ),
    fromRepositoryRoot: true,
  };
  const discards = discarded(sub, args, namedPaths);
  if (discards) tree.discards = discards;
  return { effects: [...found.effects.filter((e) => !e.tree), tree], known: false };
}

/** What a move of the work tree throws away, said instead of "writes .". */
function discarded(sub: string, args: readonly Word[], namedPaths: readonly string[]): string | undefined {
  if (namedPaths.length > 0) return `uncommitted changes to ${namedPaths.join(', ')}`;
  if (sub === 'reset' && args.some((w) => is(w, '--hard')))
    return 'uncommitted changes to tracked files below .';
  return undefined;
}

/** Subcommands that create a repository or a work tree rather than move one (`moves.ts`). */
const CREATES = new Set(['clone', 'init', 'worktree']);

/**
 * git's credential helpers print (`get`) or change (`store`, `erase`) the credentials they keep: credential-store
 * in its file (`--file`, else `~/.git-credentials` and `~/.config/git/credentials`), credential-cache in its
 * daemon, `git credential` in whichever helpers the configuration names.
 */
function credentialReads(cmd: CommandView, sub: string, subIndex: number): EffectsResult | undefined {
  if (sub !== 'credential-store' && sub !== 'credential-cache' && sub !== 'credential') return undefined;
  const at = cmd.argv[subIndex]!;
  const level = gitLevel(sub);
  const parsed = level ? lenient(cmd, subIndex + 1, level.grammar) : undefined;
  const action = parsed ? operandWords(cmd.argv, parsed)[0] : undefined;
  const reads = !action?.static || ['get', 'fill'].includes(action.value);
  const access: FileAccess[] = reads ? ['read'] : ['read', 'write'];
  if (sub === 'credential-store') {
    const file = parsed && lastValue(parsed, '--file');
    const files = file
      ? [file]
      : [syntheticWord('~/.git-credentials', at.span), syntheticWord('~/.config/git/credentials', at.span)];
    return { effects: files.flatMap((f) => access.map((a) => option(a, f))), known: parsed !== undefined };
  }
  const held =
    sub === 'credential'
      ? "the credentials git's configured helpers hold"
      : "the credentials git's cache holds";
  return { effects: access.map((a) => unseenFiles(a, held, at, 'option')), known: false };
}

/**
 * Subcommands that write the work tree with files whose names come from a commit, a stash, a patch or another
 * repository, not from the command line: their effects include writing into the top of the work tree.
 */
const WORK_TREE_WRITERS = new Set(
  (
    'checkout switch reset merge pull rebase cherry-pick revert stash am apply read-tree checkout-index ' +
    'submodule sparse-checkout bisect mergetool worktree clone init'
  ).split(' '),
);

/**
 * `git switch -c NAME`, `git checkout -b NAME` (quiet, tracking or not): a new branch where HEAD is, the work tree
 * as it was. Read with the subcommand's own grammar; any other option or an operand (a start point) may move it.
 */
function branchesHere(cmd: CommandView, sub: string, subIndex: number): boolean {
  if (sub !== 'switch' && sub !== 'checkout') return false;
  const level = gitLevel(sub);
  const parsed = level && lenient(cmd, subIndex + 1, level.grammar);
  if (!parsed || !clean(parsed)) return false;
  const creates = sub === 'switch' ? ['c', 'C'] : ['b', 'B'];
  return (
    parsed.options.some((o) => creates.includes(o.name)) &&
    parsed.options.every((o) => creates.includes(o.name) || o.name === 'q' || o.name === 't') &&
    operandWords(cmd.argv, parsed).length === 0
  );
}

function gitWrites(
  cmd: CommandView,
  sub: string,
  subIndex: number,
  args: Word[],
  named: EffectsResult | undefined,
): EffectsResult {
  if (named) return named;
  const config = configWriter(cmd, sub, subIndex);
  if (config) return { effects: [config], known: false };
  if (sub === 'checkout') {
    const separator = args.findIndex((word) => is(word, '--'));
    return separator < 0
      ? UNKNOWN
      : { effects: args.slice(separator + 1).map((path) => treeWrite(path)), known: true };
  }
  if (!['add', 'rm', 'mv', 'restore'].includes(sub)) return UNKNOWN;
  const parsed = lenient(cmd, subIndex + 1);
  if (!parsed) return UNKNOWN;
  const paths = operandWords(cmd.argv, parsed);
  const known = clean(parsed) && !has(parsed, '--pathspec-from-file');
  const listed = optionsNamed(parsed, '--pathspec-from-file').map((found) => listedIn('read', found.value!));
  if (has(parsed, 'n')) return { effects: [], known };
  return { effects: [...listed, ...gitPathEffects(sub, parsed, paths)], known };
}

/** Commands that write the repository's configuration besides what else they do. */
const CONFIG_WRITERS = new Set([
  'remote add',
  'remote rename',
  'remote remove',
  'remote set-url',
  'remote set-branches',
]);
/**
 * `.git/config`, from the top of the repository, when the command writes it: `git remote add` and the other
 * `remote` verbs that edit a remote, and `branch --edit-description`. The upstream a branch tracks
 * (`push -u`, `branch --set-upstream-to`) is not counted: `branch.NAME.remote` and `.merge` only pick what
 * `git pull`, `git push` and `git status` compare with, and a fetch's check at decision time asks where a branch
 * tracks anything but a configured remote (`policy/project-files/git-remotes.ts`).
 */
function configWriter(cmd: CommandView, sub: string, subIndex: number): FileEffect | undefined {
  const name = commandName(cmd, subIndex, sub);
  const writes =
    CONFIG_WRITERS.has(name) ||
    (sub === 'branch' &&
      cmd.argv.slice(subIndex + 1).some((word) => leadingText(word).startsWith('--edit-description')));
  if (!writes) return undefined;
  return {
    ...option('write', syntheticWord('.git/config', cmd.argv[subIndex]!.span)),
    fromRepositoryRoot: true,
  };
}

function gitPathEffects(sub: string, parsed: Parsed, paths: Word[]): FileEffect[] {
  if (sub === 'add') return reads(paths);
  if (sub === 'rm') return has(parsed, '--cached') ? [] : each('delete', paths);
  if (sub === 'restore')
    return has(parsed, 'S') && !has(parsed, 'W') ? [] : paths.map((path) => treeWrite(path));
  if (paths.length < 2) return [];
  return [...each(['read', 'delete'], paths.slice(0, -1)), argument('write', paths.at(-1)!)];
}

/** How git SUB reads files through its options; its grammar is the one git's spec gives SUB. */
interface FileOptions {
  /** Options whose value names a file, and what git does with it. */
  files: Record<string, FileAccess>;
  /** What git does with the operands, when they are files. */
  operands?: FileAccess;
  /** The nested commands the table speaks for, when not all of SUB's. */
  only?: readonly string[];
}

const GIT_FILE_OPTIONS: Record<string, FileOptions> = {
  commit: {
    files: { F: 'read', t: 'read', '--pathspec-from-file': 'read' },
    operands: 'read',
  },
  tag: {
    files: { F: 'read' },
  },
  merge: {
    files: { F: 'read' },
  },
  apply: {
    files: { '--build-fake-ancestor': 'write' },
    operands: 'read',
  },
  am: {
    files: {},
    operands: 'read',
  },
  archive: {
    files: { o: 'write', '--add-file': 'read' },
  },
  notes: {
    files: { F: 'read' },
  },
  'hash-object': {
    files: {},
    operands: 'read',
  },
  bundle: {
    files: {},
    operands: 'read',
    only: ['bundle verify', 'bundle list-heads'],
  },
  'format-patch': {
    files: { o: 'write' },
  },
};

/** git SUB with options that name files: those files, relative to the working folder git runs in. */
function gitFileOptions(cmd: CommandView, sub: string, name: string): EffectsResult | undefined {
  const spec = Object.hasOwn(GIT_FILE_OPTIONS, sub) ? GIT_FILE_OPTIONS[sub] : undefined;
  if (!spec || (spec.only && !spec.only.includes(name))) return undefined;
  const command = parseCommand(GIT_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!command.ok) return { effects: [], known: false };
  const parsed = command.levels[command.levels.length - 1]!.parsed;
  const effects: FileEffect[] = [];
  for (const found of parsed.options) {
    const access = spec.files[found.name];
    if (access && found.value && !is(found.value, '-')) effects.push(option(access, found.value));
  }
  if (spec.operands) {
    for (const word of operandWords(cmd.argv, parsed)) effects.push(argument(spec.operands, word));
  }
  // These subcommands also write the repository, and the files a patch or merge names.
  return { effects, known: false };
}

const CONFIG_READS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  'l',
  '--get-color',
  '--get-colorbool',
];
const CONFIG_WRITES = [
  '--replace-all',
  '--add',
  '--unset',
  '--unset-all',
  '--rename-section',
  '--remove-section',
  'e',
];
const CONFIG_READ_VERBS = ['get', 'list'];
const CONFIG_WRITE_VERBS = ['set', 'unset', 'rename-section', 'remove-section', 'edit'];

/**
 * git config: the forms that set, unset, rename or edit write the configuration file of the scope they name
 * (`.git/config` by default, `~/.gitconfig` with --global); `--file F` names the file, read or written.
 */
function gitConfigEffects(cmd: CommandView, subIndex: number, elsewhere: boolean): EffectsResult {
  const level = gitLevel('config');
  if (!level) return { effects: [], known: false };
  const parsed = parseOptions(cmd.argv, subIndex + 1, level.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return { effects: [], known: false };
  const operands = operandWords(cmd.argv, parsed);
  const verb = operands[0]?.static ? operands[0].value : undefined;
  const writes = configWrites(parsed, operands, verb);
  const known = parsed.unknown.length === 0 && parsed.suspects.length === 0 && writes !== undefined;
  const file = configFile(parsed, cmd.argv[subIndex]!, elsewhere);
  if (!file) return { effects: blobReads(parsed, cmd.argv[subIndex]!), known };
  // git reads its own configuration files on every run; a file named with --file is read on purpose.
  const effects = has(parsed, 'f') ? [option('read', file)] : [];
  if (writes !== false) effects.push(option('write', file));
  return { effects, known };
}

/** `git config --blob=REV:PATH` reads PATH as stored in the repository; a blob named by its id may be any. */
function blobReads(parsed: Parsed, at: Word): FileEffect[] {
  const blob = lastValue(parsed, '--blob');
  if (!blob) return [];
  const path = revisionPath(blob);
  if (path && path.value !== '') {
    const relative = /^\.\.?\//.test(leadingText(path));
    return [relative ? option('read', path) : { ...option('read', path), fromRepositoryRoot: true }];
  }
  return [everyFile(at)];
}

/** Whether the command writes; undefined when that cannot be told. */
function configWrites(parsed: Parsed, operands: Word[], verb: string | undefined): boolean | undefined {
  if (has(parsed, ...CONFIG_WRITES)) return true;
  if (has(parsed, ...CONFIG_READS)) return false;
  if (verb && CONFIG_WRITE_VERBS.includes(verb)) return true;
  if (verb && CONFIG_READ_VERBS.includes(verb)) return false;
  if (operands.some((word) => !word.static)) return undefined;
  return operands.length >= 2;
}

/** The configuration file of the scope the options name; undefined for a blob (it is never written). */
function configFile(parsed: Parsed, at: Word, elsewhere: boolean): Word | undefined {
  const file = lastValue(parsed, 'f');
  if (file) return file;
  if (has(parsed, '--blob')) return undefined;
  if (has(parsed, '--global')) return syntheticWord('~/.gitconfig', at.span);
  if (has(parsed, '--system')) return syntheticWord('/etc/gitconfig', at.span);
  if (elsewhere) return runtimeWord('the repository configuration', at.span);
  return syntheticWord(has(parsed, '--worktree') ? '.git/config.worktree' : '.git/config', at.span);
}
