import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CritiqueOptions, critique } from '../../src/critique/critique.js';
import type { CritiqueReport } from '../../src/critique/types.js';

export const FIXTURES = fileURLToPath(new URL('../../fixtures/critique/', import.meta.url));

export function fixturePath(name: string): string {
  return path.join(FIXTURES, name);
}

/** An empty home and project folder, so that no real settings take part. */
export interface Box {
  root: string;
  home: string;
  cwd: string;
}

export async function makeBox(): Promise<Box> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'automode-critique-')));
  return { root, home: path.join(root, 'home'), cwd: path.join(root, 'proj') };
}

export async function removeBox(box: Box): Promise<void> {
  await rm(box.root, { recursive: true, force: true });
}

export function critiqueFiles(
  box: Box,
  files: string[],
  options: Partial<CritiqueOptions> = {},
): Promise<CritiqueReport> {
  return critique({
    cwd: box.cwd,
    home: box.home,
    env: {},
    managedPath: path.join(box.root, 'managed-settings.json'),
    files: files.map((f) => (path.isAbsolute(f) ? f : fixturePath(f))),
    ...options,
  });
}
