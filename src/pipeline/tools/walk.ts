import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Stops a walk of a huge tree. */
export const MAX_WALK_ENTRIES = 100_000;

const SKIP = new Set(['.git', 'node_modules']);

/**
 * Every file below `root` (relative paths with `/`), breadth first, skipping `.git` and (unless `includeModules`)
 * `node_modules`, and unreadable folders. Symbolic links are not followed.
 */
export async function walkFiles(
  root: string,
  options: { includeModules?: boolean; signal?: AbortSignal } = {},
): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  const queue = [''];
  let seen = 0;
  while (queue.length > 0) {
    if (options.signal?.aborted) break;
    const rel = queue.shift()!;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (++seen > MAX_WALK_ENTRIES) return { files, truncated: true };
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (e.name === '.git' || (SKIP.has(e.name) && !options.includeModules)) continue;
        queue.push(child);
      } else if (e.isFile()) {
        files.push(child);
      }
    }
  }
  return { files, truncated: false };
}
