import type { Readable, Writable } from 'node:stream';
import type { PermissionAnswer, PermissionRequest, PermissionSource } from '../permission/types.js';
import { LineReader } from './line-reader.js';
import { type SettingsTarget, saveAllowRules, settingsTargets } from './save-rule.js';

export interface TerminalPromptOptions {
  input: Readable;
  output: Writable;
  /** Where "always allow" may save; default: the local, project and user settings files of the request. */
  targets?: (request: PermissionRequest) => SettingsTarget[];
}

function describe(request: PermissionRequest): string {
  const { input, toolName } = request;
  if (toolName === 'Bash' && typeof input.command === 'string') return input.command;
  return JSON.stringify(input, null, 2);
}

type Choice = 'once' | 'always' | 'deny';

/**
 * The terminal prompt: allow once, always allow (the suggested rules, saved to the settings file the user
 * picks), or deny. One question at a time; the end of the input or an abort is no (undefined when aborted, so
 * that another source's answer stands).
 */
export function terminalPrompt(options: TerminalPromptOptions): PermissionSource {
  const reader = new LineReader(options.input);
  const write = (text: string) => options.output.write(text);
  let queue: Promise<unknown> = Promise.resolve();

  const choose = async (question: string, count: number, signal: AbortSignal): Promise<number | null> => {
    while (true) {
      write(`${question} [1-${count}] `);
      const line = await reader.next(signal);
      if (line === null) return null;
      const n = Number(line.trim());
      if (Number.isInteger(n) && n >= 1 && n <= count) return n;
      write(`Please answer with a number from 1 to ${count}.\n`);
    }
  };

  const ask = async (
    request: PermissionRequest,
    signal: AbortSignal,
  ): Promise<PermissionAnswer | undefined> => {
    if (signal.aborted) return undefined;
    const rules = request.suggestions;
    write(`\n${request.toolName} wants to run:\n  ${describe(request).replace(/\n/g, '\n  ')}\n`);
    write(`Why you are asked: ${request.reason}\n`);
    if (request.warning) write(`Warning: ${request.warning}\n`);
    if (rules.length === 0 && request.noSuggestions)
      write(`No rule to always allow: ${request.noSuggestions}\n`);
    const choices: Choice[] = rules.length > 0 ? ['once', 'always', 'deny'] : ['once', 'deny'];
    const lines = choices.map((c, i) => {
      const text =
        c === 'once' ? 'Yes, this once' : c === 'always' ? `Yes, and always allow ${rules.join(', ')}` : 'No';
      return `  ${i + 1}. ${text}\n`;
    });
    write(`Do you want to proceed?\n${lines.join('')}`);
    const n = await choose('Your choice', choices.length, signal);
    if (n === null) {
      if (signal.aborted) {
        write('\n(answered elsewhere)\n');
        return undefined;
      }
      return { behavior: 'deny', by: 'user', reason: 'no answer: the input ended' };
    }
    const choice = choices[n - 1]!;
    if (choice === 'deny') return { behavior: 'deny', by: 'user', reason: 'the user said no' };
    if (choice === 'once') return { behavior: 'allow', by: 'user', reason: 'the user allowed it once' };
    const targets = (options.targets ?? ((r) => settingsTargets(r.settings)))(request);
    const remember: { rules: string[]; file?: string } = { rules };
    if (targets.length > 0) {
      write(`Save ${rules.join(', ')} to:\n`);
      write(targets.map((t, i) => `  ${i + 1}. ${t.file} (${t.label})\n`).join(''));
      const t = await choose('Where', targets.length, signal);
      if (t === null)
        return signal.aborted ? undefined : { behavior: 'deny', by: 'user', reason: 'no answer' };
      const target = targets[t - 1]!;
      try {
        await saveAllowRules(target.file, rules);
        remember.file = target.file;
        write(`Saved to ${target.file}\n`);
      } catch (e) {
        write(`Could not save the rule: ${(e as Error).message}; it holds for this session only.\n`);
      }
    }
    return { behavior: 'allow', by: 'user', reason: `the user always allows ${rules.join(', ')}`, remember };
  };

  return (request, signal) => {
    const turn = queue.then(() => ask(request, signal));
    queue = turn.catch(() => undefined);
    return turn;
  };
}
