import type { Word } from '../../types.js';
import { has } from '../options.js';
import { parseCommand } from '../program.js';
import { GIT_SPEC } from './spec.js';

/** A git command that reads a remote repository: which remotes it names, and what else it may run. */
export interface RemoteRead {
  command: 'fetch' | 'ls-remote' | 'remote show' | 'remote update' | 'remote prune';
  /** The remotes named on the line; empty for the default one (or every one, with `all`). */
  remotes: Word[];
  all: boolean;
  /** fetch updates refs: git runs the reference-transaction hook, and `gc --auto` its pre-auto-gc hook. */
  runsHooks: boolean;
  /** fetch goes on into the submodules whose commits changed, unless told not to. */
  submodules: boolean;
}

/**
 * What a `git fetch`, `git ls-remote`, `git remote show` (without `-n`), `git remote prune` or `git remote update` line reads
 * over the network;
 * undefined for any other git command, or one whose words cannot be read.
 */
export function remoteRead(argv: readonly Word[]): RemoteRead | undefined {
  const parsed = parseCommand(GIT_SPEC, argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return undefined;
  const last = parsed.levels.at(-1)!;
  const operands = last.parsed.operands.map((index) => argv[index]!);
  const command = last.name.slice('git '.length);
  if (command === 'fetch') {
    const all = has(last.parsed, '--all');
    const multiple = all || has(last.parsed, 'm');
    return {
      command,
      remotes: multiple ? operands : operands.slice(0, 1),
      all,
      runsHooks: true,
      submodules: !has(last.parsed, '--no-recurse-submodules'),
    };
  }
  if (command === 'ls-remote') {
    return { command, remotes: operands.slice(0, 1), all: false, runsHooks: false, submodules: false };
  }
  // `remote update` fetches (into submodules too); `remote prune` deletes remote-tracking refs, which runs the hook.
  if (command === 'remote update') {
    return { command, remotes: operands, all: operands.length === 0, runsHooks: true, submodules: true };
  }
  if (command === 'remote prune') {
    return { command, remotes: operands, all: false, runsHooks: !has(last.parsed, 'n'), submodules: false };
  }
  if (command === 'remote show' && !has(last.parsed, 'n') && operands.length > 0) {
    return { command, remotes: operands, all: false, runsHooks: false, submodules: false };
  }
  return undefined;
}
