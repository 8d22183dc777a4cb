import { text } from 'node:stream/consumers';
import { type ClassifiedVerdict, createClassifier, readTranscript } from '../classifier/index.js';
import { asksOnlyFor, modelSettles } from '../policy/index.js';
import { parseCallLine } from '../shared/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT } from './output.js';
import { loadFromArgs, reportDiagnostics, type SettingsArgs, withSettingsOptions } from './settings-args.js';
import type { CommandModule } from './types.js';

type Decision = 'allow' | 'ask' | 'deny';
type HookEvent = 'PreToolUse' | 'PermissionRequest';

/** The answer that decides nothing: Claude Code's own permissions and prompts apply. */
const NO_DECISION = '{}';

interface HookArgs extends SettingsArgs, ModelArgs {
  askWhenUndecided?: boolean;
}

/**
 * The answer in the shape the event expects. As a PermissionRequest hook (consulted only when Claude Code
 * would show its dialog), automode answers allow or deny and leaves an ask to the dialog: it prints no decision.
 */
function hookOutput(event: HookEvent, decision: Decision, reason: string): string {
  if (event === 'PermissionRequest') {
    if (decision === 'ask') return NO_DECISION;
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

/**
 * The event the input names; `undefined` for an event automode does not answer (PostToolUse, Notification…).
 * An input that names no event, or cannot be read, is taken as a PreToolUse.
 */
function eventOf(input: string): HookEvent | undefined {
  let name: unknown;
  try {
    name = (JSON.parse(input) as { hook_event_name?: unknown }).hook_event_name;
  } catch {
    return 'PreToolUse';
  }
  if (name === undefined || name === 'PreToolUse') return 'PreToolUse';
  return name === 'PermissionRequest' ? 'PermissionRequest' : undefined;
}

/**
 * An ask that only means nobody decided: every asking part is one only a judgement could settle (no rule, no
 * model, a file no rule covers). A rule's ask, a check that refused (opaque, hidden code, protected path…) and a
 * model that failed are answers: they still ask.
 */
function isUndecided(verdict: ClassifiedVerdict): boolean {
  return asksOnlyFor(verdict, modelSettles);
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
    const event = eventOf(input);
    if (!event) {
      io.out(NO_DECISION);
      return EXIT.ok;
    }
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
      const classifier = createClassifier(settings, model ? { model, projectEnvironment: true } : {});
      const verdict = await classifier.classify(call, context ? { context } : {});
      const rule = verdict.rule
        ? ` (${verdict.rule.text}${verdict.rule.file ? ` in ${verdict.rule.file}` : ''})`
        : '';
      if (!args.askWhenUndecided && isUndecided(verdict)) io.out(NO_DECISION);
      else io.out(hookOutput(event, verdict.decision, `automode: ${verdict.reason}${rule}`));
    } catch (e) {
      io.out(hookOutput(event, 'ask', `automode failed, so it asks: ${(e as Error).message}`));
    }
    return EXIT.ok;
  },
};
