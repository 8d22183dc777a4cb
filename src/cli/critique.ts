import type { CommandModule } from './main.js';
import { EXIT } from './output.js';

export const critiqueCommand: CommandModule = {
  command: 'critique',
  describe: 'Not yet available',
  builder: (y) => y,
  run: async (_args, io) => {
    io.err('automode critique: not yet available');
    return EXIT.usage;
  },
};
