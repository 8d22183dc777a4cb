import type { SimpleCommand } from '../bash/index.js';
import type { CommandViews } from './bash-match.js';

/**
 * What a command a deny or ask rule decided destroys or changes, in words a person checks before saying yes:
 * `git stash drop` drops a stash entry, `git clean -f` deletes untracked files, `xargs rm -rf` deletes paths only
 * its input names. Undefined when the command's file effects already say it (`rm -rf build` deletes build) or
 * nothing is known about it.
 */
export function destructionOf(cmd: SimpleCommand, v: CommandViews): string | undefined {
  const words = cmd.argv.map((w) => (w.static ? w.value : w.text));
  const appended =
    cmd.nested?.extraArgs === true ? ` the paths ${cmd.nested.via} appends from its input` : '';
  const family = v.family;
  if (family === 'git') return git(words.slice(1));
  if (family === 'rm') {
    const dynamic = cmd.argv
      .slice(1)
      .filter((w) => !w.static && !w.text.startsWith('-'))
      .map((w) => w.text);
    const recursive = words.some((w) => /^-[a-zA-Z]*[rR]/.test(w) || w === '--recursive')
      ? ', recursively'
      : '';
    if (appended) return `deletes${appended}${recursive}`;
    if (dynamic.length > 0) return `deletes ${dynamic.join(' ')}, a path only known at run time${recursive}`;
    return undefined;
  }
  if ((family === 'chmod' || family === 'chown' || family === 'chgrp') && appended)
    return `changes the ${family === 'chmod' ? 'mode' : 'owner'} of${appended}`;
  if (family === 'mkfs') {
    const device = operands(words.slice(1)).at(-1);
    return `makes a new filesystem on ${device ?? 'a device'}, erasing everything it holds`;
  }
  if (family === 'shutdown' || family === 'halt' || family === 'poweroff') return 'shuts the machine down';
  if (family === 'reboot') return 'restarts the machine';
  if (family === 'dd') {
    const of = words.find((w) => w.startsWith('of='));
    return of ? `overwrites ${of.slice(3)} block by block` : undefined;
  }
  const sub = operands(words.slice(1));
  if (family === 'terraform' && sub[0] === 'destroy')
    return 'destroys every resource the Terraform state holds';
  if (family === 'terraform' && sub[0] === 'apply')
    return 'changes real infrastructure to match the configuration';
  if (family === 'kubectl' && sub[0] === 'delete')
    return `deletes ${sub.slice(1).join(' ') || 'resources'} from the cluster`;
  if (family === 'kubectl' && sub[0] === 'apply') return 'creates or changes resources in the cluster';
  if (family === 'helm' && (sub[0] === 'uninstall' || sub[0] === 'delete'))
    return `removes the release ${sub[1] ?? ''} and its resources from the cluster`.replace('  ', ' ');
  if (family === 'npm' && sub[0] === 'publish') return 'publishes the package to the registry, for everyone';
  if (family === 'docker' && sub[0] === 'system' && sub[1] === 'prune')
    return `deletes stopped containers, unused networks and ${words.some((w) => w === '-a' || w === '--all') ? 'every unused image' : 'dangling images'}${words.includes('--volumes') ? ', and unused volumes' : ''}`;
  if (family === 'gh' && sub[0] === 'pr' && sub[1] === 'merge')
    return `merges pull request ${sub[2] ?? 'of the current branch'}`;
  if (family === 'gh' && sub[0] === 'repo' && sub[1] === 'delete')
    return `deletes the GitHub repository ${sub[2] ?? 'of this folder'}, its issues and pull requests`;
  return undefined;
}

/** Operands: the words that are not options (a rough cut; option values count as operands). */
function operands(words: readonly string[]): string[] {
  const end = words.indexOf('--');
  const before = end < 0 ? words : words.slice(0, end);
  const after = end < 0 ? [] : words.slice(end + 1);
  return [...before.filter((w) => !w.startsWith('-')), ...after];
}

/** git's global options that take a value as the next word. */
const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);

function git(args: readonly string[]): string | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += GIT_VALUED.has(args[i]!) ? 2 : 1;
  const sub = args[i];
  const rest = args.slice(i + 1);
  const has = (...names: string[]) =>
    rest.some((w) => names.includes(w) || names.some((n) => /^-[a-zA-Z]$/.test(n) && shortHas(w, n[1]!)));
  const ops = operands(rest);
  switch (sub) {
    case 'stash':
      if (ops[0] === 'drop') return `drops the stash entry ${ops[1] ?? 'stash@{0}'} and the changes it holds`;
      if (ops[0] === 'clear') return 'deletes every stash entry and the changes they hold';
      return undefined;
    case 'clean': {
      const what = has('-d') ? 'untracked files and folders' : 'untracked files';
      const ignored = has('-x') ? ', ignored ones included' : has('-X') ? ' (only ignored ones)' : '';
      return `deletes ${what} below ${ops.join(' ') || '.'}${ignored}`;
    }
    case 'reset':
      return has('--hard', '--merge', '--keep')
        ? 'discards uncommitted changes to tracked files below .'
        : undefined;
    case 'checkout':
    case 'switch':
      if (has('-f', '--force', '--discard-changes'))
        return `discards uncommitted changes to tracked files below .${ops[0] ? ` while switching to ${ops[0]}` : ''}`;
      return undefined;
    case 'branch':
      if (has('-D') || (has('-d', '--delete') && has('-f', '--force')))
        return `deletes the branch ${ops.join(' ') || '(none named)'}, merged or not`;
      if (has('-d', '--delete')) return `deletes the branch ${ops.join(' ')}`;
      return undefined;
    case 'push': {
      const [remote, ...refs] = ops;
      const target = `${refs.join(' ') || 'the current branch'} on ${remote ?? 'the default remote'}`;
      if (has('--delete', '-d') || refs.some((r) => r.startsWith(':')))
        return `deletes ${refs.map((r) => r.replace(/^:/, '')).join(' ') || 'the named branches'} on ${remote ?? 'the default remote'}`;
      if (
        has('-f', '--force', '--force-with-lease', '--force-if-includes') ||
        refs.some((r) => r.startsWith('+'))
      )
        return `overwrites ${target} with the local history: commits only the remote has are lost`;
      return undefined;
    }
    case 'rebase':
      return `rewrites the commits of the current branch${ops[0] ? ` onto ${ops[0]}` : ''}`;
    case 'pull':
      return has('--rebase', '-r')
        ? 'rewrites the local commits of the current branch onto the fetched ones'
        : undefined;
    case 'filter-branch':
      return "rewrites the repository's history";
    case 'commit':
      return has('--no-verify', '-n')
        ? "commits without running the repository's pre-commit and commit-msg hooks"
        : undefined;
    case 'read-tree':
      return 'replaces the index with the named tree';
    case 'checkout-index':
      return 'writes files of the index over the working tree';
    default:
      return undefined;
  }
}

/** Whether a bundle of short options (`-fdx`) holds the letter. */
function shortHas(word: string, letter: string): boolean {
  return /^-[a-zA-Z]+$/.test(word) && word.slice(1).includes(letter);
}
