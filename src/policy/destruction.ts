import type { SimpleCommand } from '../bash/index.js';
import { type CommandViews, normalizedOf } from './bash-match.js';

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
  const read = normalizedOf(v);
  const sub = read.positionals.filter((w) => w !== '--');
  const has = (...names: string[]) => names.some((name) => read.options.has(name));
  if (family === 'git') return git(sub, has);
  if (family === 'rm') {
    const dynamic = cmd.argv
      .slice(1)
      .filter((w) => !w.static && !w.text.startsWith('-'))
      .map((w) => w.text);
    const recursive = has('r', 'R', 'recursive') ? ', recursively' : '';
    if (appended) return `deletes${appended}${recursive}`;
    if (dynamic.length > 0) return `deletes ${dynamic.join(' ')}, a path only known at run time${recursive}`;
    return undefined;
  }
  if ((family === 'chmod' || family === 'chown' || family === 'chgrp') && appended)
    return `changes the ${family === 'chmod' ? 'mode' : 'owner'} of${appended}`;
  if (family === 'mkfs') {
    const device = sub.at(-1);
    return `makes a new filesystem on ${device ?? 'a device'}, erasing everything it holds`;
  }
  if (family === 'shutdown' || family === 'halt' || family === 'poweroff') return 'shuts the machine down';
  if (family === 'reboot') return 'restarts the machine';
  if (family === 'dd') {
    const of = words.find((w) => w.startsWith('of='));
    return of ? `overwrites ${of.slice(3)} block by block` : undefined;
  }
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
    return `deletes stopped containers, unused networks and ${has('a', 'all') ? 'every unused image' : 'dangling images'}${has('volumes') ? ', and unused volumes' : ''}`;
  if (family === 'gh' && sub[0] === 'pr' && sub[1] === 'merge')
    return `merges pull request ${sub[2] ?? 'of the current branch'}`;
  if (family === 'gh' && sub[0] === 'repo' && sub[1] === 'delete')
    return `deletes the GitHub repository ${sub[2] ?? 'of this folder'}, its issues and pull requests`;
  return undefined;
}

/** What git's subcommand destroys or rewrites, from its words as git's spec reads them (global options left out). */
function git(positionals: readonly string[], has: (...names: string[]) => boolean): string | undefined {
  const [sub, ...ops] = positionals;
  switch (sub) {
    case 'stash':
      if (ops[0] === 'drop') return `drops the stash entry ${ops[1] ?? 'stash@{0}'} and the changes it holds`;
      if (ops[0] === 'clear') return 'deletes every stash entry and the changes they hold';
      return undefined;
    case 'clean': {
      const what = has('d') ? 'untracked files and folders' : 'untracked files';
      const ignored = has('x') ? ', ignored ones included' : has('X') ? ' (only ignored ones)' : '';
      return `deletes ${what} below ${ops.join(' ') || '.'}${ignored}`;
    }
    case 'reset':
      return has('hard', 'merge', 'keep')
        ? 'discards uncommitted changes to tracked files below .'
        : undefined;
    case 'checkout':
    case 'switch':
      if (has('f', 'force', 'discard-changes'))
        return `discards uncommitted changes to tracked files below .${ops[0] ? ` while switching to ${ops[0]}` : ''}`;
      return undefined;
    case 'branch':
      if (has('D') || (has('d', 'delete') && has('f', 'force')))
        return `deletes the branch ${ops.join(' ') || '(none named)'}, merged or not`;
      if (has('d', 'delete')) return `deletes the branch ${ops.join(' ')}`;
      return undefined;
    case 'push': {
      const [remote, ...refs] = ops;
      const target = `${refs.join(' ') || 'the current branch'} on ${remote ?? 'the default remote'}`;
      if (has('delete', 'd') || refs.some((r) => r.startsWith(':')))
        return `deletes ${refs.map((r) => r.replace(/^:/, '')).join(' ') || 'the named branches'} on ${remote ?? 'the default remote'}`;
      if (has('f', 'force', 'force-with-lease', 'force-if-includes') || refs.some((r) => r.startsWith('+')))
        return `overwrites ${target} with the local history: commits only the remote has are lost`;
      return undefined;
    }
    case 'rebase':
      return `rewrites the commits of the current branch${ops[0] ? ` onto ${ops[0]}` : ''}`;
    case 'pull':
      return has('rebase', 'r')
        ? 'rewrites the local commits of the current branch onto the fetched ones'
        : undefined;
    case 'filter-branch':
      return "rewrites the repository's history";
    case 'commit':
      return has('no-verify', 'n')
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
