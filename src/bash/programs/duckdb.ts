import type { CommandView, EffectsResult, FileEffect, NestedSpec, Word } from '../types.js';
import { argument, NONE, UNKNOWN } from './effect-helpers.js';
import type { ProgramModule } from './module.js';
import { dashWords, has, type Parsed, parseOptions } from './options.js';
import { type ProgramSpec, readOnly } from './program.js';
import { codeIn, codeSpec } from './specs.js';
import { DUCKDB, sqlProblem, tokenize } from './sql/index.js';

/**
 * The DuckDB shell's options, from its manual ("Command Line Arguments", 1.4/1.5): whole words after one dash or
 * two, as in the SQLite shell it descends from. DuckDB does not run where the oracles run: this module is read
 * from the manual, and what a connection writes from the storage manual (a database opened for writing is
 * created when missing and gets a `.wal` beside it; one opened `-readonly` must exist and is only read).
 */
const FLAGS =
  'append ascii bail batch box column csv echo header help html interactive json line list markdown nofollow ' +
  'noheader no-stdin quote readonly table unsigned version';
const VALUES = 'c cmd s f init newline nullvalue separator storage-version';

const DUCKDB_GRAMMAR = dashWords(FLAGS, VALUES);

const READ_ONLY_OPTIONS = [
  ...'ascii bail batch box column csv echo header help html json line list markdown nofollow noheader no-stdin quote readonly table version'.split(
    ' ',
  ),
  'c',
  'newline',
  'nullvalue',
  'separator',
].map((name) => `-${name}`);

/** Dot-commands that list the catalog or set how results print. */
const DOT =
  /^\.(?:tables|schema(?: [\w%]+)?|databases|mode [a-z]+|headers? (?:on|off)|nullvalue \S+|timer (?:on|off))$/;

/**
 * With a database file, its catalog may hold views and macros whose queries read any file or URL and which a
 * name in the statement would run: only the listings of the catalog are read (`.tables`, `SHOW TABLES`).
 */
const CATALOG_LISTING = /^show\s+(?:all\s+)?tables$|^show\s+databases$/i;

/** Why one command (`-c`, the operand after the database) may do more than read. */
export function duckdbCommandProblem(text: string, file: boolean): string | undefined {
  const trimmed = text.trim().replace(/;$/, '').trim();
  if (trimmed.startsWith('.'))
    return DOT.test(trimmed) ? undefined : `${trimmed.split(' ')[0]} is not a listing dot-command`;
  if (!file) return sqlProblem(text, DUCKDB);
  if (!tokenize(trimmed) || !CATALOG_LISTING.test(trimmed.replace(/\s+/g, ' ')))
    return 'a statement on a database file may run its views and macros';
  return undefined;
}

function commands(parsed: Parsed, words: readonly Word[]): Word[] {
  return [
    ...parsed.options.flatMap((o) => (o.name === '-c' || o.name === '-s' ? [o.value!] : [])),
    ...parsed.operands.slice(1).map((i) => words[i]!),
  ];
}

function database(parsed: Parsed, words: readonly Word[]): Word | undefined {
  const word = parsed.operands[0] === undefined ? undefined : words[parsed.operands[0]];
  return word && word.value !== ':memory:' ? word : undefined;
}

function readProblem(parsed: Parsed, words: readonly Word[]): string | undefined {
  if (has(parsed, '-version', '-help')) return undefined;
  const db = database(parsed, words);
  if (db && (!db.static || db.value.includes(':')))
    return 'duckdb opens a database only known at run time or another way';
  const run = commands(parsed, words);
  if (run.length === 0) return 'duckdb without a command reads its commands from stdin';
  for (const word of run) {
    if (!word.static) return 'duckdb runs a command only known at run time';
    const problem = duckdbCommandProblem(word.value, db !== undefined);
    if (problem) return `duckdb: ${problem}`;
  }
  return undefined;
}

const spec: ProgramSpec = {
  name: 'duckdb',
  grammar: DUCKDB_GRAMMAR,
  readOnly: readOnly(READ_ONLY_OPTIONS.join(' '), 'inert', {
    check: readProblem,
    why: {
      '-cmd': 'runs a command before reading stdin',
      '-f': 'runs the commands of a file',
      '-init': 'runs the commands of a file',
      '-append': 'opens the database appended to another file',
      '-interactive': 'reads commands from the terminal',
    },
  }),
};

function parse(cmd: CommandView): Parsed | undefined {
  const parsed = parseOptions(cmd.argv, 1, DUCKDB_GRAMMAR, {
    permute: true,
    unknown: 'fail',
    dynamic: 'fail',
  });
  return parsed.ok ? parsed : undefined;
}

/**
 * The database file is read; opened for writing (no `-readonly`), it is written (created when missing, the
 * `.wal` beside it replayed into it) and its `.wal` created. Commands off the allow-list may touch any file.
 */
function duckdbEffects(cmd: CommandView): EffectsResult {
  const parsed = parse(cmd);
  if (!parsed?.options.every((o) => READ_ONLY_OPTIONS.includes(o.name))) return UNKNOWN;
  if (has(parsed, '-version', '-help')) return NONE;
  if (readProblem(parsed, cmd.argv)) return UNKNOWN;
  const db = database(parsed, cmd.argv);
  if (!db) return NONE;
  const effects: FileEffect[] = [argument('read', db)];
  if (!has(parsed, '-readonly')) {
    const wal = { ...db, text: `${db.text}.wal`, value: `${db.value}.wal` };
    effects.push(argument('write', db), argument('create', wal));
  }
  return { effects, known: true };
}

/** Commands from stdin (none given), `-f`/`-init` files, `-cmd` and dot-commands off the list. */
function duckdbNested(cmd: CommandView): NestedSpec[] {
  const parsed = parse(cmd);
  if (!parsed) return [codeSpec('program-option', 'duckdb', 'duckdb', cmd.argv[0]!)];
  if (has(parsed, '-version', '-help')) return [];
  const out: NestedSpec[] = [];
  for (const o of parsed.options) {
    if (!o.value) continue;
    if (o.name === '-f' || o.name === '-init') out.push(codeIn('script-file', 'duckdb', o.name, o.value));
    if (o.name === '-cmd') out.push(codeIn('program-option', 'duckdb', '-cmd', o.value));
  }
  const run = commands(parsed, cmd.argv);
  if (run.length === 0 && !has(parsed, '-f', '-no-stdin'))
    out.push(codeSpec('stdin', 'duckdb', 'stdin', cmd.argv[0]!));
  for (const word of run) {
    if (!word.static || (word.value.trim().startsWith('.') && duckdbCommandProblem(word.value, false)))
      out.push(codeIn('program-option', 'duckdb', 'dot-command', word));
  }
  return out;
}

/**
 * DuckDB's shell: `duckdb -c 'SELECT 42'`, `duckdb -readonly app.duckdb .tables`. It runs the user's own
 * `~/.duckdbrc` first (unless `-init`), a file outside the project.
 */
export const DUCKDB_MODULE: ProgramModule = {
  names: ['duckdb'],
  spec,
  effects: duckdbEffects,
  nested: duckdbNested,
};
