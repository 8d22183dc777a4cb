import { execFile } from 'node:child_process';

/** Runs git; undefined when it fails or is not installed. */
function git(args: string[], cwd: string): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (err, stdout) =>
      resolve(err ? undefined : stdout),
    );
  });
}

/** The top folder of the work tree `cwd` is in. */
export async function gitTop(cwd: string): Promise<string | undefined> {
  const out = await git(['rev-parse', '--show-toplevel'], cwd);
  return out?.toString('utf8').trim() || undefined;
}

/** Whether `rev` names a commit (a branch, tag, `origin/main`, `HEAD~1`, a hash). */
export async function isRevision(rev: string, cwd: string): Promise<boolean> {
  if (rev.startsWith('-')) return false;
  return (
    (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`], cwd)) !==
    undefined
  );
}

/** The files below `folder` (relative to the top, '' for all) at `rev`, relative to the top. */
export async function listFiles(rev: string, top: string, folder: string): Promise<string[]> {
  const args = ['ls-tree', '-r', '--name-only', '-z', '--full-tree', rev];
  const out = await git(folder ? [...args, '--', folder] : args, top);
  return out === undefined ? [] : out.toString('utf8').split('\0').filter(Boolean);
}

/** A file's content at `rev` (path relative to the top), or undefined when it is not there. */
export function showFile(rev: string, top: string, file: string): Promise<Buffer | undefined> {
  return git(['show', `${rev}:${file}`], top);
}
