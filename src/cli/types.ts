import type { Argv } from 'yargs';
import type { ModelArgs } from './model-args.js';
import type { Io } from './output.js';
import type { SettingsArgs } from './settings-args.js';

export interface CommandModule {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  run: (args: Record<string, unknown>, io: Io) => Promise<number>;
  /** The exit code of a usage error caught before `run` (yargs' own checks), when it is not EXIT.usage. */
  usageExit?: (argv: string[]) => number | undefined;
  /** Handles a usage error caught before `run` (reported on stderr already) and returns the exit code. */
  onUsageError?: (problem: string, io: Io) => Promise<number>;
}

export interface HookArgs extends SettingsArgs, ModelArgs {
  askWhenUndecided?: boolean;
  /** Forward to the service: '' as service.json says, else a socket path or a loopback URL. */
  forward?: string;
  /** Forward to a service of the hook's own, started at its first call (see service/auto.ts). */
  serve?: boolean;
}
