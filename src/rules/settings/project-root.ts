import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

// Claude Code (documentation as of v2.1.240) reads `.claude/settings.json` from the folder the session started
// in, which it passes to hooks as CLAUDE_PROJECT_DIR, and `.claude/settings.local.json` from the root of the
// repository holding it (2.1.211). A call's `cwd` is only where the agent's shell stands after its `cd`s: it
// never chooses which settings apply.

/** The folders a session's settings are read from. */
export interface ProjectFolders {
  /** The session's project root: `.claude/settings.json`, and the working folder path rules start from. */
  projectRoot: string;
  /** The root of the repository holding the project root (the project root outside a repository): `.claude/settings.local.json`. */
  localRoot: string;
}

/** The folder through its links, or as written when it cannot be resolved (a folder that does not exist). */
function real(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return path.resolve(folder);
  }
}

/** The nearest folder at or above `folder` that holds `.git` (a folder, or the file of a worktree). */
export function repositoryRoot(folder: string): string | undefined {
  for (let dir = folder; ; ) {
    try {
      statSync(path.join(dir, '.git'));
      return dir;
    } catch {
      // no .git here, or unreadable: look further up
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The session's project root: `projectDir` (CLAUDE_PROJECT_DIR) when given, else the root of the repository
 * holding `cwd`, else `cwd`; each resolved through its links.
 */
export function projectFolders(cwd: string, projectDir?: string): ProjectFolders {
  const start = real(projectDir !== undefined && projectDir !== '' ? projectDir : cwd);
  const repository = repositoryRoot(start);
  const projectRoot = projectDir !== undefined && projectDir !== '' ? start : (repository ?? start);
  return { projectRoot, localRoot: repository ?? projectRoot };
}
