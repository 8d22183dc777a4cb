import type { SimpleCommand } from '../../bash/index.js';
import type { DecisionContext } from '../context.js';

/** Where a command runs, for the checks of the files it reads there before it does its job. */
export interface ProjectPlace {
  program: string;
  cmd: SimpleCommand;
  /** The command's words as written. */
  words: readonly string[];
  /** Whether the command talks to the network (a registry read). */
  network: boolean;
  /** The folders it may run in; undefined when one is only known at run time. */
  cwds: readonly string[] | undefined;
  ctx: DecisionContext;
  /** Whether another command of the line may write first (the files checked could be put in place). */
  changedBefore: () => boolean;
}
