import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import type { LoadedSettings } from '../rules/index.js';
import { loadSettings } from '../rules/index.js';
import { statKind, walkFiles } from './find-files.js';

/** Pattern rule files a rule repository holds, at any depth. */
export const RULE_FILE_GLOB = '**/*.automode-rules.{yaml,yml,json}';

/** Where user and system settings are looked for, so that tests never depend on the machine they run on. */
const NOWHERE = '/nonexistent/automode-test';

/**
 * What a test suite or one side of a diff decides with: a project folder, read as Claude Code reads it
 * (`.claude/settings.json`, `.claude/settings.local.json`), plus named settings and pattern rule files.
 * A rule repository folder also brings its `managed-settings.json` (and `managed-settings.d/`) and every
 * `*.automode-rules.{yaml,yml,json}` below it. User settings and the machine's managed settings are never read.
 */
export interface Configuration {
  project: string;
  settingsFiles: string[];
  ruleFiles: string[];
  managedPath: string;
  /** The rule repository folder named, if any. */
  folder?: string;
  /** false: the project's own `.claude` settings are not read, only the files named (default true). */
  projectSettings?: boolean;
}

export type FileKind = 'settings' | 'rules';

/**
 * The configuration that paths name (settings files, pattern rule files, at most one rule repository folder),
 * relative to `base`. Without a folder the project is `project`, else `base`.
 */
export async function configurationOf(
  entries: readonly string[],
  base: string,
  project?: string,
): Promise<{ config: Configuration } | { errors: string[] }> {
  const errors: string[] = [];
  const settingsFiles: string[] = [];
  const ruleFiles: string[] = [];
  let folder: string | undefined;
  for (const entry of entries) {
    const full = path.resolve(base, entry);
    const kind = statKind(full);
    if (kind === undefined) {
      errors.push(`${full}: not found`);
    } else if (kind === 'folder') {
      if (folder !== undefined) errors.push(`${full}: only one rule repository folder per configuration`);
      folder = full;
    } else if ((await fileKind(full)) === 'rules') {
      ruleFiles.push(full);
    } else {
      settingsFiles.push(full);
    }
  }
  if (errors.length > 0) return { errors };
  if (folder !== undefined) ruleFiles.unshift(...(await repositoryRuleFiles(folder)));
  return {
    config: {
      project: folder ?? project ?? base,
      settingsFiles,
      ruleFiles,
      managedPath: folder === undefined ? `${NOWHERE}/managed-settings.json` : managedPathOf(folder),
      ...(folder === undefined ? {} : { folder }),
    },
  };
}

export function managedPathOf(folder: string): string {
  return path.join(folder, 'managed-settings.json');
}

export async function repositoryRuleFiles(folder: string): Promise<string[]> {
  const isRuleFile = picomatch(RULE_FILE_GLOB);
  return walkFiles(folder, (relative) => isRuleFile(relative));
}

/** YAML and `*.automode-rules.json` are pattern rule files; so is JSON with `rules` and no `permissions`. */
export async function fileKind(file: string): Promise<FileKind> {
  if (/\.ya?ml$/i.test(file) || /\.automode-rules\.json$/i.test(file)) return 'rules';
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as unknown;
    if (typeof value === 'object' && value !== null && 'rules' in value && !('permissions' in value)) {
      return 'rules';
    }
  } catch {
    // The loader reports what is wrong with the file, with its position.
  }
  return 'settings';
}

/** Loads a configuration with the shipped rules unless `defaults` is false. */
export function loadConfiguration(config: Configuration, defaults = true): Promise<LoadedSettings> {
  return loadSettings({
    cwd: config.project,
    home: process.env.HOME ?? homedir(),
    settingsFiles: config.settingsFiles,
    ruleFiles: config.ruleFiles,
    managedPath: config.managedPath,
    env: { CLAUDE_CONFIG_DIR: `${NOWHERE}/user` },
    shippedDefaults: defaults,
    ...(config.projectSettings === false ? { projectSettings: false } : {}),
  });
}

/** The files a loaded configuration read, for reports. */
export function filesRead(settings: LoadedSettings): string[] {
  return settings.files.filter((f) => f.exists && f.source !== 'defaults').map((f) => f.path);
}
