import type { Word } from '../../types.js';
import type { Grammar } from '../options.js';
import { has, lastValue, type Parsed } from '../options.js';
import type { ReadOnlySpec } from '../program.js';
import { allow } from './grammar-tools.js';

/** The revision walker's options that pick and describe commits: read the repository, print no file. */
export const REVISION_WALK =
  '-n --max-count -# --skip --max-age --min-age --since --after --until --before --since-as-filter --author ' +
  '--committer --grep --grep-reflog --all-match --invert-grep -i --regexp-ignore-case --basic-regexp -E ' +
  '--extended-regexp -F --fixed-strings -P --perl-regexp --remove-empty --merges --no-merges --min-parents ' +
  '--max-parents --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not --all ' +
  '--branches --tags --remotes --glob --exclude --exclude-hidden --reflog --alternate-refs --single-worktree ' +
  '--ignore-missing --bisect --cherry-mark --cherry-pick --left-only --right-only --cherry -g --walk-reflogs ' +
  '--merge --boundary --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges ' +
  '--ancestry-path --date-order --author-date-order --topo-order --reverse --no-walk --do-walk --pretty ' +
  '--format --abbrev-commit --no-abbrev-commit --oneline --expand-tabs --no-expand-tabs --encoding --notes ' +
  '--no-notes --show-notes --standard-notes --no-standard-notes --no-show-signature --relative-date --date ' +
  '--parents --children --left-right --graph --no-graph --show-linear-break --count --objects --objects-edge ' +
  '--objects-edge-aggressive --unpacked --indexed-objects --in-commit-order --no-kept-objects --bisect-vars ' +
  '--bisect-all --disk-usage --timestamp --header';

/** Revision walking and formatting: reads the repository only. Not `--stdin`, `--show-signature` (runs gpg). */
const REVISION = `${REVISION_WALK} --diff-merges --no-diff-merges --combined-all-paths --remerge-diff -c --cc -m --dd -t -r --root --always --full-diff --no-commit-id --track-linear --unsorted-input --object-names --no-object-names -v`;

/**
 * Diff output: not `--output` (writes a file), `--ext-diff` or `--textconv` (run configured programs). `-O`
 * reads its order file, which the file effects check.
 */
const DIFF =
  '-p --patch -s --no-patch -u -U --unified -W --function-context --raw --patch-with-raw --patch-with-stat ' +
  '--numstat --shortstat -X --dirstat --cumulative --dirstat-by-file --check --summary --name-only ' +
  '--name-status --stat --stat-width --stat-name-width --stat-graph-width --stat-count --compact-summary ' +
  '--binary --full-index --color --no-color --ws-error-highlight --abbrev --no-abbrev --src-prefix ' +
  '--dst-prefix --line-prefix --no-prefix --inter-hunk-context --output-indicator-new --output-indicator-old ' +
  '--output-indicator-context -B --break-rewrites -M --find-renames -D --irreversible-delete -C --find-copies ' +
  '--find-copies-harder --no-renames --rename-empty --no-rename-empty --follow --no-follow --minimal -w ' +
  '--ignore-all-space -b --ignore-space-change --ignore-space-at-eol --ignore-cr-at-eol --ignore-blank-lines ' +
  '-I --ignore-matching-lines --indent-heuristic --no-indent-heuristic --patience --histogram ' +
  '--diff-algorithm --anchored --word-diff --word-diff-regex --color-words --color-moved --no-color-moved ' +
  '--color-moved-ws --no-color-moved-ws --relative --no-relative -a --text --exit-code --quiet --no-ext-diff ' +
  '--no-textconv --ignore-submodules --submodule --ita-invisible-in-index --ita-visible-in-index ' +
  '--pickaxe-all --pickaxe-regex --rotate-to --skip-to --find-object --diff-filter -l -S -G -O -R -z';

const LOG = `-q --quiet --source --use-mailmap --mailmap --clear-decorations --decorate-refs --decorate-refs-exclude --decorate --no-decorate -L ${REVISION} ${DIFF}`;

const WHY: Readonly<Record<string, string>> = {
  '--output': 'writes a file',
  '--upload-pack': 'runs a program on the remote side',
  '--exec': 'runs a program on the remote side',
  '--set-upstream': 'writes the branch configuration',
  '--update-head-ok': 'may update the checked-out branch',
  '--recurse-submodules': "fetches in submodules, whose configuration may be the work tree's",
  '--refmap': 'writes refs a refmap names',
  P: 'deletes local tags (--prune-tags)',
  '--stdin': 'reads refspecs from standard input',
  '--ext-diff': 'runs the configured diff program',
  '--textconv': 'runs the configured conversion program',
  '--no-index': 'reads files outside the repository',
  O: 'runs a pager program',
  '--open-files-in-pager': 'runs a pager program',
};

/** Filters that make `git branch` and `git tag` list the names given rather than create them. */
const LIST_FILTERS = [
  '--contains',
  '--no-contains',
  '--merged',
  '--no-merged',
  '--points-at',
  '--with',
  '--without',
];

/** `git branch NAME` creates a branch; with `--list` or a filter, NAME is a pattern. */
function listsOnly(...listing: string[]) {
  return (parsed: Parsed): string | undefined =>
    parsed.operands.length === 0 || has(parsed, ...listing, ...LIST_FILTERS)
      ? undefined
      : 'creates what it names unless listing';
}

/** `git config NAME` reads; `git config NAME VALUE` writes. */
function configReads(parsed: Parsed): string | undefined {
  const getting = has(parsed, '--get', '--get-all', '--get-regexp', '--get-urlmatch');
  if (has(parsed, 'l')) return parsed.operands.length === 0 ? undefined : 'git config --list takes no names';
  if (getting) return parsed.operands.length <= 2 ? undefined : 'git config with 3 arguments';
  return parsed.operands.length === 1 ? undefined : 'git config with a value writes it';
}

/**
 * `git fetch [REMOTE [REFSPEC...]]`: refspecs that only name what to fetch (into FETCH_HEAD and the remote's
 * tracking refs), not `SRC:DST`, which writes a local branch or tag. With `--all` or `--multiple` every operand
 * is a remote. Which remotes those are is read at decision time (`policy/project-files/git-remotes.ts`).
 */
function fetchesOnly(parsed: Parsed, words: readonly Word[]): string | undefined {
  const [, ...refspecs] = parsed.operands.map((index) => words[index]!);
  if (has(parsed, '--all') && parsed.operands.length > 0) return 'git fetch --all takes no remote';
  if (has(parsed, 'm')) return undefined;
  for (const refspec of refspecs) {
    if (!refspec.static || refspec.value.includes(':') || refspec.value === 'tag')
      return `git fetch ${refspec.text} may write a local branch or tag`;
  }
  return undefined;
}

/** `git symbolic-ref NAME` reads the ref NAME points at; given a target too, it points NAME there. */
function readsOneRef(parsed: Parsed): string | undefined {
  return parsed.operands.length <= 1 ? undefined : 'git symbolic-ref with a target writes the ref';
}

/** `git replace` lists the replacements with `-l` or when given nothing; otherwise it creates one. */
function listsReplacements(parsed: Parsed): string | undefined {
  return has(parsed, 'l') || parsed.operands.length === 0 ? undefined : 'git replace without -l replaces';
}

/** The one-word forms of a command that only read (`git rerere status`). */
function verbs(...allowed: string[]) {
  return (parsed: Parsed, words: readonly Word[]): string | undefined => {
    const first = parsed.operands[0] === undefined ? undefined : words[parsed.operands[0]];
    return parsed.operands.length === 1 && first?.static && allowed.includes(first.value)
      ? undefined
      : `only ${allowed.join(', ')} only read`;
  };
}

/**
 * `git apply` with `--check`, `--stat`, `--numstat` or `--summary` reports on the patch and applies nothing
 * (git-apply(1): each "turns off apply"), unless `--apply` turns it back on.
 */
function reportsOnly(parsed: Parsed): string | undefined {
  if (has(parsed, '--apply')) return 'git apply --apply applies the patch';
  return has(parsed, '--check', '--stat', '--numstat', '--summary')
    ? undefined
    : 'git apply without --check, --stat, --numstat or --summary applies the patch';
}

/** `git archive` writes tar and zip itself; tar.gz, tgz and configured formats are piped through a program. */
function builtInFormat(parsed: Parsed): string | undefined {
  const format = lastValue(parsed, '--format');
  return !format || (format.static && ['tar', 'zip'].includes(format.value))
    ? undefined
    : `git archive --format=${format.text} runs a compression program`;
}

type Lists = Record<string, [options: string, more?: Partial<Pick<ReadOnlySpec, 'operands' | 'check'>>]>;

/** Commands that only read, with every option that keeps them so. An option not listed makes them not read-only. */
const LISTS: Lists = {
  status: [
    '-v --verbose -s --short --no-short -b --branch --no-branch --show-stash --ahead-behind --no-ahead-behind ' +
      '--porcelain --long -z --null -u --untracked-files --ignored --ignore-submodules --column --no-column ' +
      '--no-renames -M --find-renames',
  ],
  log: [LOG],
  show: [LOG],
  whatchanged: [LOG],
  reflog: [LOG, { operands: 'none' }],
  'reflog show': [LOG],
  'reflog exists': [''],
  'stash list': [`${REVISION} ${DIFF}`],
  'stash show': [`-u --include-untracked --only-untracked ${DIFF}`],
  diff: [`${DIFF} --cached --staged --merge-base -0 -1 -2 -3 --base --ours --theirs`],
  'diff-files': [`${DIFF} -0 -1 -2 -3 --base --ours --theirs -q`],
  'diff-index': [`${DIFF} --cached --merge-base -m`],
  'diff-tree': [`${DIFF} ${REVISION} --stdin --merge-base`],
  'range-diff': [`${DIFF} --creation-factor --no-dual-color --notes --left-only --right-only`],
  'rev-list': [`${REVISION} --quiet`],
  'rev-parse': [
    '--sq-quote --keep-dashdash --stop-at-non-option --stuck-long --verify -q --quiet --sq --short --abbrev-ref ' +
      '--symbolic --symbolic-full-name --default --prefix --revs-only --no-revs --flags --no-flags --all ' +
      '--branches --tags --remotes --glob --exclude --exclude-hidden --disambiguate --local-env-vars ' +
      '--path-format --git-dir --git-common-dir --absolute-git-dir --git-path --show-toplevel ' +
      '--show-superproject-working-tree --show-prefix --show-cdup --shared-index-path --show-object-format ' +
      '--show-ref-format --is-inside-git-dir --is-inside-work-tree --is-bare-repository ' +
      '--is-shallow-repository --since --after --until --before --not',
  ],
  describe: [
    '--contains --debug --all --tags --long --first-parent --abbrev --exact-match --candidates --match ' +
      '--exclude --always --dirty --broken',
  ],
  blame: [
    `--incremental --root --show-stats --progress --score-debug -f --show-name -n --show-number -p --porcelain ` +
      `--line-porcelain -e --show-email --ignore-rev --ignore-revs-file --color-lines --color-by-age --minimal ` +
      `--contents --abbrev -b -c -l -t -s -w -S -L -C -M ${REVISION}`,
  ],
  annotate: [
    `--incremental --root --show-stats --progress --score-debug -f --show-name -n --show-number -p --porcelain ` +
      `--line-porcelain -e --show-email --ignore-rev --ignore-revs-file --color-lines --color-by-age --minimal ` +
      `--contents --abbrev -b -c -l -t -s -w -S -L -C -M ${REVISION}`,
  ],
  'ls-files': [
    '-z -t -v -f -c --cached -d --deleted -m --modified -o --others -i --ignored -s --stage -k --killed ' +
      '--directory --eol --empty-directory -u --unmerged --resolve-undo -x --exclude --exclude-standard ' +
      '--full-name --recurse-submodules --error-unmatch --with-tree --abbrev --debug --deduplicate --sparse ' +
      '--format',
  ],
  'ls-tree': [
    '-d -r -t -z -l --long --name-only --name-status --object-only --full-name --full-tree --format --abbrev',
  ],
  'cat-file': [
    '-t -s -e -p -z --allow-unknown-type --use-mailmap --mailmap --batch --batch-check --batch-command ' +
      '--batch-all-objects --buffer --unordered',
    { operands: 'inert' },
  ],
  shortlog: [`-c --committer -n --numbered -s --summary -e --email --group -w ${REVISION}`],
  grep: [
    '-v --invert-match -i --ignore-case -w --word-regexp -a --text -I -r --recursive --max-depth -E ' +
      '--extended-regexp -G --basic-regexp -F --fixed-strings -P --perl-regexp -n --line-number --column ' +
      '-h -H --full-name -l --files-with-matches --name-only -L --files-without-match -z --null -o ' +
      '--only-matching -c --count --color --no-color --break --heading -C --context -B --before-context -A ' +
      '--after-context --threads -p --show-function -W --function-context --and --or --not -q --quiet ' +
      '--all-match -m --max-count -e -f --cached --untracked --exclude-standard --no-exclude-standard ' +
      '--recurse-submodules -#',
  ],
  'merge-base': ['-a --all --octopus --independent --is-ancestor --fork-point'],
  'name-rev': [
    '--name-only --tags --refs --exclude --all --stdin --annotate-stdin --undefined --always --peel-tag',
  ],
  'show-ref': [
    '--tags --heads --verify --head -d --dereference -s --hash --abbrev -q --quiet --exclude-existing',
  ],
  'for-each-ref': [
    '-s --shell -p --perl --python --tcl --count --format --color --no-color --sort --points-at --merged ' +
      '--no-merged --contains --no-contains --ignore-case',
  ],
  'count-objects': ['-v --verbose -H --human-readable'],
  version: ['--build-options', { operands: 'none' }],
  // Not -m, -w, -i: they start man, a browser or info by name; the default shows the page as `man` would.
  help: [
    '-a --all --external-commands --aliases --exclude-guides -v --verbose -g --guides --user-interfaces ' +
      '--developer-interfaces -c --config --config-for-completion --config-sections-for-completion',
    { operands: 'inert' },
  ],
  'check-ignore': ['-q --quiet -v --verbose -z -n --non-matching --no-index --stdin'],
  'check-attr': ['-a --all --cached -z --stdin'],
  'check-mailmap': ['--stdin', { operands: 'inert' }],
  cherry: ['-v --verbose --abbrev'],
  'show-branch': [
    '-a --all -r --remotes --color --no-color --more --list --no-name --current --sha1-name --merge-base ' +
      '--independent --topo-order --topics --sparse --date-order -g --reflog',
  ],
  branch: [
    '-a --all -r --remotes -l --list -v --verbose -q --quiet -i --ignore-case --color --no-color --abbrev ' +
      '--no-abbrev --column --no-column --sort --merged --no-merged --contains --no-contains --with --without ' +
      '--points-at --format --show-current',
    { check: listsOnly('l') },
  ],
  tag: [
    '-l --list -n --sort --contains --no-contains --with --without --merged --no-merged --points-at --column ' +
      '--no-column --format --color --no-color -i --ignore-case -v --verify',
    { check: listsOnly('l', 'n', 'v') },
  ],
  remote: ['-v --verbose', { operands: 'none' }],
  // Reads of a remote the repository's configuration names; `policy/project-files/git-remotes.ts` checks which at decision
  // time. fetch writes only git's own state (objects, remote-tracking refs, FETCH_HEAD, tags it has not). Not
  // --prune-tags (deletes local tags), -f (overwrites local tags the remote moved), --set-upstream (writes
  // .git/config), --filter (makes the remote a promisor in the configuration), the depth options (they move the
  // shallow boundary), --recurse-submodules.
  fetch: [
    '-v --verbose -q --quiet --all -a --append --atomic -m --multiple -t --tags --no-tags -j --jobs ' +
      '--prefetch -p --prune --no-prune --no-recurse-submodules --dry-run --write-fetch-head ' +
      '--no-write-fetch-head -k --keep --progress --no-progress --unshallow --refetch -4 --ipv4 -6 --ipv6 ' +
      '--negotiation-tip --negotiate-only --auto-maintenance --no-auto-maintenance --auto-gc --no-auto-gc ' +
      '--show-forced-updates --no-show-forced-updates --write-commit-graph --no-write-commit-graph',
    { operands: 'inert', check: fetchesOnly },
  ],
  'ls-remote': [
    '-q --quiet -t --tags -h --heads --refs --get-url --sort --exit-code --symref',
    { operands: 'inert' },
  ],
  'remote show': ['-n', { operands: 'inert' }],
  // `git fetch` of the remotes or groups named (every remote without one), and the removal of the remote-tracking
  // refs whose branch the remote no longer has: git's own state.
  'remote update': ['-p --prune', { operands: 'inert' }],
  'remote prune': ['-n --dry-run', { operands: 'inert' }],
  // gpg (or ssh-keygen with gpg.format=ssh), as the user's configuration names it, checks the signature; gpg
  // keeps its own keyring and trust database in ~/.gnupg.
  'verify-commit': ['-v --verbose --raw', { operands: 'inert' }],
  'verify-tag': ['-v --verbose --raw --format', { operands: 'inert' }],
  'remote get-url': ['--push --all'],
  'worktree list': ['-v --verbose -z --porcelain --expire', { operands: 'none' }],
  'notes list': [''],
  'notes show': [''],
  'sparse-checkout list': ['', { operands: 'none' }],
  'bundle list-heads': [''],
  'bundle verify': ['-q --quiet'],
  // To standard output. Not -o (writes the archive), --remote or --exec (another repository, a program there),
  // --add-file (an untracked file added).
  archive: ['--format -l --list -v --verbose --prefix --worktree-attributes -#', { check: builtInFormat }],
  // Not --lost-found: it writes the objects it finds under .git/lost-found.
  fsck: [
    '-v --verbose --unreachable --dangling --no-dangling --tags --root --cache --reflogs --no-reflogs --full ' +
      '--no-full --connectivity-only --strict --progress --no-progress --name-objects --no-name-objects',
    { operands: 'inert' },
  ],
  // Not -w (writes the object) or --stdin-paths (reads the files named on its input).
  'hash-object': ['-t --stdin --no-filters --literally --path'],
  'symbolic-ref': ['-q --quiet --short --recurse --no-recurse', { operands: 'inert', check: readsOneRef }],
  replace: ['-l --list --format', { operands: 'inert', check: listsReplacements }],
  // One logical variable (git-var(1)): who commits, the editor and pager git would start (printed, not run), the
  // default branch, the shell, the attribute and configuration files git reads. Not -l: it lists every
  // configuration value, a credential written into the configuration among them.
  var: [
    '',
    {
      operands: 'inert',
      check: verbs(
        'GIT_AUTHOR_IDENT',
        'GIT_COMMITTER_IDENT',
        'GIT_EDITOR',
        'GIT_SEQUENCE_EDITOR',
        'GIT_PAGER',
        'GIT_DEFAULT_BRANCH',
        'GIT_SHELL_PATH',
        'GIT_ATTR_SYSTEM',
        'GIT_ATTR_GLOBAL',
        'GIT_CONFIG_SYSTEM',
        'GIT_CONFIG_GLOBAL',
      ),
    },
  ],
  // `status` and `remaining` print the paths it recorded, read-only (rerere.c's RERERE_READONLY).
  rerere: ['', { operands: 'inert', check: verbs('status', 'remaining') }],
  apply: [
    '--check --stat --numstat --summary -z -p -C --exclude --include --cached --index -R --reverse -v ' +
      '--verbose -q --quiet --unidiff-zero --recount --directory --allow-empty --ignore-space-change ' +
      '--ignore-whitespace --inaccurate-eof --allow-overlap',
    { check: reportsOnly },
  ],
  config: [
    '--global --system --local --worktree --get --get-all --get-regexp --get-urlmatch -l --list --fixed-value ' +
      '-t --type --bool --int --bool-or-int --bool-or-str --path --expiry-date -z --null --name-only --includes ' +
      '--no-includes --show-origin --show-scope --default',
    { operands: 'inert', check: configReads },
  ],
};

/** The read-only allow-list of a git command (`stash list`), resolved through its grammar; undefined if none. */
export function readOnlyLists(name: string, grammar: Grammar): ReadOnlySpec | undefined {
  const list = LISTS[name];
  if (!list) return undefined;
  const [options, more] = list;
  const check = more?.check;
  return allow(grammar, options, more?.operands ?? 'files', check ? { check, why: WHY } : { why: WHY });
}
