import type { CommandModule } from './main.js';
import { EXIT } from './output.js';

export const diffCommand: CommandModule = {
  command: 'diff',
  describe: 'Not yet available',
  builder: (y) => y,
  run: async (_args, io) => {
    io.err('automode diff: not yet available');
    return EXIT.usage;
  },
};
