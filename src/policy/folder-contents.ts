import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PathEntry } from './path-index.js';

/** Entries looked at below a folder before it is given up as too large to check. */
export const MAX_FOLDER_ENTRIES = 10_000;

export type FolderCheck =
  | { kind: 'match'; entry: PathEntry; path: string }
  | { kind: 'too-many' }
  | { kind: 'clear' };

/**
 * Whether anything that exists below the folder matches one of the rules: what reading the whole folder
 * (`grep -r`, the Grep tool) would reach. Links below the folder are not followed, as `grep -r` and `rg` do
 * not follow them; `skipHidden` leaves out dot entries, as `rg` does without `--hidden`. Among several matching
 * rules the first in rule order is reported.
 */
export function findInFolder(
  folder: string,
  rules: readonly PathEntry[],
  options: { max?: number; skipHidden?: boolean } = {},
): FolderCheck {
  const max = options.max ?? MAX_FOLDER_ENTRIES;
  const queue = [folder];
  let seen = 0;
  let best: { entry: PathEntry; path: string } | undefined;
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    seen += entries.length;
    if (seen > max) return best ? { kind: 'match', ...best } : { kind: 'too-many' };
    for (const e of entries) {
      if (options.skipHidden && e.name.startsWith('.')) continue;
      const path = join(dir, e.name);
      for (const entry of rules) {
        if (best && entry.order >= best.entry.order) break;
        if (entry.compiled.test(path)) best = { entry, path };
      }
      if (e.isDirectory()) queue.push(path);
    }
    if (best?.entry === rules[0]) break;
  }
  return best ? { kind: 'match', ...best } : { kind: 'clear' };
}
