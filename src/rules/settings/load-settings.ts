import { homedir } from 'node:os';
import { builtinOptions } from './builtin.js';
import { type LoadOptions, loadSettingsFiles } from './load.js';
import type { LoadedSettings } from './types.js';

export interface SettingsOptions extends Partial<LoadOptions> {
  /** Include automode's shipped rules and built-in prose rules (default true). */
  shippedDefaults?: boolean;
}

/**
 * Loads the settings Claude Code would read for this folder and home, plus automode's shipped rules.
 * Failures are data: they are listed in `failed`, and a classifier built on them never allows.
 */
export function loadSettings(options: SettingsOptions = {}): Promise<LoadedSettings> {
  const { shippedDefaults = true, ...rest } = options;
  const shipped = builtinOptions();
  return loadSettingsFiles({
    ...(shippedDefaults ? shipped : { defaults: shipped.defaults }),
    ...rest,
    cwd: rest.cwd ?? process.cwd(),
    home: rest.home ?? process.env.HOME ?? homedir(),
  });
}
