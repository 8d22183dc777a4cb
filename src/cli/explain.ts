import { createClassifier } from '../classifier/index.js';
import type { PartVerdict } from '../policy/index.js';
import type { Mode } from '../shared/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT, printJson } from './output.js';
import { renderAnalysis } from './render-analysis.js';
import { partLine, renderVerdict, verdictJson } from './render-verdict.js';
import {
  loadFromArgs,
  modeOption,
  reportDiagnostics,
  type SettingsArgs,
  withSettingsOptions,
} from './settings-args.js';
import type { CommandModule } from './types.js';

export const explainCommand: CommandModule = {
  command: 'explain <command>',
  describe: 'Show how a shell command is analysed and decided: every command it runs, files, rules',
  builder: (y) =>
    withModelOptions(modeOption(withSettingsOptions(y)))
      .positional('command', {
        type: 'string',
        describe: 'The shell command, quoted as one argument',
        demandOption: true,
      })
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'Print the analysis and the verdict as JSON',
      })
      .example('$0 explain "find . -name \'*.log\' -exec rm {} \\;"', 'See the rm that find runs')
      .example('$0 explain --json "git -c core.pager=sh log"', 'Machine-readable analysis'),
  run: async (raw, io) => {
    const args = raw as unknown as SettingsArgs & ModelArgs & { command: string; json: boolean; mode?: Mode };
    const settings = await loadFromArgs(args);
    const failed = reportDiagnostics(settings, io);
    const call = {
      tool: 'Bash',
      input: { command: String(args.command) },
      ...(args.mode ? { mode: args.mode } : {}),
    };
    let model: Awaited<ReturnType<typeof modelFromArgs>>;
    try {
      model = await modelFromArgs(args);
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
    const verdict = await createClassifier(
      settings,
      model ? { model, projectEnvironment: true } : {},
    ).classify(call);
    const analysis = verdict.analysis!;
    if (args.json) {
      printJson(io, { analysis, verdict: verdictJson(verdict) });
      return failed ? EXIT.usage : EXIT.ok;
    }
    const byCommand = new Map<number, PartVerdict[]>();
    const loose: PartVerdict[] = [];
    for (const p of verdict.parts) {
      if (p.command === undefined) loose.push(p);
      else byCommand.set(p.command, [...(byCommand.get(p.command) ?? []), p]);
    }
    const c = io.colors;
    io.out(renderAnalysis(analysis, c, (cmd) => (byCommand.get(cmd.id) ?? []).map((p) => partLine(p, c))));
    for (const p of loose) io.out(`  ${partLine(p, c)}`);
    io.out(c.bold('verdict'));
    io.out(renderVerdict({ ...verdict, parts: [] }, c));
    return failed ? EXIT.usage : EXIT.ok;
  },
};
