import { type ParseArgsConfig, parseArgs } from 'node:util';
import { answerBadInvocation, type HookStart, runHook } from './hook-run.js';
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

/** What the command line asks of the hook: its arguments, the full CLI (help, version), or a usage error. */
export type HookCommandLine = { args: HookArgs } | { fullCli: true } | { error: string };

/** The hook's arguments; help and the version go to the full CLI, and anything parseArgs refuses is an error. */
export function parseHookArgs(argv: readonly string[]): HookCommandLine {
  if (argv.some((a) => a === '--help' || a === '-h' || a === '--version')) return { fullCli: true };
  let values: Record<string, unknown>;
  try {
    values = parseArgs({
      args: withForwardValue(argv),
      options: parseArgsOptions(),
      strict: true,
      allowPositionals: false,
      allowNegative: true,
    } as ParseArgsConfig).values as Record<string, unknown>;
  } catch (e) {
    // parseArgs goes on with advice on positionals after its first sentence.
    return { error: (e as Error).message.split('. ')[0] as string };
  }
  const args: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) args[camel(name)] = value;
  return { args: args as HookArgs };
}

/**
 * `automode hook` without the argument parser of the full CLI: bin/automode.js runs this from the bundle.
 * Returns the exit code, or undefined when the full CLI must run instead (help, the version). A usage error
 * never exits 2, which Claude Code reads as a block: it answers the call (see answerBadInvocation).
 */
export async function hookMain(argv: readonly string[], start: HookStart = {}): Promise<number | undefined> {
  const line = parseHookArgs(argv);
  if ('fullCli' in line) return undefined;
  const io = processIo();
  if ('error' in line) {
    io.err(`automode: ${line.error}`);
    return answerBadInvocation(line.error, io);
  }
  return runHook(line.args, io, { ...start, argv });
}
