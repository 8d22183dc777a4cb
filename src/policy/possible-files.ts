import type { SimpleCommand, Word } from '../bash/index.js';
import { syntheticWord } from '../bash/index.js';

/** A piece of an argument that reads as a path: it has a slash, or starts with `.` or `~`. */
const PATH_LIKE = /^(?:[.~]|[^:]*\/)/;

/**
 * Words a program whose file effects are not modelled may open: each static argument, and each piece of one
 * split at `=` and `:` (`--key=~/.ssh/id_rsa`, `-v ~/.ssh:/root/.ssh`), that reads as a path. URLs are left out.
 */
export function possibleFiles(cmd: SimpleCommand): Word[] {
  const out: Word[] = [];
  for (let i = 1; i < cmd.argv.length; i++) {
    const word = cmd.argv[i]!;
    if (!word.static || word.value.includes('://')) continue;
    for (const piece of word.value.split(/[=:]/)) {
      if (!PATH_LIKE.test(piece)) continue;
      // The piece keeps the word's spelling when it is the whole word, so that `~` in it stays the home folder
      // only where bash expands it.
      out.push(piece === word.value ? word : syntheticWord(piece, word.span));
    }
  }
  return out;
}
