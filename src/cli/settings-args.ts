import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { LoadedSettings } from '../rules/index.js';
import { formatDiagnostic, loadSettings } from '../rules/index.js';
import { MODES } from '../shared/index.js';
import { type OptionSpecs, SETTINGS_OPTIONS } from './option-specs.js';
import type { Io } from './output.js';

/** Adds the options of a table to a yargs builder, in the table's order. */
export function withOptions<T>(y: Argv<T>, specs: OptionSpecs, group?: string): Argv<T> {
  let out = y;
  for (const [name, spec] of Object.entries(specs)) {
    out = out.option(name, {
      type: spec.type,
      describe: spec.describe,
      ...(spec.multiple ? { array: true, nargs: 1 } : {}),
      ...(spec.default !== undefined ? { default: spec.default } : {}),
    });
  }
  return group ? out.group(Object.keys(specs), group) : out;
}

/** Options every command that reads settings shares. */
export function withSettingsOptions<T>(y: Argv<T>): Argv<T> {
  return withOptions(y, SETTINGS_OPTIONS, 'Settings:');
}

export function modeOption<T>(y: Argv<T>) {
  return y.option('mode', {
    choices: MODES,
    describe: 'Permission mode (default: defaultMode from settings)',
  });
}

export interface SettingsArgs {
  settings?: string[];
  rules?: string[];
  allow?: string[];
  ask?: string[];
  deny?: string[];
  cwd?: string;
  defaults?: boolean;
}

/** Loads settings from every source as Claude Code discovers them, plus the CLI's own. */
export async function loadFromArgs(args: SettingsArgs): Promise<LoadedSettings> {
  return loadSettings({
    cwd: resolve(args.cwd ?? process.cwd()),
    home: process.env.HOME ?? homedir(),
    ...(args.settings ? { settingsFiles: args.settings } : {}),
    ...(args.rules ? { ruleFiles: args.rules } : {}),
    cli: { allow: args.allow ?? [], ask: args.ask ?? [], deny: args.deny ?? [] },
    shippedDefaults: args.defaults !== false,
  });
}

/** Writes warnings and errors to stderr; returns true when settings failed to load. */
export function reportDiagnostics(settings: LoadedSettings, io: Io): boolean {
  for (const d of settings.diagnostics) {
    const text = formatDiagnostic(d);
    io.err(d.severity === 'error' ? io.errColors.red(text) : io.errColors.yellow(text));
  }
  return settings.failed.length > 0;
}
