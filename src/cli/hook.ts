import { text } from 'node:stream/consumers';
import { createClassifier, readTranscript } from '../classifier/index.js';
import { parseCallLine } from '../shared/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

type Decision = 'allow' | 'ask' | 'deny';
type HookEvent = 'PreToolUse' | 'PermissionRequest';

/**
 * The answer in the shape the event expects. As a PermissionRequest hook (consulted only when Claude Code
 * would show its dialog), automode answers allow or deny and leaves an ask to the dialog: it prints no decision.
 */
function hookOutput(event: HookEvent, decision: Decision, reason: string): string {
  if (event === 'PermissionRequest') {
    if (decision === 'ask') return '{}';
    const d = decision === 'deny' ? { behavior: 'deny', message: reason } : { behavior: 'allow' };
    return JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: d } });
  }
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: reason,
    },
  });
}

function eventOf(input: string): HookEvent {
  try {
    const parsed = JSON.parse(input) as { hook_event_name?: unknown };
    return parsed.hook_event_name === 'PermissionRequest' ? 'PermissionRequest' : 'PreToolUse';
  } catch {
    return 'PreToolUse';
  }
}

export const hookCommand: CommandModule = {
  command: 'hook',
  describe:
    'Run as a Claude Code PreToolUse (or PermissionRequest) command hook: read the hook input on stdin, print the decision',
  builder: (y) =>
    withModelOptions(withSettingsOptions(y))
      .example(
        '{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook"}]}]}}',
        'In .claude/settings.json',
      )
      .example(
        '{"hooks":{"PermissionRequest":[{"matcher":"*","hooks":[{"type":"command","command":"npx automode hook"}]}]}}',
        'Only where Claude Code would ask: automode answers allow or deny, or leaves the dialog',
      ),
  run: async (raw, io) => {
    const args = raw as unknown as SettingsArgs & ModelArgs;
    let input: string;
    try {
      input = await text(process.stdin);
    } catch (e) {
      io.out(
        hookOutput('PreToolUse', 'ask', `automode could not read the hook input: ${(e as Error).message}`),
      );
      return EXIT.ok;
    }
    const event = eventOf(input);
    const call = parseCallLine(input);
    if ('error' in call) {
      io.out(hookOutput(event, 'ask', `automode could not read the hook input: ${call.error}`));
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
      io.out(hookOutput(event, verdict.decision, `automode: ${verdict.reason}${rule}`));
    } catch (e) {
      io.out(hookOutput(event, 'ask', `automode failed, so it asks: ${(e as Error).message}`));
    }
    return EXIT.ok;
  },
};
