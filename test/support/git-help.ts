import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  return runGits([args], at)[0]!;
}

/** Starts each git in the list, one at a time, from one bash: words are split on \x1f, records end in NUL. */
const RUN_EACH = `i=0; while IFS=$'\\x1f' read -r -d '' -a words; do
  git "\${words[@]}" </dev/null >"$1/$i.out" 2>"$1/$i.err"; echo $? >>"$1/status"; i=$((i+1))
done <"$1/argv"`;

/**
 * `git ARGS` for each list of arguments, in the repository with its environment and empty stdin: what it printed
 * (stdout, then stderr) and its exit status. One bash starts them, one after the other: a fork of the test
 * worker costs in proportion to its memory, and the oracle runs git some thousands of times.
 */
export function runGits(
  runs: readonly (readonly string[])[],
  at: { cwd: string; env: NodeJS.ProcessEnv },
): GitRun[] {
  if (runs.length === 0) return [];
  for (const args of runs) {
    if (args.some((a) => a === '' || a.includes('\x1f') || a.includes('\0')))
      throw new Error(`cannot pass ${args}`);
  }
  const folder = mkdtempSync(join(tmpdir(), 'git-runs-'));
  try {
    writeFileSync(join(folder, 'argv'), runs.map((args) => `${args.join('\x1f')}\0`).join(''));
    const batch = spawnSync('bash', ['-c', RUN_EACH, 'git-runs', folder], {
      cwd: at.cwd,
      env: at.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const statuses = existsSync(join(folder, 'status'))
      ? readFileSync(join(folder, 'status'), 'utf8').split('\n')
      : [];
    if (batch.status !== 0 || statuses.length !== runs.length + 1) {
      throw new Error(
        `git runs failed (${batch.status}, ${statuses.length - 1} of ${runs.length}): ${batch.stderr}`,
      );
    }
    return runs.map((_, i) => ({
      status: Number(statuses[i]),
      out: `${readFileSync(join(folder, `${i}.out`), 'utf8')}${readFileSync(join(folder, `${i}.err`), 'utf8')}`,
    }));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
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
  const probeOf = (name: string) => (name.startsWith('no-') ? name.slice(3) : `no-${name}`);
  const unpaired = [...listed].filter((name) => !listed.has(probeOf(name)));
  const runs = runGits(
    unpaired.map((name) => [...command.split(' '), `--${probeOf(name)}=x`, '-h']),
    at,
  );
  const refused = new Set(unpaired.filter((_, i) => /unknown option|invalid option/.test(runs[i]!.out)));
  return [...listed].filter((name) => !unpaired.includes(name) || refused.has(name));
}
