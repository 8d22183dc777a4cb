import { createClassifier, readTranscriptTail } from '../classifier/index.js';
import { answerHookInput, type HookInput, NO_DECISION } from '../service/index.js';
import { forward, forwardTarget } from './forward.js';
import { type ModelArgs, modelFromArgs } from './model-args.js';
import type { Io } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs } from './settings-args.js';

export interface HookArgs extends SettingsArgs, ModelArgs {
  askWhenUndecided?: boolean;
  /** Forward to the service: '' as service.json says, else a socket path or a loopback URL. */
  forward?: string;
}

/** The timeout of a forwarded call, from AUTOMODE_FORWARD_TIMEOUT_MS when it is a positive number. */
function forwardTimeout(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.AUTOMODE_FORWARD_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}

/** What `automode hook` prints for one hook input: the service's answer when forwarding, else decided here. */
export async function hookAnswer(input: string, args: HookArgs, io: Io): Promise<string> {
  if (args.forward !== undefined) {
    const target = forwardTarget(args.forward);
    if (target && 'error' in target) {
      io.err(`automode: --forward: ${target.error}; no decision`);
      return NO_DECISION;
    }
    if (target) {
      const forwarded = await forward(input, target, forwardTimeout(process.env));
      if (forwarded.kind === 'answer') return forwarded.body;
      if (forwarded.kind === 'bad') {
        io.err(`automode: the service ${forwarded.reason}; no decision`);
        return NO_DECISION;
      }
    }
  }
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
