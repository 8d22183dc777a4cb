import { grammar } from './options.js';
import type { ProgramSpec } from './program.js';

export const CLOUD_TOOL_SPECS: readonly ProgramSpec[] = [
  {
    name: 'terraform',
    grammar: grammar({ words: '-chdir= -help -version', abbreviate: false }),
    subcommands: {},
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
  {
    // Azure CLI's global options (knack): only those that take a value are read as taking one. Not
    // `globalOptionsAnywhere`: that az reads them in front of the command as after it is not confirmed.
    name: 'az',
    grammar: grammar({
      flags: 'h',
      values: 'o',
      long: 'query= output=/o subscription= only-show-errors debug verbose help/h',
      abbreviate: false,
    }),
    subcommands: {},
  },
  {
    name: 'gcloud',
    grammar: grammar({
      flags: 'qh',
      long: 'project= account= quiet/q configuration= format= verbosity= log-http help/h',
      abbreviate: false,
    }),
    subcommands: {},
    globalOptionsAnywhere: true,
  },
];
