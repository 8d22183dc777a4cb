import type { GrammarSpec } from '../options.js';
import { without } from './grammar-tools.js';
import { HELP_GRAMMARS } from './grammars.js';

/**
 * The revision walker's options (git's revision.c matches them whole, without abbreviations): what log,
 * rev-list, shortlog and the diff plumbing read after their own options. `-5` is `--max-count=5`.
 */
export const REVISION_OPTIONS: GrammarSpec = {
  flags: 'iEFPgcmtrv',
  values: 'n',
  long:
    'max-count=/n skip= max-age= min-age= since= after= until= before= since-as-filter= author= committer= ' +
    'grep= grep-reflog= all-match invert-grep regexp-ignore-case/i basic-regexp extended-regexp/E ' +
    'fixed-strings/F perl-regexp/P remove-empty merges no-merges min-parents= max-parents= no-min-parents ' +
    'no-max-parents first-parent exclude-first-parent-only not all branches? tags? remotes? glob= exclude= ' +
    'exclude-hidden= reflog alternate-refs single-worktree ignore-missing bisect stdin cherry-mark ' +
    'cherry-pick left-only right-only cherry walk-reflogs/g merge boundary simplify-by-decoration ' +
    'show-pulls full-history dense sparse simplify-merges ancestry-path? date-order author-date-order ' +
    'topo-order reverse no-walk? do-walk pretty? format= abbrev-commit no-abbrev-commit oneline ' +
    'expand-tabs? no-expand-tabs encoding= notes? no-notes show-notes? standard-notes no-standard-notes ' +
    'show-signature no-show-signature relative-date date= parents children left-right graph no-graph ' +
    'show-linear-break? count objects objects-edge objects-edge-aggressive unpacked filter= no-filter ' +
    'filter-provided-objects missing= exclude-promisor-objects indexed-objects in-commit-order no-kept-objects ' +
    'bisect-vars bisect-all disk-usage? timestamp header diff-merges= no-diff-merges combined-all-paths ' +
    'remerge-diff cc dd root always full-diff no-commit-id track-linear early-output? progress= ' +
    'unsorted-input object-names no-object-names',
  numeric: true,
};

/**
 * The diff options every diffing command reads: range-diff lists them all in its own help, after its few
 * options.
 */
export const DIFF_OPTIONS: GrammarSpec = without(
  HELP_GRAMMARS['range-diff']!,
  'creation-factor no-dual-color notes left-only right-only',
);
