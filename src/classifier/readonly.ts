import { checkProgram } from '../bash/programs/read-only.js';
import { programSpec } from '../bash/programs/registry.js';
import type { Word } from '../bash/types.js';
import { valueWord } from './normalize.js';

/** The old read-only table's shape, kept for git until its spec lists every read-only subcommand. */
interface ReadOnlySpec {
  unsafe?: string[];
  globalUnsafe?: string[];
  subcommands?: Record<string, SubcommandSpec>;
}

interface SubcommandSpec {
  unsafe?: string[];
  maxPositionals?: number;
  requireOneOf?: string[];
}

/** Git options that, before the subcommand, change which repository, config or program git uses. */
const GIT_GLOBAL_UNSAFE = [
  '-c',
  '-C',
  '--config-env',
  '--git-dir',
  '--work-tree',
  '--exec-path',
  '--namespace',
  '--super-prefix',
  '-p',
  '--paginate',
];

/** Git options that write a file or run a program wherever they appear. */
const GIT_UNSAFE = [
  '--output',
  '--ext-diff',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--open-files-in-pager',
];

export const READ_ONLY: Record<string, ReadOnlySpec> = {
  git: {
    unsafe: GIT_UNSAFE,
    globalUnsafe: GIT_GLOBAL_UNSAFE,
    subcommands: {
      status: {},
      log: {},
      diff: {},
      show: {},
      'rev-parse': {},
      'rev-list': {},
      describe: {},
      blame: {},
      'ls-files': {},
      'ls-tree': {},
      'cat-file': {},
      shortlog: {},
      grep: { unsafe: ['-O'] },
      'merge-base': {},
      'name-rev': {},
      'show-ref': {},
      'for-each-ref': {},
      'count-objects': {},
      version: {},
      'check-ignore': {},
      whatchanged: {},
      'diff-tree': {},
      'diff-files': {},
      'diff-index': {},
      branch: {
        unsafe: [
          '-d',
          '-D',
          '--delete',
          '-m',
          '-M',
          '--move',
          '-c',
          '-C',
          '--copy',
          '-u',
          '--set-upstream-to',
          '--unset-upstream',
          '--edit-description',
          '-f',
          '--force',
          '-t',
          '--track',
        ],
        maxPositionals: 0,
      },
      tag: {
        unsafe: [
          '-d',
          '--delete',
          '-a',
          '--annotate',
          '-s',
          '--sign',
          '-f',
          '--force',
          '-m',
          '--message',
          '-F',
        ],
        maxPositionals: 0,
      },
      remote: { maxPositionals: 0 },
      stash: { requireOneOf: ['list', 'show'] },
      worktree: { requireOneOf: ['list'] },
      reflog: { requireOneOf: ['show'], unsafe: ['expire', 'delete'] },
      config: {
        requireOneOf: ['--get', '--get-all', '--get-regexp', '--list', '-l', '--show-origin'],
        unsafe: ['--unset', '--unset-all', '--add', '--replace-all', '-e', '--edit', '--rename-section'],
      },
    },
  },
};

export interface ReadOnlyCheck {
  readOnly: boolean;
  reason: string;
  /** The program is in the table: when it is refused, the reason says which word made it unsafe. */
  known: boolean;
}

/**
 * Whether the command only reads, by its program's spec. `allStatic` is true when every word is known (globs
 * allowed: they only pick file names); without `words`, the words are rebuilt from the argv values.
 */
export function checkReadOnly(
  program: string,
  argv: readonly string[],
  allStatic: boolean,
  _leadingGlob = false,
  words?: readonly Word[],
): ReadOnlyCheck {
  const spec = programSpec(program);
  if (!spec) return { readOnly: false, reason: `${program} is not a known read-only command`, known: false };
  return checkProgram(spec, words ?? argv.map(valueWord), allStatic);
}
