import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import type { LoadedSettings } from '../rules/index.js';
import { formatDiagnostic, loadSettings } from '../rules/index.js';
import { MODES } from '../shared/index.js';
import type { Io } from './output.js';

/** Options every command that reads settings shares. */
export function withSettingsOptions<T>(y: Argv<T>) {
  return y
    .option('settings', {
      type: 'string',
      array: true,
      nargs: 1,
      describe: 'Extra settings file (or inline JSON), like claude --settings; repeatable',
    })
    .option('rules', {
      type: 'string',
      array: true,
      nargs: 1,
      describe: 'automode pattern rule file (JSON or YAML); repeatable',
    })
    .option('allow', {
      type: 'string',
      array: true,
      nargs: 1,
      describe: 'Allow rule, e.g. "Bash(npm test)"; repeatable',
    })
    .option('ask', { type: 'string', array: true, nargs: 1, describe: 'Ask rule; repeatable' })
    .option('deny', { type: 'string', array: true, nargs: 1, describe: 'Deny rule; repeatable' })
    .option('cwd', { type: 'string', describe: 'Working folder (default: the current one)' })
    .option('defaults', {
      type: 'boolean',
      default: true,
      describe: 'Use the shipped rules (--no-defaults to leave them out)',
    })
    .group(['settings', 'rules', 'allow', 'ask', 'deny', 'cwd', 'defaults'], 'Settings:');
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
