import { commandHook, HOOK_COMMAND, hooksBlock } from './hook-config.js';
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
        `${HOOK_COMMAND} --serve`,
        'The command of a PreToolUse or PermissionRequest hook, found from any subfolder, with a service of its own',
      )
      .example(HOOK_COMMAND, 'Decide every call in this process, leaving nothing running')
      .example(
        `${HOOK_COMMAND} --serve --ask-when-undecided`,
        'Prompt for every call that neither the rules nor the model decide, as before',
      )
      .epilog(
        `In .claude/settings.json (Claude Code 2.1.295 or later; "onFailure": "block" blocks the call when the hook cannot run):\n\n${JSON.stringify(hooksBlock('PreToolUse', commandHook('--serve')), null, 2)}\n\nUnder PermissionRequest instead, automode answers only where Claude Code would ask: allow or deny, or it leaves the dialog.`,
      ),
  run: async (raw, io) => {
    const args = raw as unknown as HookArgs;
    // Run as `automode hook …` by bin/automode.js, it can start the service --serve asks for.
    const fromBin = process.argv[2] === 'hook' && process.argv[1] !== undefined;
    return runHook(args, io, fromBin ? { bin: process.argv[1], argv: process.argv.slice(3) } : {});
  },
  // Exit 2 would block the call in Claude Code: the hook answers it, as the bundled hook does.
  onUsageError: answerBadInvocation,
};
