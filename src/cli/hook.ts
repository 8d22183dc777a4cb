import { text } from 'node:stream/consumers';
import { createClassifier, readTranscript } from '../classifier/index.js';
import { answerHookInput, type HookInput, hookOutput } from '../service/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

interface HookArgs extends SettingsArgs, ModelArgs {
  askWhenUndecided?: boolean;
}

export const hookCommand: CommandModule = {
  command: 'hook',
  describe:
    'Run as a Claude Code PreToolUse (or PermissionRequest) command hook: read the hook input on stdin, print the decision (none when nobody decided)',
  builder: (y) =>
    withModelOptions(withSettingsOptions(y))
      .option('ask-when-undecided', {
        type: 'boolean',
        default: false,
        describe:
          'When neither the rules nor the model decide, answer ask (a prompt); by default automode then gives no decision and Claude Code applies its own permissions',
      })
      .example(
        '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook"}]}]}}',
        'In .claude/settings.json',
      )
      .example(
        '{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook"}]}]}}',
        'Only where Claude Code would ask: automode answers allow or deny, or leaves the dialog',
      )
      .example(
        '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook --ask-when-undecided"}]}]}}',
        'Prompt for every call that neither the rules nor the model decide, as before',
      ),
  run: async (raw, io) => {
    const args = raw as unknown as HookArgs;
    let input: string;
    try {
      input = await text(process.stdin);
    } catch (e) {
      io.out(
        hookOutput('PreToolUse', 'ask', `automode could not read the hook input: ${(e as Error).message}`),
      );
      return EXIT.ok;
    }
    const decide = async ({ call, transcriptPath }: HookInput) => {
      const settings = await loadFromArgs({ ...args, ...(call.cwd && !args.cwd ? { cwd: call.cwd } : {}) });
      reportDiagnostics(settings, io);
      const model = await modelFromArgs(args);
      const classifier = createClassifier(settings, model ? { model, projectEnvironment: true } : {});
      return classifier.classify(
        call,
        transcriptPath ? { context: () => readTranscript(transcriptPath) } : {},
      );
    };
    const options = args.askWhenUndecided ? { askWhenUndecided: true } : {};
    io.out(await answerHookInput(input, decide, options));
    return EXIT.ok;
  },
};
