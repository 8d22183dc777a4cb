import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProseDefaults } from '../prose/types.js';

const folder = new URL('../../../defaults/', import.meta.url);

/** The shipped rules: permission rules, pattern rules and the built-in prose rules that `$defaults` stands for. */
export const BUILTIN_FILES = {
  settings: fileURLToPath(new URL('settings.json', folder)),
  rules: fileURLToPath(new URL('rules.json', folder)),
  autoMode: fileURLToPath(new URL('auto-mode.json', folder)),
};

let prose: ProseDefaults | undefined;

export function builtinProse(): ProseDefaults {
  prose ??= JSON.parse(readFileSync(BUILTIN_FILES.autoMode, 'utf8')) as ProseDefaults;
  return prose;
}

export function builtinOptions(): {
  builtins: { settingsFiles: string[]; ruleFiles: string[] };
  defaults: ProseDefaults;
} {
  return {
    builtins: { settingsFiles: [BUILTIN_FILES.settings], ruleFiles: [BUILTIN_FILES.rules] },
    defaults: builtinProse(),
  };
}
