import type { Word } from '../../types.js';
import { type EffectHandler, NONE, reads, UNKNOWN } from '../effect-helpers.js';
import { type Grammar, grammar, type Parsed } from '../options.js';
import { everyOption, type ProgramSpec, parseCommand, readOnly, type SubcommandSpec } from '../program.js';
import { checkProgram } from '../read-only.js';

/** The options a level of a macOS tool reads, in getopt's single-letter form or as whole words (`-info`). */
export interface LevelOptions {
  flags?: string;
  values?: string;
  /** Whole-word options (`-type= -verbose`). */
  words?: string;
  /** The options (by reported name) that keep it read-only; every option the grammar knows when absent. */
  allow?: string;
  operands: 'files' | 'inert' | 'none';
  max?: number;
  check?: (parsed: Parsed, words: readonly Word[]) => string | undefined;
  why?: Record<string, string>;
}

/** One level (a verb, or a program without verbs) of a macOS tool, read as its manual page gives it. */
export function level(options: LevelOptions): SubcommandSpec {
  const g: Grammar = grammar({
    flags: options.flags ?? '',
    values: options.values ?? '',
    words: options.words ?? '',
    abbreviate: false,
  });
  const allow = options.allow ?? (() => everyOption(g));
  return {
    grammar: g,
    readOnly: readOnly(allow, options.operands, {
      ...(options.max !== undefined ? { maxOperands: options.max } : {}),
      ...(options.check ? { check: options.check } : {}),
      ...(options.why ? { why: options.why } : {}),
    }),
  };
}

/** A verb that takes no option and no operand. */
export const BARE: SubcommandSpec = level({ operands: 'none' });

/** The program names its verb first; it reads no option before it. */
export const VERB_FIRST: Grammar = grammar({ options: /(?!)/ });

/** A read-only command reads the files its last level names as files, and nothing else. */
export function levelEffects(spec: ProgramSpec): EffectHandler {
  return (cmd) => {
    if (!checkProgram(spec, cmd.argv, false).readOnly) return UNKNOWN;
    const parsed = parseCommand(spec, cmd.argv, { unknown: 'fail', dynamic: 'operand' });
    if (!parsed.ok) return UNKNOWN;
    const last = parsed.levels.at(-1)!;
    if (last.spec.readOnly?.operands !== 'files') return NONE;
    return { effects: reads(last.parsed.operands.map((at) => cmd.argv[at]!)), known: true };
  };
}
