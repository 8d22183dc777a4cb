import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/automode.js', import.meta.url));
export const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** A real temp folder (symlinks resolved), removed with `remove`. */
export async function tempFolder(prefix = 'automode-testing-'): Promise<string> {
  return realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function remove(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}

/** Writes files below `root`; objects are written as JSON. */
export async function writeTree(root: string, files: Record<string, string | object>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
}

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

/** Runs the built CLI in `cwd` with a HOME that does not exist and no managed settings. */
export function cli(args: string[], cwd: string, env: Record<string, string> = {}): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: '/nonexistent/automode-test-home',
      AUTOMODE_MANAGED_SETTINGS: path.join(cwd, '.no-managed', 'managed-settings.json'),
      ...env,
    },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'automode test',
  GIT_AUTHOR_EMAIL: 'test@automode.invalid',
  GIT_COMMITTER_NAME: 'automode test',
  GIT_COMMITTER_EMAIL: 'test@automode.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs git in `cwd` with a fixed identity and no user or system configuration. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

/** Makes `cwd` a repository on branch main with everything in it committed. */
export function gitInit(cwd: string): void {
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'base');
}
