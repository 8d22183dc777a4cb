/** Offsets are UTF-16 code-unit indices into the analysed source string, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

/** What makes part of a word known only at run time. */
export type DynamicKind =
  | 'parameter' // $x, ${x}, ${x:-...}, "$@"
  | 'command' // $(...), `...`, ${ ...; }
  | 'process' // <(...), >(...)
  | 'arithmetic' // $((...))
  | 'glob' // *, ?, [...] (pathname expansion)
  | 'brace' // {a,b}, {1..3}
  | 'extglob';

/** Marker used in rendered values for a part only known at run time. */
export const DYN = '⟨$⟩';

export interface Word {
  /** The source text of the word. */
  text: string;
  /** Quote-removed value; each dynamic part is rendered as DYN (glob characters stay as written). */
  value: string;
  /** True when the value is fully known before the command runs (no dynamic part of any kind). */
  static: boolean;
  dynamic: DynamicKind[];
  span: Span;
}

export interface Assignment {
  name: string;
  /** `+=` instead of `=`. */
  append: boolean;
  value: Word;
  /** An array assignment `x=(a b)`: value.text holds the whole list. */
  array: boolean;
  span: Span;
}

export type RedirectOp =
  | '<'
  | '>'
  | '>>'
  | '>|'
  | '&>'
  | '&>>'
  | '<>'
  | '<&'
  | '>&'
  | '<&-'
  | '>&-'
  | '<<'
  | '<<-'
  | '<<<';

export interface Heredoc {
  delimiter: string;
  /** Quoted delimiter: the body is literal (no expansion). */
  quoted: boolean;
  stripTabs: boolean;
  body: string;
  span: Span;
}

export interface Redirect {
  /** File descriptor as written (`2`, `{fd}`), or undefined for the operator's default. */
  fd?: string;
  op: RedirectOp;
  /** Target word; for heredocs the delimiter word. */
  target: Word;
  heredoc?: Heredoc;
  /** True when this redirect writes to a file (not fd duplication, not /dev/null, not input). */
  writes: boolean;
  /** True when it reads a file (`<`, `<>`). */
  reads: boolean;
  span: Span;
}

export type ContextFlag =
  | 'pipeline'
  | 'background'
  /** A background job each round of a `while`, `until` or `for ((…))` loop starts: the loop may never end. */
  | 'runaway'
  | 'subshell'
  | 'group'
  | 'command-substitution'
  | 'process-substitution'
  | 'arithmetic'
  | 'parameter-expansion'
  | 'heredoc'
  | 'herestring'
  | 'redirect-target'
  | 'assignment'
  | 'test'
  | 'condition'
  | 'loop'
  | 'case'
  | 'function'
  | 'negated'
  | 'coproc'
  | 'timed'
  | 'list';

/** How a nested command is run by its carrier. */
export type NestedKind =
  | 'wrapper' // sudo, timeout, env, xargs... run their argument vector
  | 'shell' // bash -c, sh -c, eval, trap, su -c, git core.pager, ssh ProxyCommand... run a shell string
  | 'option' // find -exec, rg --pre, git alias... run an argument vector given in an option
  | 'function'; // a call to a function defined in the same input

export interface NestedLink {
  kind: NestedKind;
  /** id of the carrier command. */
  carrier: number;
  /** The wrapper, option or variable that runs it: `sudo`, `-exec`, `core.pager`, `GIT_SSH_COMMAND`. */
  via: string;
  /** True when the carrier appends arguments only known at run time (xargs, find -exec {}). */
  extraArgs?: boolean;
}

/** A program that runs code the analyzer cannot see: a script file, interpreter code, sed `e`. */
export interface CodeExecution {
  kind: 'interpreter-code' | 'script-file' | 'source-file' | 'stdin' | 'program-option' | 'environment';
  /** The interpreter or program that runs it. */
  program: string;
  /** The option, argument or variable that carries the code. */
  via: string;
  /** The code or file name when static. */
  code?: string;
  span: Span;
}

export type FileAccess = 'read' | 'write' | 'delete' | 'create' | 'metadata' | 'execute';

export interface FileEffect {
  access: FileAccess;
  path: Word;
  via: 'redirect' | 'argument' | 'option';
  /** A folder read recursively skipping hidden entries below it (`rg` without `--hidden`). */
  skipsHidden?: true;
  /** With `skipsHidden`: hidden entries whose name one of these globs matches are read all the same (`rg -g '*.ts'`). */
  readsHiddenMatching?: readonly string[];
  /** A folder read recursively leaving out what its git repository's `.gitignore` files match (`rg`). */
  respectsGitignore?: true;
  /** A relative path read from the top of the git repository the command runs in (`git show HEAD:x`). */
  fromRepositoryRoot?: true;
  /** A folder read with the files its git history holds, deleted ones included (`git log -p`). */
  history?: true;
  /** A folder read of only the files git tracks below it (its index): `git diff`, `git grep`. */
  tracked?: true;
  /** A folder read that follows the links below it into the folders they lead to (`find -L`, `ls -RL`). */
  followsLinks?: true;
  /**
   * A folder written with entries whose names come from an archive, a copied folder, a commit or a patch, not
   * from the command line, whether it exists yet or not (`unzip -d new`, `cp -r src new`).
   */
  tree?: true;
  /**
   * With `tree`: what names the entries written below the folder, for the policy to read at decision time (the
   * archive's listing, the patch's headers, the revisions git compares, the copied folder); without it the names
   * cannot be known before the command runs.
   */
  names?: WriteNames;
  /**
   * A delete of the entries found below the folder (`find DIR … -delete`): the folder itself goes only when it
   * matches too, and never when it is `.`.
   */
  below?: true;
  /** A `metadata` effect that changes the mode or owner (chmod, chown, chgrp) rather than looking at them. */
  changesMetadata?: true;
  /** What the write throws away, told instead of the write (`uncommitted changes below .` for `git reset --hard`). */
  discards?: string;
}

export interface NameInfo {
  /** The command name after quote removal (`/bin/rm`, `rm`). */
  value: string;
  /** The program it names: basename when the name is a path (`rm` for `/bin/rm`). */
  program: string;
  /** The path when the name had a slash. */
  path?: string;
  /** True when the name is only known at run time ($cmd, $a$b, "$@"). The program is then unknown. */
  dynamic: boolean;
}

export interface SimpleCommand {
  id: number;
  /** Argument vector including the name; empty for a bare assignment or redirect. */
  argv: Word[];
  name?: NameInfo;
  assignments: Assignment[];
  redirects: Redirect[];
  span: Span;
  context: ContextFlag[];
  /** Enclosing function definition, if any. */
  inFunction?: string;
  /** Set when this command is run by another command rather than appearing in the syntax. */
  nested?: NestedLink;
  /** Code this command runs that the analyzer cannot see into. */
  executes: CodeExecution[];
  /** Files read or written; effectsKnown false means the command may touch files not listed. */
  effects: FileEffect[];
  effectsKnown: boolean;
  /** The source text this command was parsed from, when it came from a string (bash -c '...'). */
  innerSource?: string;
  /** The program talks to the network as part of what it does, as its module says (`kubectl get`, `git fetch`). */
  network?: true;
}

export type ProblemCode =
  | 'syntax-error'
  | 'missing-node'
  | 'unknown-node'
  | 'uncovered-text'
  | 'misparse-backtick'
  | 'misparse-heredoc'
  | 'misparse-newline'
  | 'misparse-word'
  | 'misparse-reserved-word'
  | 'misparse-double-semicolon'
  | 'misparse-redirect'
  | 'misparse-coproc'
  | 'misparse-named-fd'
  | 'misparse-heredoc-argument'
  | 'too-large'
  | 'too-deep'
  | 'too-many-commands'
  | 'dynamic-shell-string'
  | 'unsupported';

export interface Problem {
  code: ProblemCode;
  message: string;
  span?: Span;
}

export interface Analysis {
  source: string;
  /** Every simple command, syntactic ones first in source order, nested ones after their carrier. */
  commands: SimpleCommand[];
  /** Redirections attached to compound statements (loops, groups, subshells, lists). */
  compoundRedirects: Redirect[];
  /**
   * Glob words bash expands outside any command's arguments (a `for` or `select` list, an array assignment): each
   * lists the folders it walks. An array assignment's word is its whole list.
   */
  listings: Word[];
  /** Functions defined in the input. */
  functions: string[];
  problems: Problem[];
  /** True when anything could not be fully resolved: such an analysis must never be allowed. */
  opaque: boolean;
}

export type NestedSpec =
  /** An argument vector the carrier runs; words[0] names the program. */
  | {
      kind: 'argv';
      words: Word[];
      link: { kind: 'wrapper' | 'option'; via: string; extraArgs?: boolean };
      assignments?: Assignment[];
    }
  /**
   * A shell string run by sh: re-parse script.value when script.static, else the analysis is opaque.
   * extraArgs: the carrier appends arguments only known at run time (parallel).
   */
  | { kind: 'shell'; script: Word; via: string; extraArgs?: boolean }
  /** Code the analyzer cannot see. */
  | { kind: 'code'; exec: CodeExecution }
  /** The carrier runs something that cannot be determined: the analysis is opaque. */
  | { kind: 'unresolved'; reason: string; span: Span };

export interface CommandView {
  argv: Word[];
  assignments: Assignment[];
  /** Normalised program name: `rm` for `/bin/rm`. */
  program: string;
}

export interface EffectsResult {
  effects: FileEffect[];
  /** False when the command may touch files not listed. */
  known: boolean;
}

/** Where the names of a tree write come from (see `FileEffect.names`). */
export type WriteNames =
  | {
      kind: 'archive';
      format: 'tar' | 'zip' | 'cpio' | '7z';
      /** The archive file; undefined when it is read from stdin. */
      file?: Word;
      /** Leading path components dropped from each member's name (`--strip-components`). */
      strip?: number;
    }
  | {
      kind: 'patch';
      /** The patch file (several for `git am`); empty when it is read from stdin. */
      files: Word[];
      /** Leading path components dropped from each name (`-p`). */
      strip: number;
      /** A folder every name is put below (`git apply --directory`). */
      prefix?: Word;
    }
  | {
      kind: 'revision';
      /** What git writes into the work tree, each read from the repository (see `RevisionChange`). */
      changes: RevisionChange[];
      /** Only the paths below these (a pathspec); every path when absent. */
      within?: Word[];
      /** The repository is the one the command runs in, not the one the folder written lies in (a new worktree). */
      repository?: 'working-folder';
    }
  | {
      kind: 'copy';
      /** The folder copied. */
      source: Word;
      /** Its entries are written straight into the destination (`src/.`, `cp -T`), not below its name. */
      contents: boolean;
      /** Its entries go below DEST/NAME even when DEST does not exist yet (rsync makes it). */
      below?: true;
    }
  | {
      /**
       * The files below the folder whose names end with one of `suffixes` (`terraform fmt` rewrites the `.tf`
       * files it finds): the folder's own, or with `recursive` also those of its folders (not hidden ones, not
       * through links). A file named instead of a folder is itself.
       */
      kind: 'matching';
      suffixes: readonly string[];
      recursive: boolean;
    }
  | {
      /**
       * What a connection running only reads creates: the `-wal` and `-shm` files beside a database in WAL
       * mode, the database itself when it is missing and the connection may write; and whether the schema's
       * views only read.
       */
      kind: 'sqlite';
      database: Word;
      /** Opened for writing (no `-readonly`, no `mode=ro`): a missing database is created. */
      writable?: true;
      /** `immutable=1`: no journal, lock or side file is touched. */
      immutable?: true;
    }
  | {
      kind: 'unknown';
      /** Why the names cannot be read before the command runs: "the content is still on the remote". */
      why: string;
      /** The content comes from a remote: an allow rule naming the command vouches for it. */
      remote?: true;
    };

/**
 * One source of a revision move's writes: the paths that differ between two trees (`from` undefined: HEAD), a
 * commit's own changes (cherry-pick, revert; a range `A..B` all of its commits'), a stash's changes and untracked
 * files, the tracked files with local changes that the move overwrites, or all tracked files.
 */
export type RevisionChange =
  | {
      kind: 'between';
      to: Word;
      /** The word may name a path rather than a revision (`git checkout NAME`): then this change is none. */
      orPath?: true;
      /** A remote branch of that name counts when no local one exists (`git switch NAME`). */
      guess?: boolean;
    }
  | { kind: 'commits'; commits: Word[] }
  | { kind: 'rebase'; onto: Word }
  | { kind: 'stash'; stash?: Word }
  | { kind: 'modified'; within?: Word[] }
  | { kind: 'tracked' }
  | { kind: 'files'; of: Word };
