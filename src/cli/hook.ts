import { text } from 'node:stream/consumers';
import { readTranscript } from '../classifier/model/transcript.js';
import { createClassifier } from '../permissions/classifier.js';
import { parseCallLine } from './classify.js';
import type { CommandModule } from './main.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';

type Decision = 'allow' | 'ask' | 'deny';

function hookOutput(decision: Decision, reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  });
}

export const hookCommand: CommandModule = {
  command: 'hook',
  describe: 'Run as a Claude Code PreToolUse command hook: read the hook input on stdin, print the decision',
  builder: (y) =>
    withModelOptions(withSettingsOptions(y)).example(
      '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook"}]}]}}',
      'In .claude/settings.json',
    ),
  run: async (raw, io) => {
    const args = raw as unknown as SettingsArgs & ModelArgs;
    let input: string;
    try {
      input = await text(process.stdin);
    } catch (e) {
      io.out(hookOutput('ask', `automode could not read the hook input: ${(e as Error).message}`));
      return EXIT.ok;
    }
    const call = parseCallLine(input);
    if ('error' in call) {
      io.out(hookOutput('ask', `automode could not read the hook input: ${call.error}`));
      return EXIT.ok;
    }
    try {
      const settings = await loadFromArgs({ ...args, ...(call.cwd && !args.cwd ? { cwd: call.cwd } : {}) });
      reportDiagnostics(settings, io);
      const model = await modelFromArgs(args);
      const hookInput = JSON.parse(input) as { transcript_path?: unknown };
      const context =
        typeof hookInput.transcript_path === 'string'
          ? await readTranscript(hookInput.transcript_path)
          : undefined;
      const classifier = createClassifier(settings, model ? { model } : {});
      const verdict = await classifier.classify(call, context ? { context } : {});
      const rule = verdict.rule
        ? ` (${verdict.rule.text}${verdict.rule.file ? ` in ${verdict.rule.file}` : ''})`
        : '';
      io.out(hookOutput(verdict.decision, `automode: ${verdict.reason}${rule}`));
    } catch (e) {
      io.out(hookOutput('ask', `automode failed, so it asks: ${(e as Error).message}`));
    }
    return EXIT.ok;
  },
};
