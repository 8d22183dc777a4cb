import { grammar } from './options.js';
import type { ProgramSpec } from './program.js';

export const CLOUD_TOOL_SPECS: readonly ProgramSpec[] = [
  {
    name: 'terraform',
    grammar: grammar({ words: '-chdir= -help -version', abbreviate: false }),
    subcommands: {},
  },
  {
    name: 'gh',
    grammar: grammar({ values: 'R', long: 'repo=/R help', abbreviate: false }),
    subcommands: {},
    globalOptionsAnywhere: true,
  },
  {
    name: 'aws',
    grammar: grammar({
      long: 'profile= region= output= endpoint-url= no-cli-pager debug no-verify-ssl no-paginate query= color=',
      abbreviate: false,
    }),
    subcommands: {},
    globalOptionsAnywhere: true,
  },
];
