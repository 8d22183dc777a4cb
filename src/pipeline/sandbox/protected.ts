import { type Dirent, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PROTECTED_NAMES } from '../../policy/index.js';

/** How deep below a project folder nested configuration is looked for, and how many folders at most. */
const SEARCH_DEPTH = 3;
const MAX_FOLDERS = 20_000;

/** What of the home folder configures the agent: its settings, state, commands, agents, skills and hooks. */
const HOME_AGENT_FILES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/commands',
  '.claude/agents',
  '.claude/skills',
  '.claude/hooks',
  '.claude/plugins',
  '.claude.json',
];

const DIRS = new Set(PROTECTED_NAMES.dirs.map((n) => n.toLowerCase()));
const FILES = new Set(PROTECTED_NAMES.files.map((n) => n.toLowerCase()));
const PAIRS = new Set(PROTECTED_NAMES.nested.map((n) => n.toLowerCase()));

/** A folder, not a link to one; what cannot be looked at is not (its `.git` is then denied whole). */
function isFolder(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * A `.git` as the sandbox must leave it: its config and hooks never writable (git runs what they name on the
 * host: `core.fsmonitor`, hooks), the rest writable so that commits work. A `.git` file (a worktree's pointer)
 * and a missing `.git` are denied whole: a repository created inside the sandbox could name programs too.
 */
function gitEntries(dotGit: string, folder: boolean): string[] {
  return folder ? [path.join(dotGit, 'config'), path.join(dotGit, 'hooks')] : [dotGit];
}

/** The protected names at the top of a folder, present or not. */
function topLevel(folder: string): string[] {
  const out: string[] = [];
  for (const name of PROTECTED_NAMES.dirs) {
    const p = path.join(folder, name);
    out.push(...(name === '.git' ? gitEntries(p, isFolder(p)) : [p]));
  }
  for (const name of [...PROTECTED_NAMES.files, ...PROTECTED_NAMES.nested]) out.push(path.join(folder, name));
  return out;
}

/**
 * The protected names found below a folder (not at its top), down to SEARCH_DEPTH, without following links
 * and leaving out `node_modules`: nested repositories' config and hooks, a subfolder's `.claude`, rc files.
 */
function nested(folder: string): string[] {
  const out: string[] = [];
  let visited = 0;
  const walk = (dir: string, depth: number) => {
    if (visited++ > MAX_FOLDERS) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const name = e.name.toLowerCase();
      const p = path.join(dir, e.name);
      if (depth > 0) {
        if (name === '.git') out.push(...gitEntries(p, e.isDirectory()));
        else if (DIRS.has(name) || FILES.has(name)) out.push(p);
        else if (PAIRS.has(`${path.basename(dir).toLowerCase()}/${name}`)) out.push(p);
      }
      if (e.isDirectory() && name !== 'node_modules' && !DIRS.has(name) && depth < SEARCH_DEPTH)
        walk(p, depth + 1);
    }
  };
  walk(folder, 0);
  return out;
}

export interface ProtectedInput {
  /** The project folder and every added working folder. */
  folders: readonly string[];
  home: string;
  /** Every settings file of every source, whether it exists or not. */
  settingsFiles: readonly string[];
}

/**
 * What no sandboxed command may write, whatever the configuration allows: every settings file, the agent's
 * configuration in each project folder (`.claude/`, `.mcp.json`, `.git/config` and hooks, `.gitmodules`, shell
 * rc files: everything automode's protected-path check guards) and below it, and the agent's files in the home
 * folder. The runtime protects some of these too, but relative to the process's folder, not the project.
 */
export function protectedWrites(input: ProtectedInput, scan = true): string[] {
  const out = new Set<string>(input.settingsFiles);
  for (const folder of input.folders) {
    for (const p of topLevel(folder)) out.add(p);
    if (scan) for (const p of nested(folder)) out.add(p);
  }
  for (const rel of HOME_AGENT_FILES) out.add(path.join(input.home, rel));
  for (const p of topLevel(input.home)) out.add(p);
  return [...out];
}
