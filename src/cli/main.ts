import yargs from 'yargs';
import { EXIT, type Io, processIo } from './output.js';
import type { CommandModule } from './types.js';

/**
 * Each command loads only when it runs: a hook call should not pay for the critique's automata or the eval's
 * reports. Without a known command (top-level help, a typo) all are loaded, to list or suggest them.
 */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  classify: async () => (await import('./classify.js')).classifyCommand,
  explain: async () => (await import('./explain.js')).explainCommand,
  hook: async () => (await import('./hook.js')).hookCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  config: async () => (await import('./config.js')).configCommand,
  defaults: async () => (await import('./defaults.js')).defaultsCommand,
  critique: async () => (await import('./critique.js')).critiqueCommand,
  test: async () => (await import('./test.js')).testCommand,
  diff: async () => (await import('./diff.js')).diffCommand,
  rules: async () => (await import('./rules.js')).rulesCommand,
  eval: async () => (await import('./eval.js')).evalCommand,
  agent: async () => (await import('./agent.js')).agentCommand,
};

async function commandsFor(argv: string[]): Promise<CommandModule[]> {
  const requested = argv.find((a) => !a.startsWith('-'));
  // `automode --version` prints the version and lists no command.
  if (
    requested === undefined &&
    argv.includes('--version') &&
    !argv.some((a) => a === '--help' || a === '-h')
  )
    return [];
  const load =
    requested !== undefined && Object.hasOwn(COMMANDS, requested) ? COMMANDS[requested] : undefined;
  return load ? [await load()] : Promise.all(Object.values(COMMANDS).map((l) => l()));
}

/** The part of yargs' internals (pinned version) that renders help ahead of need. */
interface YargsInternals {
  getInternalMethods?(): { getUsageInstance?(): { cacheHelpMessage(): void } | undefined } | undefined;
}

/** Runs the CLI and returns the exit code: 0 ok, 1 findings or failures, 2 usage or configuration error. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  let failed = false;
  let problem = 'usage error';
  const parser = yargs(argv)
    .scriptName('automode')
    .usage(
      "$0 <command> [options]\n\nDecide whether an AI coding agent's tool call may run: allow, ask or deny.",
    )
    .strict()
    .demandCommand(1, 'Name a command; see automode --help.')
    .recommendCommands()
    .exitProcess(false)
    .help()
    .alias('h', 'help')
    .version()
    .wrap(Math.min(110, process.stdout.columns || 110))
    .fail((msg, err) => {
      if (!failed) {
        problem = msg ?? err?.message ?? problem;
        io.err(`automode: ${problem}`);
        io.err('Run automode --help for usage.');
      }
      failed = true;
      // Without a throw, yargs goes on to its next check and then runs the command anyway.
      throw err ?? new Error(msg);
    });
  // yargs renders a command's whole help text as its handler starts, to show should the handler fail; the `fail`
  // above prints automode's own message instead, so that text is never shown (--help is rendered apart from it).
  const rendering = (parser as unknown as YargsInternals).getInternalMethods?.()?.getUsageInstance?.();
  if (rendering) rendering.cacheHelpMessage = () => {};
  const modules = await commandsFor(argv);
  const single = modules.length === 1 ? modules[0] : undefined;
  const usage = single?.usageExit?.(argv) ?? EXIT.usage;
  for (const m of modules) {
    parser.command(m.command, m.describe, m.builder, async (args) => {
      code = await m.run(args as Record<string, unknown>, io);
    });
  }
  try {
    await parser.parseAsync();
  } catch (e) {
    if (!failed) {
      problem = (e as Error).message;
      io.err(`automode: ${problem}`);
      failed = true;
    }
  }
  if (!failed) return code;
  return single?.onUsageError ? single.onUsageError(problem, io) : usage;
}
