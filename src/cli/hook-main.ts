import { type ParseArgsConfig, parseArgs } from 'node:util';
import { runHook } from './hook-run.js';
import { HOOK_OPTIONS, MODEL_OPTIONS, type OptionSpecs, SETTINGS_OPTIONS } from './option-specs.js';
import { processIo } from './output.js';
import type { HookArgs } from './types.js';

/** Every option of `automode hook`, as the full CLI declares them too. */
export const HOOK_COMMAND_OPTIONS: OptionSpecs = { ...SETTINGS_OPTIONS, ...MODEL_OPTIONS, ...HOOK_OPTIONS };

/** The `util.parseArgs` configuration of the hook's options. */
export function parseArgsOptions(
  specs: OptionSpecs = HOOK_COMMAND_OPTIONS,
): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(specs))
    options[name] =
      spec.type === 'boolean'
        ? { type: 'boolean', ...(spec.default !== undefined ? { default: spec.default } : {}) }
        : { type: 'string', ...(spec.multiple ? { multiple: true } : {}) };
  return options;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * `--forward` takes an optional value, which parseArgs cannot express: alone it becomes `--forward=`, and a
 * following word that is no option is its value (the hook takes no positional arguments).
 */
function withForwardValue(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '--forward') out.push(argv[i] as string);
    else {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('-')) {
        out.push(`--forward=${next}`);
        i++;
      } else out.push('--forward=');
    }
  }
  return out;
}

/**
 * The hook's arguments, or undefined when the full CLI must handle them: help, the version, and anything
 * parseArgs refuses (an unknown option, a missing value), which the full CLI reports as a usage error.
 */
export function parseHookArgs(argv: readonly string[]): HookArgs | undefined {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return undefined;
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: withForwardValue(argv),
      options: parseArgsOptions(),
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    } as ParseArgsConfig).values as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) args[camel(name)] = value;
  return args as HookArgs;
}

/**
 * `automode hook` without the argument parser of the full CLI: bin/automode.js runs this from the bundle.
 * Returns the exit code, or undefined when the full CLI must run instead (see parseHookArgs).
 */
export async function hookMain(argv: readonly string[]): Promise<number | undefined> {
  const args = parseHookArgs(argv);
  if (!args) return undefined;
  const io = processIo();
  return runHook(args, io);
}
