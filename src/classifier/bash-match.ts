import type { SimpleCommand } from '../bash/types.js';
import { DYN } from '../bash/types.js';
import { matchBashPattern } from '../rules/bash-pattern.js';
import type { BashPattern } from '../rules/types.js';
import { basename, type NormalizedCommand, normalize } from './normalize.js';

/** Environment assignments that change nothing about what a command runs or touches. */
const HARMLESS_ENV = new Set([
  'CI',
  'NODE_ENV',
  'DEBUG',
  'LANG',
  'LC_ALL',
  'TZ',
  'NO_COLOR',
  'FORCE_COLOR',
  'TERM',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'GIT_TERMINAL_PROMPT',
]);

/** The views of one command that rules are matched against, computed once per command. */
export interface CommandViews {
  values: string[];
  /** argv joined by single spaces, dynamic parts as DYN. */
  raw: string;
  /** The same with the program's basename (`/bin/rm` → `rm`). */
  based: string;
  normalized: NormalizedCommand;
  allStatic: boolean;
  harmlessEnv: boolean;
  extraArgs: boolean;
}

export function viewsOf(cmd: SimpleCommand): CommandViews {
  const values = cmd.argv.map((w) => w.value);
  const raw = values.join(' ');
  const based = values.length > 0 ? [basename(values[0]!), ...values.slice(1)].join(' ') : '';
  return {
    values,
    raw,
    based,
    normalized: normalize(values),
    allStatic: cmd.argv.every((w) => w.static),
    harmlessEnv: cmd.assignments.every((a) => HARMLESS_ENV.has(a.name) && a.value.static),
    extraArgs: cmd.nested?.extraArgs === true,
  };
}

/**
 * Allow rules match strictly, as Claude Code documents: the whole command line, every word known before the
 * command runs, no environment prefix that could change the program's behaviour. When a carrier appends
 * arguments (xargs, find -exec {}), the rule must accept any further words.
 */
export function allowMatches(p: BashPattern, v: CommandViews): boolean {
  if (!v.allStatic || !v.harmlessEnv || v.values.length === 0) return false;
  if (v.extraArgs) return matchBashPattern(p, `${v.raw} \u0000`);
  return matchBashPattern(p, v.raw);
}

/**
 * Deny and ask rules match robustly: through path-qualified names, global options between a program and its
 * subcommand, and options in any order or grouping (`rm -fr`, `rm -r -f`, `rm --recursive --force` all hit
 * `rm -rf`). Wrappers and environment prefixes need no handling here: the wrapped command is its own part.
 */
export function denyMatches(p: BashPattern, v: CommandViews): boolean {
  if (v.values.length === 0) return false;
  if (matchBashPattern(p, v.raw) || matchBashPattern(p, v.based) || matchBashPattern(p, v.normalized.line)) {
    return true;
  }
  return structuralMatch(p, v.normalized);
}

/** The rule's words, read as a command: program, subcommand words in order, options as a set. */
function structuralMatch(p: BashPattern, cmd: NormalizedCommand): boolean {
  const body = p.wordBoundary ? p.prefixWords : p.exact ? p.source.split(' ') : undefined;
  if (!body || body.length === 0) return false;
  const rule = normalize(body);
  if (rule.program !== cmd.program) return false;
  for (const o of rule.options) if (!cmd.options.has(o)) return false;
  if (p.exact) {
    return (
      rule.positionals.length === cmd.positionals.length &&
      rule.positionals.every((w, i) => w === cmd.positionals[i])
    );
  }
  return rule.positionals.every((w, i) => w === cmd.positionals[i]);
}

/**
 * A command whose words are partly unknown may turn out to be one a deny or ask rule names: `rm -rf $DIR`
 * under a deny on `rm -rf /`. True when the rule's program matches and every literal word could match.
 */
export function mayMatch(p: BashPattern, v: CommandViews): boolean {
  if (v.allStatic || v.values.length === 0) return false;
  const words = p.prefixWords.length > 0 ? p.prefixWords : p.exact ? p.source.split(' ') : [];
  const program = words[0];
  if (program === undefined || basename(program) !== v.normalized.program) return false;
  const hasDynamicArg = v.values.slice(1).some((w) => w.includes(DYN));
  return hasDynamicArg;
}
