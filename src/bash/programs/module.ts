import type { CommandView, EffectsResult } from '../types.js';
import type { EffectHandler } from './effect-helpers.js';
import { type ProgramSpec, parseCommand } from './program.js';
import type { Relocation } from './relocation.js';
import type { Handler } from './specs.js';

/**
 * Everything automode knows about one program (or one family: `grep`, `egrep`, `fgrep`), in one place, as ESLint
 * keeps one file per rule: how it reads its command line and what keeps it read-only (`spec`), the files it reads
 * and writes (`effects`), the programs and code it runs (`nested`), and the commands the effect oracle runs to
 * check all of that against the program itself (`oracle`). `registry.ts` lists the modules.
 */
export interface ProgramModule {
  /** The names it runs under; with a spec, the spec's name and aliases. */
  names: readonly string[];
  spec?: ProgramSpec;
  /** The files it reads, writes, creates or deletes through its arguments and options. */
  effects?: EffectHandler;
  /**
   * Effects that take precedence over `effects` when they apply (a config subcommand writing a settings file);
   * undefined when they do not.
   */
  configEffects?: (cmd: CommandView) => EffectsResult | undefined;
  /** What it runs besides itself, one level deep: wrapped argument vectors, shell strings, hidden code. */
  nested?: Handler;
  /** Whether the command talks to the network as part of what it does (`kubectl get` to its cluster). */
  network?: (cmd: CommandView) => boolean;
  /** For a code runner: the options that make it take its code from another place (`npm --prefix`). */
  relocation?: Relocation;
  oracle?: OracleHints;
}

/**
 * What the effect oracle adds to the commands it generates from the spec: command lines that must be run as they
 * are (the shapes that once got through), and operand words this program reads in a form of its own.
 */
export interface OracleHints {
  cases?: readonly string[];
  operands?: readonly string[];
}

/** The subcommands a command line names (`remote update` for `git -C x remote update`), or undefined. */
export function subcommandOf(spec: ProgramSpec, cmd: CommandView): string | undefined {
  const parsed = parseCommand(spec, cmd.argv, { unknown: 'flag', dynamic: 'operand' });
  if (!parsed.ok || parsed.unknownSubcommand) return undefined;
  return (
    parsed.levels
      .map((level) => level.name)
      .at(-1)
      ?.split(' ')
      .slice(1)
      .join(' ') || undefined
  );
}
