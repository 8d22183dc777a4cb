import type { EffectsResult } from '../effects.js';
import type { CommandView } from '../nested.js';
import type { FileAccess, FileEffect, Word } from '../types.js';
import { argument, option } from './effect-helpers.js';
import { type Grammar, grammar, has, lastValue, operandWords, type Parsed, parseOptions } from './options.js';
import { is, runtimeWord, syntheticWord } from './words.js';

interface FileOptions {
  grammar: Grammar;
  /** Options whose value names a file, and what git does with it. */
  files: Record<string, FileAccess>;
  /** What git does with the operands, when they are files. */
  operands?: FileAccess;
}

/** Subcommands read their options with git's parse-options: a unique prefix of a long option names it. */
function gitOptions(flags: string, values: string, optional: string, long: string): Grammar {
  return grammar({ flags, values, optional, long, abbreviate: true });
}

const GIT_FILE_OPTIONS: Record<string, FileOptions> = {
  commit: {
    grammar: gitOptions(
      'apsnveqoiz',
      'CcFmt',
      'uS',
      'all/a patch/p reuse-message=/C reedit-message=/c fixup= squash= reset-author short branch porcelain ' +
        'long null/z file=/F author= date= message=/m template=/t signoff/s no-signoff trailer= ' +
        'no-verify/n verify allow-empty allow-empty-message cleanup= edit/e no-edit amend no-post-rewrite ' +
        'include/i only/o pathspec-from-file= pathspec-file-nul untracked-files?/u verbose/v quiet/q ' +
        'dry-run status no-status gpg-sign?/S no-gpg-sign interactive',
    ),
    files: { F: 'read', t: 'read', '--pathspec-from-file': 'read' },
    operands: 'read',
  },
  tag: {
    grammar: gitOptions(
      'asfdvlei',
      'mFu',
      'n',
      'annotate/a sign/s no-sign local-user=/u force/f delete/d verify/v list/l sort= contains= no-contains= ' +
        'merged= no-merged= points-at= message=/m file=/F trailer= edit/e no-edit cleanup= create-reflog ' +
        'column? no-column format= color? ignore-case/i omit-empty',
    ),
    files: { F: 'read' },
  },
  merge: {
    grammar: gitOptions(
      'neqvs',
      'mFsX',
      'S',
      'commit no-commit edit/e no-edit cleanup= ff no-ff ff-only log? no-log signoff no-signoff stat/n ' +
        'no-stat squash no-squash verify no-verify strategy=/s strategy-option=/X verify-signatures ' +
        'no-verify-signatures summary no-summary quiet/q verbose/v progress no-progress autostash ' +
        'no-autostash allow-unrelated-histories rerere-autoupdate no-rerere-autoupdate gpg-sign?/S ' +
        'no-gpg-sign message=/m file=/F into-name= abort quit continue overwrite-ignore',
    ),
    files: { F: 'read' },
  },
  apply: {
    grammar: gitOptions(
      'R3vqNz',
      'pC',
      '',
      'stat numstat summary check index cached intent-to-add 3way reverse/R reject build-fake-ancestor= ' +
        'apply no-add exclude= include= ignore-space-change ignore-whitespace whitespace= inaccurate-eof ' +
        'verbose/v quiet/q recount directory= unsafe-paths allow-empty allow-overlap allow-binary-replacement binary',
    ),
    files: { '--build-fake-ancestor': 'write' },
    operands: 'read',
  },
  am: {
    grammar: gitOptions(
      's3kcqumn',
      'pC',
      'S',
      'signoff/s keep/k keep-non-patch keep-cr no-keep-cr scissors/c no-scissors quoted-cr= message-id/m ' +
        'no-message-id quiet/q utf8/u no-utf8 3way no-3way rerere-autoupdate no-rerere-autoupdate ' +
        'ignore-space-change ignore-whitespace whitespace= directory= exclude= include= reject patch-format= ' +
        'interactive/i commit-date-is-author-date ignore-date skip gpg-sign?/S no-gpg-sign continue/r ' +
        'resolved abort quit retry show-current-patch? allow-empty empty= no-verify/n',
    ),
    files: {},
    operands: 'read',
  },
  archive: {
    grammar: gitOptions(
      'lv',
      'o',
      '',
      'output=/o format= prefix= add-file= add-virtual-file= remote= exec= mtime= list/l verbose/v ' +
        'worktree-attributes',
    ),
    files: { o: 'write', '--add-file': 'read' },
  },
  notes: {
    grammar: gitOptions(
      'fn',
      'mFcC',
      '',
      'force/f message=/m file=/F reuse-message=/C reedit-message=/c ref= allow-empty stripspace no-stripspace',
    ),
    files: { F: 'read' },
  },
  'hash-object': {
    grammar: gitOptions('w', 't', '', 'stdin stdin-paths path= no-filters literally'),
    files: {},
    operands: 'read',
  },
  'format-patch': {
    grammar: gitOptions(
      'nkps',
      'ov',
      '',
      'output-directory=/o numbered/n no-numbered/N start-number= subject-prefix= cover-letter',
    ),
    files: { o: 'write' },
  },
};

/** git SUB with options that name files: those files, relative to the working folder git runs in. */
export function gitFileOptions(cmd: CommandView, sub: string, subIndex: number): EffectsResult | undefined {
  const spec = GIT_FILE_OPTIONS[sub];
  if (!spec) return undefined;
  const parsed = parseOptions(cmd.argv, subIndex + 1, spec.grammar, {
    permute: true,
    unknown: 'flag',
    dynamic: 'operand',
  });
  if (!parsed.ok) return { effects: [], known: false };
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

const GIT_CONFIG = grammar({
  flags: 'lez',
  values: 'f',
  long:
    'global system local worktree file=/f blob= get get-all get-regexp get-urlmatch replace-all add unset ' +
    'unset-all rename-section remove-section list/l fixed-value type= bool int bool-or-int path expiry-date ' +
    'no-type null/z name-only show-origin show-scope get-colorbool get-color edit/e default= includes ' +
    'no-includes comment= all regexp= value= url=',
  abbreviate: true,
});

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
export function gitConfigEffects(cmd: CommandView, subIndex: number, elsewhere: boolean): EffectsResult {
  const parsed = parseOptions(cmd.argv, subIndex + 1, GIT_CONFIG, {
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
  if (!file) return { effects: [], known };
  // git reads its own configuration files on every run; a file named with --file is read on purpose.
  const effects = has(parsed, 'f') ? [option('read', file)] : [];
  if (writes !== false) effects.push(option('write', file));
  return { effects, known };
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
