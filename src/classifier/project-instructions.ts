import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';

/** The most bytes read of each CLAUDE.md; the prompt shows less (PROJECT_INSTRUCTIONS_LIMIT). */
const MAX_BYTES = 16 * 1024;

/** The project memory files Claude Code reads at the project root, as the classifier is shown them. */
const FILES = ['CLAUDE.md', path.join('.claude', 'CLAUDE.md')];

/** The first bytes of a regular file, or undefined (missing, not a regular file, unreadable). */
function head(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    if (!fstatSync(fd).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_BYTES);
    const n = readSync(fd, buffer, 0, MAX_BYTES, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The project's CLAUDE.md files at its root, joined; undefined when there are none. */
export function projectInstructions(projectRoot: string): string | undefined {
  const texts = FILES.flatMap((name) => {
    const text = head(path.join(projectRoot, name))?.trim();
    return text ? [`# ${name}\n${text}`] : [];
  });
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}
