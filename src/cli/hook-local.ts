import { createClassifier, readTranscriptTail } from '../classifier/index.js';
import { projectFolders } from '../rules/index.js';
import { answerHookInput, type HookInput } from '../service/index.js';
import { modelFromArgs } from './model-args.js';
import type { Io } from './output.js';
import { loadFromArgs, reportDiagnostics } from './settings-args.js';
import type { HookArgs } from './types.js';

/**
 * The hook's answer decided in this process: the settings of the session's project root (CLAUDE_PROJECT_DIR,
 * else the repository holding the call's folder; never the folder the agent has `cd`'d into), the model when
 * configured.
 */
export function answerHere(input: string, args: HookArgs, io: Io): Promise<string> {
  const decide = async ({ call, transcriptPath }: HookInput) => {
    const root = call.cwd && !args.cwd ? projectFolders(call.cwd, process.env.CLAUDE_PROJECT_DIR) : undefined;
    const settings = await loadFromArgs({ ...args, ...(root ? { cwd: root.projectRoot } : {}) });
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
