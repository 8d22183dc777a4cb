import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/rules/', import.meta.url));

export function fixture(name: string): Promise<string> {
  return readFile(path.join(FIXTURES, name), 'utf8');
}

export async function tempDir(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'automode-rules-'));
}

/** Writes each file (relative to root), creating folders; values are file contents. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** A home folder, a project folder and a managed settings path, all empty, in a fresh temp folder. */
export async function sandbox(): Promise<{ root: string; home: string; cwd: string; managed: string }> {
  const root = await tempDir();
  const home = path.join(root, 'home');
  const cwd = path.join(root, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  return { root, home, cwd, managed: path.join(root, 'etc', 'managed-settings.json') };
}
