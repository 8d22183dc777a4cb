import yargs, { type Argv } from 'yargs';
import { agentCommand } from './agent.js';
import { classifyCommand } from './classify.js';
import { configCommand } from './config.js';
import { critiqueCommand } from './critique.js';
import { defaultsCommand } from './defaults.js';
import { diffCommand } from './diff.js';
import { evalCommand } from './eval.js';
import { explainCommand } from './explain.js';
import { hookCommand } from './hook.js';
import { EXIT, type Io, processIo } from './output.js';
import { testCommand } from './test.js';

export interface CommandModule {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  run: (args: Record<string, unknown>, io: Io) => Promise<number>;
}

const COMMANDS: CommandModule[] = [
  classifyCommand,
  explainCommand,
  hookCommand,
  configCommand,
  defaultsCommand,
  critiqueCommand,
  testCommand,
  diffCommand,
  evalCommand,
  agentCommand,
];

/** Runs the CLI and returns the exit code: 0 ok, 1 findings or failures, 2 usage or configuration error. */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  let code: number = EXIT.ok;
  let failed = false;
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
      failed = true;
      io.err(`automode: ${msg ?? err?.message ?? 'usage error'}`);
      io.err('Run automode --help for usage.');
    });
  for (const m of COMMANDS) {
    parser.command(m.command, m.describe, m.builder, async (args) => {
      code = await m.run(args as Record<string, unknown>, io);
    });
  }
  try {
    await parser.parseAsync();
  } catch (e) {
    if (!failed) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
  }
  return failed ? EXIT.usage : code;
}
