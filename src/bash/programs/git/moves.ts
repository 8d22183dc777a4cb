import type { CommandView, FileEffect, RevisionChange, Word, WriteNames } from '../../types.js';
import { argument, option, treeWrite, underFolder } from '../effect-helpers.js';
import { has, lastValue, operandWords, type Parsed } from '../options.js';
import { parseCommand } from '../program.js';
import { is, leadingFolders, runtimeWord, syntheticWord } from '../words.js';
import { GIT_SPEC } from './spec.js';

/** What a revision move writes, or `none` when this form writes no work-tree file. */
export type MoveNames = WriteNames | 'none';

const unknown = (why: string): WriteNames => ({ kind: 'unknown', why });
const REMOTE = 'the content is still on the remote';
const remote: WriteNames = { kind: 'unknown', why: REMOTE, remote: true };

function revision(changes: RevisionChange[], within?: Word[]): WriteNames {
  return within && within.length > 0 ? { kind: 'revision', changes, within } : { kind: 'revision', changes };
}

function at(word: Word, text: string): Word {
  return syntheticWord(text, word.span);
}

/** Operands before `--` and after it (the pathspec). */
function split(words: readonly Word[], parsed: Parsed): { before: Word[]; after: Word[] } {
  const before: Word[] = [];
  const after: Word[] = [];
  for (const index of parsed.operands) {
    (parsed.dashdash !== undefined && index > parsed.dashdash ? after : before).push(words[index]!);
  }
  return { before, after };
}

/** `-` names the branch checked out before (`@{-1}`). */
function target(word: Word): Word {
  return is(word, '-') ? at(word, '@{-1}') : word;
}

/**
 * Where the names of the files a git command writes into the work tree come from: the trees, commits, stash or
 * patch it applies, read at decision time (`policy/write-names-git.ts`). Options this does not know, and
 * commands that continue an operation in progress or fetch first, leave the names unknown.
 */
export function moveNames(cmd: CommandView, sub: string): MoveNames {
  const command = parseCommand(GIT_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!command.ok) return unknown('the command line cannot be read');
  const level = command.levels[command.levels.length - 1]!;
  const parsed = level.parsed;
  if (parsed.unknown.length > 0 || parsed.suspects.length > 0)
    return unknown('an option this check does not know may change what it writes');
  const name = level.name.replace(/^git /, '');
  const words = cmd.argv;
  const { before, after } = split(words, parsed);
  const operands = operandWords(words, parsed);
  const head = at(words[level.index]!, 'HEAD');
  switch (name === sub ? sub : name) {
    case 'checkout':
      return checkout(parsed, before, after, head);
    case 'switch':
      return switchNames(parsed, operands, head);
    case 'restore': {
      if (has(parsed, 'S') && !has(parsed, 'W')) return 'none';
      if (has(parsed, '--pathspec-from-file')) return unknown('the paths are read from a file');
      const source = lastValue(parsed, 's');
      const changes: RevisionChange[] = [{ kind: 'modified' }];
      if (source) changes.push({ kind: 'between', to: source });
      else if (has(parsed, 'S')) changes.push({ kind: 'between', to: head });
      return revision(changes, operands);
    }
    case 'reset': {
      if (!has(parsed, '--hard', '--merge', '--keep')) return 'none';
      const to = operands[0] ?? head;
      const changes: RevisionChange[] = [{ kind: 'between', to }];
      if (has(parsed, '--hard', '--merge')) changes.push({ kind: 'modified' });
      return revision(changes);
    }
    case 'merge': {
      if (has(parsed, '--abort', '--quit')) return revision([{ kind: 'modified' }]);
      if (has(parsed, '--continue')) return 'none';
      const targets = operands.length > 0 ? operands : [at(head, '@{upstream}')];
      return revision(targets.map((to) => ({ kind: 'between', to })));
    }
    case 'rebase': {
      if (has(parsed, '--abort', '--quit'))
        return revision([{ kind: 'modified' }, { kind: 'between', to: at(head, 'ORIG_HEAD') }]);
      if (has(parsed, '--continue', '--skip', '--edit-todo', '--root', '--show-current-patch'))
        return unknown('it continues a rebase whose commits are not all known here');
      const onto = lastValue(parsed, '--onto') ?? operands[0] ?? at(head, '@{upstream}');
      const changes: RevisionChange[] = [{ kind: 'rebase', onto }];
      if (operands[1]) changes.push({ kind: 'between', to: operands[1] });
      if (operands[0] && lastValue(parsed, '--onto')) changes.push({ kind: 'rebase', onto: operands[0] });
      if (has(parsed, '--autostash')) changes.push({ kind: 'modified' });
      return revision(changes);
    }
    case 'cherry-pick':
    case 'revert': {
      if (has(parsed, '--abort', '--quit')) return revision([{ kind: 'modified' }]);
      if (has(parsed, '--continue', '--skip'))
        return unknown('it continues a sequence of commits in progress');
      if (operands.length === 0) return unknown('no commit is named');
      return revision([{ kind: 'commits', commits: operands }]);
    }
    case 'pull':
      return has(parsed, '--dry-run') ? 'none' : remote;
    case 'stash':
    case 'stash push':
    case 'stash save': {
      if (has(parsed, 'u', 'a', '--include-untracked', '--all'))
        return unknown('it removes untracked files, which are not listed here');
      const paths = name === 'stash save' ? [] : operands;
      return revision([{ kind: 'modified' }], paths);
    }
    case 'stash drop':
    case 'stash clear':
    case 'stash store':
    case 'stash create':
    case 'stash list':
    case 'stash show':
      return 'none';
    case 'stash pop':
    case 'stash apply':
    case 'stash branch': {
      const stash = name === 'stash branch' ? operands[1] : operands[0];
      return revision([stash ? { kind: 'stash', stash } : { kind: 'stash' }]);
    }
    case 'read-tree': {
      if (!has(parsed, 'u')) return 'none';
      if (has(parsed, '--prefix')) return unknown('--prefix writes the trees below another folder');
      const changes: RevisionChange[] = operands.map((to) => ({ kind: 'between', to }));
      if (has(parsed, '--reset', 'm')) changes.push({ kind: 'modified' });
      return revision(changes);
    }
    case 'checkout-index': {
      if (has(parsed, '--prefix', '--temp', '--stdin', '--stage'))
        return unknown('it writes files under names its options make');
      return revision([{ kind: 'tracked' }], has(parsed, 'a') ? [] : operands);
    }
    case 'apply': {
      if (has(parsed, '--cached')) return 'none';
      if (has(parsed, '--check', '--stat', '--numstat', '--summary') && !has(parsed, '--apply'))
        return 'none';
      return patchNames(parsed, operands);
    }
    case 'am': {
      if (has(parsed, '--abort', '--quit', '--skip', '--continue', 'r', '--show-current-patch'))
        return unknown('it continues a series of patches in progress');
      return patchNames(parsed, operands);
    }
    default:
      return unknown('the names come from the repository as the command runs');
  }
}

function patchNames(parsed: Parsed, files: Word[]): WriteNames {
  const level = lastValue(parsed, 'p');
  const strip =
    level === undefined ? 1 : level.static && /^\d+$/.test(level.value) ? Number(level.value) : -2;
  if (strip < 0) return unknown('-p is only known at run time');
  const prefix = lastValue(parsed, '--directory');
  const named = files.filter((word) => !is(word, '-'));
  if (named.length < files.length) return { kind: 'patch', files: [], strip, ...(prefix ? { prefix } : {}) };
  return { kind: 'patch', files: named, strip, ...(prefix ? { prefix } : {}) };
}

function checkout(parsed: Parsed, before: Word[], after: Word[], head: Word): MoveNames {
  if (has(parsed, '--pathspec-from-file')) return unknown('the paths are read from a file');
  const creates = lastValue(parsed, 'b', 'B', '--orphan');
  const forced = has(parsed, 'f');
  if (after.length > 0 || parsed.dashdash !== undefined) {
    // git checkout [REV] -- PATHS: the paths, from REV (or the index).
    const changes: RevisionChange[] = [{ kind: 'modified' }];
    if (before[0]) changes.push({ kind: 'between', to: before[0] });
    return revision(changes, after);
  }
  if (creates) {
    const start = before[0] ?? head;
    const changes: RevisionChange[] = [{ kind: 'between', to: start }];
    if (forced) changes.push({ kind: 'modified' });
    return revision(changes);
  }
  const [first, ...rest] = before;
  if (!first) return forced ? revision([{ kind: 'modified' }]) : 'none';
  if (rest.length > 0) {
    // git checkout REV PATHS…
    return revision([{ kind: 'modified' }, { kind: 'between', to: first }], rest);
  }
  // A branch or commit, or else a path restored from the index.
  const changes: RevisionChange[] = [
    { kind: 'between', to: target(first), orPath: true },
    { kind: 'modified', within: [first] },
  ];
  if (forced) changes.push({ kind: 'modified' });
  return revision(changes);
}

function switchNames(parsed: Parsed, operands: Word[], head: Word): MoveNames {
  if (has(parsed, '--orphan')) return revision([{ kind: 'tracked' }]);
  const creates = lastValue(parsed, 'c', 'C');
  const to = creates ? (operands[0] ?? head) : operands[0] ? target(operands[0]) : undefined;
  if (!to) return unknown('no branch is named');
  const changes: RevisionChange[] = [{ kind: 'between', to, guess: !creates && !has(parsed, 'd') }];
  if (has(parsed, 'f', '--discard-changes')) changes.push({ kind: 'modified' });
  return revision(changes);
}

/**
 * git clone, init and worktree add: the folder they create or fill is written (a clone's files come from the
 * remote, a worktree's from a commit), and a `--template` folder is copied into the new git folder.
 */
export function creationEffects(cmd: CommandView, sub: string): FileEffect[] | undefined {
  const command = parseCommand(GIT_SPEC, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!command.ok) return undefined;
  const level = command.levels[command.levels.length - 1]!;
  const name = level.name.replace(/^git /, '');
  const parsed = level.parsed;
  if (parsed.unknown.length > 0 || parsed.suspects.length > 0) return undefined;
  const operands = operandWords(cmd.argv, parsed);
  const here = at(cmd.argv[level.index]!, '.');
  const bare = has(parsed, '--bare', '--mirror');
  const effects: FileEffect[] = [];
  const template = (folder: Word) => {
    const from = lastValue(parsed, '--template');
    if (from && from.value !== '') {
      const gitDir =
        lastValue(parsed, '--separate-git-dir') ?? (bare ? folder : underFolder(folder, at(folder, '.git')));
      effects.push(treeWrite(gitDir, 'option', { kind: 'copy', source: from, contents: true }));
    }
    const separate = lastValue(parsed, '--separate-git-dir');
    if (separate) effects.push(option('write', separate));
  };
  if (name === 'init' || (name === sub && sub === 'init')) {
    const folder = operands[0] ?? here;
    effects.push(...leadingFolders(folder).map((f) => argument('write', f)), argument('write', folder));
    template(folder);
    return effects;
  }
  if (sub === 'clone') {
    const source = operands[0];
    if (!source) return undefined;
    const folder = operands[1] ?? cloneFolder(source, bare);
    effects.push(
      ...leadingFolders(folder).map((f) => argument('write', f)),
      treeWrite(folder, 'argument', remote),
    );
    template(folder);
    return effects;
  }
  if (name === 'worktree add') {
    const folder = operands[0];
    if (!folder) return undefined;
    const commit = operands[1] ?? at(folder, 'HEAD');
    const names: WriteNames = has(parsed, '--no-checkout')
      ? { kind: 'revision', changes: [] }
      : { kind: 'revision', changes: [{ kind: 'files', of: commit }], repository: 'working-folder' };
    effects.push(
      ...leadingFolders(folder).map((f) => argument('write', f)),
      argument('write', folder),
      treeWrite(folder, 'argument', names),
    );
    return effects;
  }
  return undefined;
}

/** The folder `git clone URL` makes: the URL's last part without `.git` (with `.git` for a bare clone). */
function cloneFolder(source: Word, bare: boolean): Word {
  if (!source.static) return runtimeWord(`the folder ${source.text} names`, source.span);
  const last =
    source.value
      .replace(/[/\\]+$/, '')
      .replace(/\/\.git$/, '')
      .split(/[/:]/)
      .at(-1) ?? '';
  const base = last.replace(/\.git$/, '').replace(/\.bundle$/, '');
  if (base === '' || base === '.' || base === '..')
    return runtimeWord(`the folder ${source.text} names`, source.span);
  return at(source, bare ? `${base}.git` : base);
}
