import path from 'node:path';
import type { Diagnostic, SourceName } from '../types.js';
import type { ProjectFolders } from './project-root.js';
import { type FileStamp, listStamped } from './stamp.js';

export const DEFAULT_MANAGED_PATH =
  process.platform === 'darwin'
    ? '/Library/Application Support/ClaudeCode/managed-settings.json'
    : '/etc/claude-code/managed-settings.json';

export interface SettingsLocation {
  source: SourceName;
  /** The file, or `--settings` for inline JSON given on the command line. */
  path: string;
  /** The folder `/x` path rules are relative to. */
  root: string;
  /** JSON text given inline instead of a file. */
  inline?: string;
}

export interface LocateOptions {
  cwd: string;
  home: string;
  /** Where the project's and the local settings are (default: both `cwd`). */
  project?: ProjectFolders;
  settingsFiles?: string[];
  managedPath?: string;
  env?: NodeJS.ProcessEnv;
  /** false: the project's `.claude/settings.json` and `.claude/settings.local.json` are not read (default true). */
  projectSettings?: boolean;
  /** Receives the stamp of the managed drop-in folder as it was listed. */
  stamps?: FileStamp[];
}

/** Every settings file to read, lowest precedence first: user, project, local, flag (in order), managed. */
export async function locateSettings(
  options: LocateOptions,
): Promise<{ locations: SettingsLocation[]; diagnostics: Diagnostic[] }> {
  const { cwd, home } = options;
  const env = options.env ?? process.env;
  const userFolder = env.CLAUDE_CONFIG_DIR ?? path.join(home, '.claude');
  const user = path.join(userFolder, 'settings.json');
  const { projectRoot, localRoot } = options.project ?? { projectRoot: cwd, localRoot: cwd };
  const project = path.join(projectRoot, '.claude', 'settings.json');
  const locations: SettingsLocation[] = [{ source: 'userSettings', path: user, root: userFolder }];
  if (options.projectSettings !== false) {
    if (path.resolve(project) !== path.resolve(user)) {
      locations.push({ source: 'projectSettings', path: project, root: projectRoot });
    }
    locations.push({
      source: 'localSettings',
      path: path.join(localRoot, '.claude', 'settings.local.json'),
      root: localRoot,
    });
  }
  for (const flag of options.settingsFiles ?? []) {
    if (flag.trim().startsWith('{')) {
      locations.push({ source: 'flagSettings', path: '--settings', root: cwd, inline: flag });
    } else {
      const file = path.resolve(cwd, flag);
      locations.push({ source: 'flagSettings', path: file, root: path.dirname(file) });
    }
  }
  const managed = path.resolve(
    cwd,
    options.managedPath ?? env.AUTOMODE_MANAGED_SETTINGS ?? DEFAULT_MANAGED_PATH,
  );
  locations.push({ source: 'policySettings', path: managed, root: cwd });
  const dropIns = await listDropIns(`${managed.replace(/\.json$/i, '')}.d`, options.stamps);
  for (const file of dropIns.files) locations.push({ source: 'policySettings', path: file, root: cwd });
  return { locations, diagnostics: dropIns.diagnostics };
}

/** `*.json` files of a managed-settings `.d` folder in name order, dot files left out. */
async function listDropIns(
  folder: string,
  stamps?: FileStamp[],
): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  try {
    const names = await listStamped(folder, stamps);
    const files = names
      .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
      .sort()
      .map((name) => path.join(folder, name));
    return { files, diagnostics: [] };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { files: [], diagnostics: [] };
    const message = `cannot list managed settings folder: ${(err as Error).message}`;
    return {
      files: [],
      diagnostics: [
        { severity: 'error', code: 'read-failed', message, file: folder, source: 'policySettings' },
      ],
    };
  }
}
