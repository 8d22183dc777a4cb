import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedSettings } from '../../rules/index.js';
import { isObject, makeDirectories } from '../../shared/index.js';

export interface SettingsTarget {
  label: string;
  file: string;
}

const TARGETS = [
  ['localSettings', 'this project, only for me'],
  ['projectSettings', 'this project, for everyone'],
  ['userSettings', 'all my projects'],
] as const;

/** Where "always allow" can save a rule: the local, project and user settings files. */
export function settingsTargets(settings: LoadedSettings): SettingsTarget[] {
  return TARGETS.flatMap(([source, label]) => {
    const file = settings.files.find((f) => f.source === source)?.path;
    return file ? [{ label, file }] : [];
  });
}

/**
 * Adds allow rules to a settings file, keeping everything else in it: read, modify, write to a temporary file
 * beside it, rename. A file that is not a JSON object is left alone and the error says why.
 */
export async function saveAllowRules(file: string, rules: readonly string[]): Promise<void> {
  let settings: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!isObject(parsed)) throw new Error(`${file} does not hold a JSON object`);
    settings = parsed;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const permissions = settings.permissions ?? {};
  if (!isObject(permissions)) throw new Error(`${file}: "permissions" is not an object`);
  const allow = permissions.allow ?? [];
  if (!Array.isArray(allow)) throw new Error(`${file}: "permissions.allow" is not a list`);
  const added = [...new Set(rules)].filter((r) => !allow.includes(r));
  settings.permissions = { ...permissions, allow: [...allow, ...added] };
  makeDirectories(path.dirname(file));
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(settings, null, 2)}\n`);
    await rename(temp, file);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}
