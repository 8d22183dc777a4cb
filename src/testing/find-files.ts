import { type Dirent, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';

/** Folders never searched: dependencies and git's own. */
const SKIPPED = new Set(['node_modules', '.git']);

/** Every file below `root` (skipping node_modules and .git) for which `keep` is true, in path order. */
export async function walkFiles(root: string, keep: (relative: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const visit = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED.has(entry.name)) await visit(full);
      } else if (entry.isFile() && keep(toPosix(path.relative(root, full)))) {
        found.push(full);
      }
    }
  };
  await visit(root);
  return found.sort();
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/**
 * The files that paths and globs name, relative to `cwd`: a file as it is, a folder searched with
 * `folderGlob`, a glob matched below its fixed prefix. `unmatched` lists the patterns that found nothing.
 */
export async function findFiles(
  patterns: readonly string[],
  cwd: string,
  folderGlob: string,
): Promise<{ files: string[]; unmatched: string[] }> {
  const files = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const found = await expand(pattern, cwd, folderGlob);
    if (found.length === 0) unmatched.push(pattern);
    for (const f of found) files.add(f);
  }
  return { files: [...files].sort(), unmatched };
}

async function expand(pattern: string, cwd: string, folderGlob: string): Promise<string[]> {
  const plain = path.resolve(cwd, pattern);
  const kind = statKind(plain);
  if (kind === 'file') return [plain];
  if (kind === 'folder') {
    const isMatch = picomatch(folderGlob);
    return walkFiles(plain, (relative) => isMatch(relative));
  }
  const { base, isGlob } = picomatch.scan(pattern);
  if (!isGlob) return [];
  const root = path.resolve(cwd, base || '.');
  const isMatch = picomatch(toPosix(pattern.replace(/^\.\//, '')));
  const absolute = path.isAbsolute(pattern);
  return walkFiles(root, (relative) => {
    const full = path.join(root, relative);
    return isMatch(absolute ? toPosix(full) : toPosix(path.relative(cwd, full)));
  });
}

export function statKind(file: string): 'file' | 'folder' | undefined {
  try {
    const stat = statSync(file);
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}
