import { quote } from 'shell-quote';
import type { SimpleCommand, Word } from './types.js';

/** Words bash reads back unchanged when written bare: no quoting, globbing, expansion or word splitting. */
const BARE = /^[\w@%+=:,./-][\w@%+=:,./~-]*$/;
/** In command position tree-sitter-bash misreads some of them (`a@`), so fewer stay bare there. */
const BARE_COMMAND = /^[\w+./-]+$/;
const RESERVED = new Set(
  'if then else elif fi case esac for select while until do done in function time coproc { } ! [[ ]]'.split(
    ' ',
  ),
);

/**
 * One argument as a shell line would write it: bare when bash reads it back unchanged; otherwise in single
 * quotes, or, when it holds a single quote, quoted by shell-quote. (shell-quote would backslash-escape a word
 * without blanks or quotes, `x:\~`, which tree-sitter-bash misreads after an assignment.) In command position a
 * reserved word is quoted, and so is a word bash would read as an assignment.
 */
export function shellWord(value: string, commandPosition = false): string {
  const bare = commandPosition
    ? BARE_COMMAND.test(value) && !RESERVED.has(value)
    : BARE.test(value) && !/[=:]~/.test(value);
  if (bare) return value;
  return value.includes("'") ? quote([value]) : `'${value}'`;
}

/** A word as written back: its value quoted when known, its source text when only known at run time. */
export function wordText(word: Word, commandPosition = false): string {
  return word.static ? shellWord(word.value, commandPosition) : word.text;
}

/** A simple command written back as a line bash parses to the same assignments and argv. */
export function commandLine(cmd: Pick<SimpleCommand, 'assignments' | 'argv'>): string {
  const env = cmd.assignments.map(
    (a) =>
      `${a.name}${a.append ? '+=' : '='}${a.array ? a.value.text : a.value.static ? shellWord(a.value.value) : a.value.text}`,
  );
  return [...env, ...cmd.argv.map((w, i) => wordText(w, i === 0))].join(' ');
}
