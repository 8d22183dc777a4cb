import type { FileEffect, NestedSpec, Word } from '../types.js';
import { option } from './effect-helpers.js';
import { codeIn } from './specs.js';

/**
 * Whether a file name a program opens is a stream rather than a file in the tree: `-`, anything under `/dev` or
 * `/proc` (`/dev/stdin`, `/dev/fd/3`, `/proc/self/fd/0`, `/proc/self/root/...`), or a word only known at run time
 * (`<(...)`, `$f`). What a program reads from there is whatever the command line feeds it, never a file a rule
 * could name.
 */
export function isStreamName(word: Word): boolean {
  if (!word.static) return true;
  if (word.value === '-') return true;
  const resolved: string[] = [];
  let climbs = false;
  for (const segment of word.value.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment !== '..') resolved.push(segment);
    else if (resolved.length) resolved.pop();
    else climbs = true;
  }
  // A relative name that climbs out of the folder may climb up to the root.
  if (!word.value.startsWith('/') && !climbs) return false;
  return resolved[0] === 'dev' || resolved[0] === 'proc';
}

/**
 * The code a program reads from a file named on its command line: `stdin` when the name is a stream (the code
 * is not in any file), else the script file.
 */
export function programFileCode(program: string, via: string, word: Word): NestedSpec {
  return codeIn(isStreamName(word) ? 'stdin' : 'script-file', program, via, word);
}

/** The read of a program file, when it is a file. */
export function programFileRead(word: Word): FileEffect[] {
  return isStreamName(word) ? [] : [option('read', word)];
}
