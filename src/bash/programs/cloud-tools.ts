import { grammar } from './options.js';
import type { ProgramSpec } from './program.js';

export const CLOUD_TOOL_SPECS: readonly ProgramSpec[] = [
  {
    name: 'terraform',
    grammar: grammar({ words: '-chdir= -help -version', abbreviate: false }),
    subcommands: {},
  },
];
