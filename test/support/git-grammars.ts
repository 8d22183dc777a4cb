import type { HelpOption } from './git-help.js';

/**
 * The git commands whose options `git <command> --help-all` lists completely (git's parse-options prints every
 * option it reads, hidden ones included). Nested subcommands are written `stash drop`.
 */
export const HELP_COMMANDS = (
  'add am annotate apply archive blame branch bugreport cat-file check-attr check-ignore check-mailmap ' +
  'checkout checkout-index cherry cherry-pick clean clone column commit commit-tree config count-objects ' +
  'credential-cache credential-store describe diagnose fast-export fetch fmt-merge-msg for-each-ref ' +
  'for-each-repo format-patch fsck gc grep hash-object help init interpret-trailers log ls-files ' +
  'ls-remote ls-tree mailinfo merge merge-base merge-file merge-tree mktag mktree mv name-rev pack-objects ' +
  'pack-refs patch-id prune prune-packed pull push range-diff read-tree rebase remote repack replace rerere ' +
  'reset restore revert rm send-pack shortlog show show-branch show-index show-ref status stripspace switch ' +
  'symbolic-ref tag update-index update-ref update-server-info verify-commit verify-pack verify-tag version ' +
  'whatchanged worktree write-tree multi-pack-index ' +
  'stash|show stash|drop stash|pop stash|apply stash|branch stash|push stash|save stash|clear ' +
  'stash|store remote|add remote|rename remote|remove remote|set-head remote|show remote|prune remote|update ' +
  'remote|set-branches remote|get-url remote|set-url worktree|add worktree|list worktree|lock worktree|move ' +
  'worktree|prune worktree|remove worktree|repair worktree|unlock reflog|expire reflog|delete reflog|exists ' +
  'notes|add notes|copy notes|append notes|edit notes|show notes|merge notes|remove notes|prune ' +
  'notes|get-ref bundle|create bundle|verify bundle|list-heads bundle|unbundle commit-graph|verify ' +
  'commit-graph|write multi-pack-index|write multi-pack-index|verify multi-pack-index|expire ' +
  'multi-pack-index|repack maintenance|run maintenance|start maintenance|stop maintenance|register ' +
  'maintenance|unregister sparse-checkout|init sparse-checkout|set sparse-checkout|disable hook|run'
)
  .split(' ')
  .map((name) => name.replace('|', ' '));

export interface GrammarStrings {
  flags: string;
  values: string;
  optional: string;
  long: string;
  numeric: boolean;
  fixed: string;
}

/** The options as the spec notation writes them: `name=`, `name?`, `name/x`. */
export function grammarStrings(
  options: readonly HelpOption[],
  fixed: readonly string[] = [],
): GrammarStrings {
  const out = { flags: '', values: '', optional: '', long: [] as string[], numeric: false };
  const seenShort = new Set<string>();
  const seenLong = new Set<string>();
  for (const option of options) {
    if (option.short === '#') out.numeric = true;
    const marker = option.arity === 'value' ? '=' : option.arity === 'optional' ? '?' : '';
    if (option.short && !seenShort.has(option.short) && option.short !== '#') {
      seenShort.add(option.short);
      if (option.arity === 'value') out.values += option.short;
      else if (option.arity === 'optional') out.optional += option.short;
      else out.flags += option.short;
    }
    if (option.long && !seenLong.has(option.long)) {
      seenLong.add(option.long);
      out.long.push(`${option.long}${marker}${option.short ? `/${option.short}` : ''}`);
    }
  }
  return { ...out, long: out.long.join(' '), fixed: fixed.join(' ') };
}
