import type { CommandModule } from './main.js';
import { EXIT } from './output.js';

export const testCommand: CommandModule = {
  command: 'test',
  describe: 'Not yet available',
  builder: (y) => y,
  run: async (_args, io) => {
    io.err('automode test: not yet available');
    return EXIT.usage;
  },
};
