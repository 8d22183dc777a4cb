import { analyzeBash } from '../bash/analyze.js';
import type { CommandModule } from './main.js';
import { EXIT, printJson } from './output.js';
import { renderAnalysis } from './render-analysis.js';

export const explainCommand: CommandModule = {
  command: 'explain <command>',
  describe: 'Show how a shell command is analysed: every command it runs, redirections, files, problems',
  builder: (y) =>
    y
      .positional('command', {
        type: 'string',
        describe: 'The shell command, quoted as one argument',
        demandOption: true,
      })
      .option('json', { type: 'boolean', default: false, describe: 'Print the analysis as JSON' })
      .example('$0 explain "find . -name \'*.log\' -exec rm {} \\;"', 'See the rm that find runs')
      .example('$0 explain --json "git -c core.pager=sh log"', 'Machine-readable analysis'),
  run: async (args, io) => {
    const analysis = await analyzeBash(String(args.command));
    if (args.json) printJson(io, analysis);
    else io.out(renderAnalysis(analysis, io.colors));
    return EXIT.ok;
  },
};
