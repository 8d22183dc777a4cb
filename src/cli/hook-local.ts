import { createClassifier, readTranscriptTail } from '../classifier/index.js';
import { answerHookInput, type HookInput } from '../service/index.js';
import { modelFromArgs } from './model-args.js';
import type { Io } from './output.js';
import { loadFromArgs, reportDiagnostics } from './settings-args.js';
import type { HookArgs } from './types.js';

/** The hook's answer decided in this process: the settings of the call's folder, the model when configured. */
export function answerHere(input: string, args: HookArgs, io: Io): Promise<string> {
  const decide = async ({ call, transcriptPath }: HookInput) => {
    const settings = await loadFromArgs({ ...args, ...(call.cwd && !args.cwd ? { cwd: call.cwd } : {}) });
    reportDiagnostics(settings, io);
    const model = await modelFromArgs(args);
    const classifier = createClassifier(settings, model ? { model, projectEnvironment: true } : {});
    return classifier.classify(
      call,
      transcriptPath ? { context: () => readTranscriptTail(transcriptPath) } : {},
    );
  };
  return answerHookInput(input, decide, args.askWhenUndecided ? { askWhenUndecided: true } : {});
}
