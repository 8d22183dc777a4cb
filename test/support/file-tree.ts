import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real folder tree of empty files in a new temp folder (its real path), for generated file lists: a name
 * already taken by a folder, or the other way round, is simply left out. The caller removes `root`.
 */
export function makeFileTree(prefix: string, files: readonly string[]): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  for (const f of files) {
    try {
      mkdirSync(join(root, f, '..'), { recursive: true });
      writeFileSync(join(root, f), '');
    } catch {
      // A name already taken by a folder (or the other way round): the tree simply lacks it.
    }
  }
  return root;
}
