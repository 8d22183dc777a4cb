import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadedSettings } from '../rules/index.js';
import { loadSettings } from '../rules/index.js';
import { makeDirectories } from '../shared/index.js';

/**
 * The project and home folder the calls of an evaluation are made in. They are fixed paths that need not
 * exist, so that a run gives the same decisions (and sends the same model requests) on every machine.
 */
export const EVAL_HOME = '/home/dev';
export const EVAL_PROJECT = '/home/dev/project';

export interface EvalSettingsOptions {
  /** Settings files or inline JSON, like `--settings`. */
  settingsFiles?: string[];
  ruleFiles?: string[];
  allow?: string[];
  ask?: string[];
  deny?: string[];
  /** automode's shipped rules and built-in prose rules (default true). */
  shippedDefaults?: boolean;
  project?: string;
  home?: string;
}

/**
 * The configuration under test, and nothing else: no user, project or managed settings are discovered, so the
 * machine the evaluation runs on cannot change its outcome. Relative files resolve against `base`.
 */
export function loadEvalSettings(
  options: EvalSettingsOptions,
  base = process.cwd(),
): Promise<LoadedSettings> {
  const project = options.project ?? EVAL_PROJECT;
  const home = options.home ?? EVAL_HOME;
  const absolute = (f: string) => (f.trim().startsWith('{') ? f : path.resolve(base, f));
  return loadSettings({
    cwd: project,
    home,
    managedPath: path.join(home, '.automode-eval-no-managed-settings.json'),
    env: {},
    settingsFiles: (options.settingsFiles ?? []).map(absolute),
    ruleFiles: (options.ruleFiles ?? []).map(absolute),
    cli: { allow: options.allow ?? [], ask: options.ask ?? [], deny: options.deny ?? [] },
    shippedDefaults: options.shippedDefaults !== false,
  });
}

export interface Workspace {
  root: string;
  project: string;
  home: string;
  remove(): Promise<void>;
}

/** A temporary project and home folder for `--execute`, where allowed calls really run. */
export async function createWorkspace(): Promise<Workspace> {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'automode-eval-workspace-')));
  const project = path.join(root, 'home', 'project');
  const home = path.join(root, 'home');
  for (const folder of ['src', 'test', 'docs', 'scripts']) makeDirectories(path.join(project, folder));
  return { root, project, home, remove: () => rm(root, { recursive: true, force: true }) };
}

/** An input with the evaluation's fixed project and home paths moved into a workspace. */
export function moveInto<T>(value: T, workspace: { project: string; home: string }): T {
  const text = JSON.stringify(value)
    .split(EVAL_PROJECT)
    .join(workspace.project)
    .split(EVAL_HOME)
    .join(workspace.home);
  return JSON.parse(text) as T;
}
