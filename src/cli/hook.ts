import { answerBadInvocation, runHook } from './hook-run.js';
import { withModelOptions } from './model-args.js';
import { HOOK_OPTIONS } from './option-specs.js';
import { withOptions, withSettingsOptions } from './settings-args.js';
import type { CommandModule, HookArgs } from './types.js';

export const hookCommand: CommandModule = {
  command: 'hook',
  describe:
    'Run as a Claude Code PreToolUse (or PermissionRequest) command hook: read the hook input on stdin, print the decision (none when nobody decided)',
  builder: (y) =>
    withOptions(withModelOptions(withSettingsOptions(y)), HOOK_OPTIONS)
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
    return runHook(args, io);
  },
  // Exit 2 would block the call in Claude Code: the hook answers it, as the bundled hook does.
  onUsageError: answerBadInvocation,
};
