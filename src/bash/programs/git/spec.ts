import { type Grammar, type GrammarSpec, grammar } from '../options.js';
import type { ProgramSpec, ReadOnlySpec, SubcommandSpec } from '../program.js';
import { allow, gitGrammar, joined } from './grammar-tools.js';
import { HELP_GRAMMARS } from './grammars.js';
import { checkoutOperands, pushOperands } from './operands.js';
import { readOnlyLists } from './read-only.js';
import { DIFF_OPTIONS, REVISION_OPTIONS } from './revisions.js';

/** Options read before the subcommand: git matches them whole. */
export const GIT_GLOBAL = grammar({
  flags: 'pPvh',
  values: 'Cc',
  long:
    'config-env= exec-path? git-dir= work-tree= namespace= super-prefix= list-cmds= attr-source= paginate/p ' +
    'no-pager/P no-replace-objects no-lazy-fetch bare literal-pathspecs glob-pathspecs noglob-pathspecs ' +
    'icase-pathspecs no-optional-locks no-advice version/v help/h html-path man-path info-path',
  abbreviate: false,
});

const LOG = joined(HELP_GRAMMARS.log!, REVISION_OPTIONS, DIFF_OPTIONS);

/** What `git diff` reads besides the diff options. */
const DIFF = joined(DIFF_OPTIONS, {
  flags: '0123',
  long: 'cached staged merge-base no-index base/1 ours/2 theirs/3',
});

/** Commands git prints no complete option list for (the revision and diff parsers), and families' own levels. */
const HAND_GRAMMARS: Readonly<Record<string, GrammarSpec>> = {
  log: LOG,
  show: LOG,
  whatchanged: LOG,
  reflog: LOG,
  'reflog show': LOG,
  'stash list': joined(REVISION_OPTIONS, DIFF_OPTIONS),
  'stash show': joined(HELP_GRAMMARS['stash show']!, DIFF_OPTIONS),
  'format-patch': joined(HELP_GRAMMARS['format-patch']!, REVISION_OPTIONS, DIFF_OPTIONS),
  shortlog: joined(HELP_GRAMMARS.shortlog!, REVISION_OPTIONS),
  blame: joined(HELP_GRAMMARS.blame!, REVISION_OPTIONS),
  annotate: joined(HELP_GRAMMARS.annotate!, REVISION_OPTIONS),
  'cherry-pick': joined(HELP_GRAMMARS['cherry-pick']!, REVISION_OPTIONS),
  revert: joined(HELP_GRAMMARS.revert!, REVISION_OPTIONS),
  'fast-export': joined(HELP_GRAMMARS['fast-export']!, REVISION_OPTIONS),
  diff: DIFF,
  'diff-files': joined(DIFF, REVISION_OPTIONS, { flags: 'q' }),
  'diff-index': joined(DIFF_OPTIONS, REVISION_OPTIONS, { long: 'cached merge-base' }),
  'diff-tree': joined(DIFF_OPTIONS, REVISION_OPTIONS, { long: 'stdin merge-base' }),
  'rev-list': joined(REVISION_OPTIONS, DIFF_OPTIONS, { long: 'quiet' }),
  'rev-parse': {
    flags: 'q',
    long:
      'parseopt sq-quote keep-dashdash stop-at-non-option stuck-long verify quiet/q sq short? abbrev-ref? ' +
      'symbolic symbolic-full-name default= prefix= revs-only no-revs flags no-flags all branches? tags? ' +
      'remotes? glob= exclude= exclude-hidden= disambiguate= local-env-vars path-format= git-dir ' +
      'git-common-dir absolute-git-dir resolve-git-dir= git-path= show-toplevel ' +
      'show-superproject-working-tree show-prefix show-cdup shared-index-path show-object-format? ' +
      'show-ref-format is-inside-git-dir is-inside-work-tree is-bare-repository is-shallow-repository since= ' +
      'after= until= before= not',
  },
  'notes list': {},
  'sparse-checkout list': {},
  'sparse-checkout add': { long: 'skip-checks stdin' },
  'sparse-checkout reapply': { long: 'cone no-cone sparse-index no-sparse-index' },
  'stash create': {},
  stash: HELP_GRAMMARS['stash push']!,
  notes: { long: 'ref=' },
  'commit-graph': { long: 'object-dir=' },
  'multi-pack-index': HELP_GRAMMARS['multi-pack-index']!,
  submodule: { flags: 'q', long: 'quiet cached' },
  bisect: {},
  difftool: {
    flags: 'gdy',
    values: 'tx',
    long:
      'gui/g dir-diff/d prompt no-prompt/y symlinks no-symlinks tool=/t tool-help trust-exit-code ' +
      'extcmd=/x no-index index',
  },
  mergetool: { flags: 'gy', values: 't', long: 'tool=/t tool-help gui/g no-gui prompt no-prompt/y' },
  'filter-branch': {
    flags: 'f',
    values: 'd',
    long:
      'tree-filter= index-filter= msg-filter= env-filter= commit-filter= parent-filter= tag-name-filter= ' +
      'setup= subdirectory-filter= original= state-branch= prune-empty force/f',
  },
  'send-email': { long: 'smtp-server= to-cmd= cc-cmd= header-cmd= sendmail-cmd=' },
  'fetch-pack': { long: 'upload-pack= exec= depth=' },
  worktree: {},
  bundle: {},
  maintenance: {},
  'sparse-checkout': {},
  hook: {},
};

/**
 * Commands whose options git matches whole: those that hand the options they do not know on to the revision
 * parser (which takes no abbreviations), and the revision parser's own users.
 */
const WHOLE_OPTIONS = new Set([
  'cherry-pick',
  'fast-export',
  'format-patch',
  'log',
  'revert',
  'show',
  'whatchanged',
  'stash list',
  'stash show',
  'stash store',
  'sparse-checkout set',
  'reflog',
  'reflog show',
  'diff',
  'diff-files',
  'diff-index',
  'diff-tree',
  'rev-list',
  'rev-parse',
  'filter-branch',
  'mergetool',
]);

/** Options that stand for several: `branch -D` is `--delete --force`; a mirror push forces and deletes. */
const IMPLIES: Readonly<Record<string, Record<string, string>>> = {
  branch: { D: 'd f', M: 'm f', C: 'c f' },
  switch: { f: 'f --discard-changes' },
  push: { '--mirror': '--mirror f d', '--prune': '--prune d' },
};

/** Filters that take HEAD when they end the command line (`git branch --merged`). */
const LAST_DEFAULT: Readonly<Record<string, string>> = {
  branch: 'merged no-merged contains no-contains with without',
  tag: 'merged no-merged contains no-contains with without points-at',
  'for-each-ref': 'merged no-merged contains no-contains',
};

/** What operands mean to deny and ask rules, where git reads them as options would say. */
const OPERANDS: Readonly<Record<string, SubcommandSpec['normalizeOperands']>> = {
  checkout: checkoutOperands,
  push: pushOperands,
};

const ALIASES: Readonly<Record<string, Record<string, string>>> = {
  '': { stage: 'add', 'fsck-objects': 'fsck', 'init-db': 'init' },
  remote: { rm: 'remove' },
};

/** Grammars shared by several commands (log, show, whatchanged) are built once. */
const built = new Map<GrammarSpec, Grammar>();

function grammarOf(name: string): Grammar {
  const listed = HAND_GRAMMARS[name] ?? HELP_GRAMMARS[name] ?? {};
  const spec = LAST_DEFAULT[name] ? { ...listed, lastDefault: LAST_DEFAULT[name] } : listed;
  const implies = IMPLIES[name];
  const abbreviate = !WHOLE_OPTIONS.has(name);
  if (implies || abbreviate) return gitGrammar(spec, { abbreviate, ...(implies ? { implies } : {}) });
  let g = built.get(spec);
  if (!g) {
    g = gitGrammar(spec, { abbreviate });
    built.set(spec, g);
  }
  return g;
}

/** A git command's level: its grammar and read-only allow-list are built on first use, to keep start-up fast. */
class GitLevel implements SubcommandSpec {
  subcommands?: Record<string, SubcommandSpec>;
  readonly subcommandAliases?: Readonly<Record<string, string>>;
  readonly normalizeOperands?: SubcommandSpec['normalizeOperands'];
  #grammar: Grammar | undefined;
  #readOnly: ReadOnlySpec | null | undefined;

  constructor(private readonly name: string) {
    const operands = OPERANDS[name];
    const aliases = ALIASES[name];
    if (operands) this.normalizeOperands = operands;
    if (aliases) this.subcommandAliases = aliases;
  }

  get grammar(): Grammar {
    this.#grammar ??= grammarOf(this.name);
    return this.#grammar;
  }

  get readOnly(): ReadOnlySpec | undefined {
    if (this.#readOnly === undefined) this.#readOnly = readOnlyLists(this.name, this.grammar) ?? null;
    return this.#readOnly ?? undefined;
  }
}

function build(): Record<string, SubcommandSpec> {
  const names = [...new Set([...Object.keys(HELP_GRAMMARS), ...Object.keys(HAND_GRAMMARS)])];
  const levels = new Map<string, GitLevel>();
  for (const name of names) levels.set(name, new GitLevel(name));
  const top: Record<string, SubcommandSpec> = {};
  for (const name of names) {
    const space = name.indexOf(' ');
    const level = levels.get(name)!;
    if (space < 0) {
      top[name] = level;
      continue;
    }
    const parent = levels.get(name.slice(0, space))!;
    parent.subcommands ??= {};
    parent.subcommands[name.slice(space + 1)] = level;
  }
  return top;
}

/** A git command's spec (`stash drop`), aliases resolved; undefined for a command automode has none for. */
export function gitLevel(name: string): SubcommandSpec | undefined {
  let level: SubcommandSpec | undefined = GIT_SPEC;
  for (const word of name.split(' ')) {
    const canonical: string = level?.subcommandAliases?.[word] ?? word;
    level =
      level?.subcommands && Object.hasOwn(level.subcommands, canonical)
        ? level.subcommands[canonical]
        : undefined;
  }
  return level;
}

let commands: Record<string, SubcommandSpec> | undefined;

/** Everything automode knows about how git reads its command line, and which commands only read. */
export const GIT_SPEC: ProgramSpec = {
  name: 'git',
  grammar: GIT_GLOBAL,
  permute: false,
  readOnly: allow(
    GIT_GLOBAL,
    '--no-pager -P --no-replace-objects --no-lazy-fetch --literal-pathspecs --glob-pathspecs ' +
      '--noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice -v -h',
  ),
  // Built at the first git command, not when the module loads.
  get subcommands() {
    commands ??= build();
    return commands;
  },
  subcommandAliases: ALIASES['']!,
};
