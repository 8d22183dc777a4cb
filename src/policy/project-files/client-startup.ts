import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { duckdbCommandProblem, sqliteCommandProblem } from '../../bash/index.js';

const MAX_BYTES = 64 * 1024;

/**
 * The start-up file a database client runs before the command line's statements, in the user's home (none reads
 * one from the working folder): `~/.sqliterc` and `~/.duckdbrc` (`-init`, which replaces them, is never a read),
 * `~/.psqlrc` and its version-named variants (unless `-X`), `~/.my.cnf`. A read stays a read only when each holds nothing but
 * what only sets how results print (`.mode box`, `\pset null ∅`, `\set PROMPT1 …`, `[client] user=…`): a
 * `.shell`, `\!`, a backquote or an `init-command` would run with the read. Undefined when it does; why not.
 */
export function clientStartupProblem(
  program: string,
  words: readonly string[],
  home: string,
): string | undefined {
  switch (program) {
    case 'sqlite3':
      return lines(join(home, '.sqliterc'), dotLine(sqliteCommandProblem));
    case 'duckdb':
      return lines(
        join(home, '.duckdbrc'),
        dotLine((text) => duckdbCommandProblem(text, false)),
      );
    case 'psql': {
      if (words.some((w) => w === '--no-psqlrc' || w === '-X')) return undefined;
      let names: string[];
      try {
        names = readdirSync(home).filter((name) => /^\.psqlrc(-[\d.]+)?$/.test(name));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        return `${home} cannot be read for psql's start-up files`;
      }
      for (const name of names) {
        const problem = lines(join(home, name), psqlLine);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'mysql':
      return lines(join(home, '.my.cnf'), cnfLine());
    default:
      return undefined;
  }
}

/** Each line of a file, bounded; missing is none. */
function lines(path: string, check: (line: string) => string | undefined): string | undefined {
  let fd: number | undefined;
  const buffer = Buffer.alloc(MAX_BYTES + 1);
  let size = 0;
  try {
    fd = openSync(path, 'r');
    size = readSync(fd, buffer, 0, buffer.length, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `${path} cannot be read`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  if (size > MAX_BYTES) return `${path} is larger than automode reads`;
  for (const line of buffer.subarray(0, size).toString('utf8').split('\n')) {
    const problem = check(line.trim());
    if (problem) return `${path} runs what automode does not read: ${problem}`;
  }
  return undefined;
}

function dotLine(problem: (text: string) => string | undefined) {
  return (line: string) => (line === '' || line.startsWith('--') ? undefined : problem(line));
}

/** psql: variables and print settings, with no backquote (a shell command) and no second backslash command. */
function psqlLine(line: string): string | undefined {
  if (line === '' || line.startsWith('--')) return undefined;
  const m = /^\\(set|unset|pset|timing|x)(?:\s+(.*))?$/.exec(line);
  if (!m || /[`\\]/.test(m[2] ?? '')) return line;
  return undefined;
}

/** `~/.my.cnf`: in the groups the client reads, only who to be and how to print; no `!include`. */
function cnfLine(): (line: string) => string | undefined {
  let group = '';
  const keys = new Set(
    'user password database default-character-set prompt auto-rehash no-auto-rehash safe-updates skip-column-names silent batch table vertical connect-timeout'.split(
      ' ',
    ),
  );
  return (line) => {
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return undefined;
    const header = /^\[([^\]]+)\]$/.exec(line);
    if (header) {
      group = header[1]!.trim().toLowerCase();
      return undefined;
    }
    if (line.startsWith('!')) return line;
    if (!/^(client|mysql)(-[\w.]+)?$/.test(group)) return undefined;
    const key = line.split('=')[0]!.trim().toLowerCase().replace(/_/g, '-');
    return keys.has(key) ? undefined : `${key} in [${group}]`;
  };
}
