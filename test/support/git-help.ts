import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type HelpArity = 'flag' | 'value' | 'optional';

/** One option as `git <command> -h` lists it. */
export interface HelpOption {
  short?: string;
  long?: string;
  arity: HelpArity;
}

/** A throwaway repository and home, so that nothing git reads or writes belongs to anyone. */
export function scratchRepository(): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'git-help-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: root,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    LANG: 'C',
    LC_ALL: 'C',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
  };
  spawnSync('git', ['init', '-q', root], { env });
  return { cwd: root, env };
}

export function gitInstalled(): boolean {
  return spawnSync('git', ['--version']).status === 0;
}

export interface GitRun {
  status: number | null;
  out: string;
}

export function runGit(args: readonly string[], at: { cwd: string; env: NodeJS.ProcessEnv }): GitRun {
  const run = spawnSync('git', args, { cwd: at.cwd, env: at.env, encoding: 'utf8', input: '' });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

const OPTION_LINE = /^ {4}(-\S.*?)(?: {2,}.*)?$/;

/** `-X`, `--name`, `--[no-]name` with what follows the name: nothing, `[...]`, `=...` or ` <...>`. */
const PART = /^(?:--(?:\[no-\])?([a-z0-9][a-z0-9-]*)|-([A-Za-z0-9#]))(.*)$/;

function arityOf(tail: string): HelpArity {
  if (tail === '') return 'flag';
  return tail.startsWith('[') ? 'optional' : 'value';
}

/** The options `git <command> -h` (or `--help-all`) prints, hidden ones included with `--help-all`. */
export function parseHelp(text: string): HelpOption[] {
  const options: HelpOption[] = [];
  for (const line of text.split('\n')) {
    const match = OPTION_LINE.exec(line);
    if (!match) continue;
    if (/^-NUM\b/.test(match[1]!)) {
      options.push({ short: '#', arity: 'value' });
      continue;
    }
    const option: HelpOption = { arity: 'flag' };
    let valid = true;
    for (const part of match[1]!.split(', ')) {
      const m = PART.exec(part);
      if (!m) {
        valid = false;
        break;
      }
      const [, long, short, tail] = m as unknown as [string, string | undefined, string | undefined, string];
      if (long) option.long = long;
      if (short) option.short = short;
      if (long || !option.long) option.arity = arityOf(tail);
    }
    if (valid && (option.long || option.short)) options.push(option);
  }
  return options;
}

/**
 * The long options `--no-` does not negate (git's PARSE_OPT_NONEG, which the help does not show): git refuses
 * `--no-NAME` (or `--NAME` for an option named `no-NAME`) as unknown. When both `NAME` and `no-NAME` are listed
 * they are two options, each the other's opposite, and neither is negated.
 */
export function fixedOptions(
  command: string,
  options: readonly HelpOption[],
  at: { cwd: string; env: NodeJS.ProcessEnv },
): string[] {
  const listed = new Set(options.flatMap((option) => (option.long ? [option.long] : [])));
  const fixed: string[] = [];
  for (const name of listed) {
    const probe = name.startsWith('no-') ? name.slice(3) : `no-${name}`;
    if (listed.has(probe)) {
      fixed.push(name);
      continue;
    }
    const run = runGit([...command.split(' '), `--${probe}=x`, '-h'], at);
    if (/unknown option|invalid option/.test(run.out)) fixed.push(name);
  }
  return fixed;
}
