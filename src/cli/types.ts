import type { Argv } from 'yargs';
import type { Io } from './output.js';

export interface CommandModule {
  command: string;
  describe: string;
  builder: (y: Argv) => Argv;
  run: (args: Record<string, unknown>, io: Io) => Promise<number>;
}
