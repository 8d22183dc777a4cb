import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ambiguousCheckout, type SimpleCommand } from '../bash/index.js';
import { type CommandViews, normalizedOf } from './bash-match.js';
import type { DecisionContext } from './context.js';
import { gitFolders } from './git-folders.js';
import { commitOf, remoteBranches, repositoryOf } from './revision-writes.js';

/**
 * `git checkout X` switches to X when X names a commit, or a branch of exactly one remote that no file of the
 * folder is named after; otherwise X is a path whose uncommitted changes it discards, as `git checkout -- X`
 * does. The operand is resolved as git resolves it (read-only) in every folder the command may run in, and the
 * command is then read as the `--` form wherever X is a path there, so deny and ask rules see what it does.
 * When the folder is only known at run time, or `changed` says another command of the line may change the
 * repository first, X counts as a path. Returns the views to decide by: `v` itself, or new views of the `--` form.
 */
export function resolveGitOperands(
  cmd: SimpleCommand,
  v: CommandViews,
  ctx: DecisionContext,
  cwds: readonly string[] | undefined,
  changed: () => boolean,
): CommandViews {
  if (v.family !== 'git' || !v.allStatic) return v;
  const normalized = normalizedOf(v);
  const operand = ambiguousCheckout(normalized.positionals, normalized.options);
  if (operand === undefined) return v;
  const folders = cwds && !changed() ? gitFolders(cmd, [...cwds], ctx) : undefined;
  if (folders?.every((folder) => namesRevision(folder, operand, normalized.options))) return v;
  // The words rules match are read again from the new normalised line.
  const { words_: _, ...rest } = v;
  return { ...rest, normalized: { ...normalized, positionals: ['checkout', '--', operand] } };
}

function namesRevision(folder: string, operand: string, options: ReadonlySet<string>): boolean {
  const repo = repositoryOf(folder);
  // Outside any repository git refuses to run: it discards nothing.
  if (!repo) return true;
  const rev = operand === '-' ? '@{-1}' : operand;
  if (commitOf(repo, rev)) return true;
  if (options.has('no-guess') || existsSync(resolve(folder, operand))) return false;
  return remoteBranches(repo, operand)?.length === 1;
}
