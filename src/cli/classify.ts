import { createInterface } from 'node:readline';
import { createClassifier, type ToolCall } from '../permissions/classifier.js';
import type { Mode } from '../rules/types.js';
import type { CommandModule } from './main.js';
import { EXIT, printJson } from './output.js';
import { renderVerdict, verdictJson } from './render-verdict.js';
import {
  loadFromArgs,
  modeOption,
  reportDiagnostics,
  type SettingsArgs,
  withSettingsOptions,
} from './settings-args.js';

interface ClassifyArgs extends SettingsArgs {
  command?: string;
  tool: string;
  input?: string;
  mode?: Mode;
  json: boolean;
  jsonl: boolean;
}

export const classifyCommand: CommandModule = {
  command: 'classify [command]',
  describe: 'Decide allow, ask or deny for a tool call, with the rule and file that decided',
  builder: (y) =>
    modeOption(withSettingsOptions(y))
      .positional('command', { type: 'string', describe: 'Shell command (for the Bash tool)' })
      .option('tool', { type: 'string', default: 'Bash', describe: 'Tool name' })
      .option('input', { type: 'string', describe: 'Tool input as JSON (for tools other than Bash)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the verdict as JSON' })
      .option('jsonl', {
        type: 'boolean',
        default: false,
        describe: 'Read PreToolUse-shaped JSON lines on stdin, print one verdict line each, in order',
      })
      .example('$0 classify "git push --force origin main"', 'Which rule decides, and where it is written')
      .example('$0 classify --tool Read --input \'{"file_path":".env"}\'', 'A file tool')
      .example('cat calls.jsonl | $0 classify --jsonl', 'Many calls, streamed'),
  run: async (raw, io) => {
    const args = raw as unknown as ClassifyArgs;
    const settings = await loadFromArgs(args);
    const failed = reportDiagnostics(settings, io);
    const classifier = createClassifier(settings);
    if (args.jsonl) {
      let bad = 0;
      const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      let n = 0;
      for await (const line of lines) {
        n++;
        if (line.trim() === '') continue;
        const call = parseCallLine(line, args.mode);
        if ('error' in call) {
          bad++;
          io.out(JSON.stringify({ decision: 'ask', reason: `line ${n}: ${call.error}`, error: call.error }));
          continue;
        }
        io.out(JSON.stringify(verdictJson(await classifier.classify(call))));
      }
      return failed ? EXIT.usage : bad > 0 ? EXIT.findings : EXIT.ok;
    }
    let call: ToolCall;
    if (args.tool === 'Bash' && args.input === undefined) {
      if (args.command === undefined) {
        io.err('automode: give a command, or --tool and --input');
        return EXIT.usage;
      }
      call = { tool: 'Bash', input: { command: args.command } };
    } else {
      const parsed = parseInput(args.input ?? '{}');
      if ('error' in parsed) {
        io.err(`automode: --input is not a JSON object: ${parsed.error}`);
        return EXIT.usage;
      }
      call = { tool: args.tool, input: parsed.value };
    }
    if (args.mode) call.mode = args.mode;
    const verdict = await classifier.classify(call);
    if (args.json) printJson(io, verdictJson(verdict));
    else io.out(renderVerdict(verdict, io.colors));
    return failed ? EXIT.usage : EXIT.ok;
  },
};

function parseInput(text: string): { value: Record<string, unknown> } | { error: string } {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { error: 'not an object' };
    return { value: value as Record<string, unknown> };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** A PreToolUse-shaped object: `{tool_name, tool_input, cwd?, permission_mode?}`. */
export function parseCallLine(line: string, mode?: Mode): ToolCall | { error: string } {
  const parsed = parseInput(line);
  if ('error' in parsed) return parsed;
  const { tool_name, tool_input, cwd, permission_mode } = parsed.value;
  if (typeof tool_name !== 'string' || tool_name === '')
    return { error: 'tool_name must be a non-empty string' };
  if (typeof tool_input !== 'object' || tool_input === null || Array.isArray(tool_input)) {
    return { error: 'tool_input must be an object' };
  }
  const call: ToolCall = { tool: tool_name, input: tool_input as Record<string, unknown> };
  if (typeof cwd === 'string') call.cwd = cwd;
  const m = mode ?? (typeof permission_mode === 'string' ? toMode(permission_mode) : undefined);
  if (m) call.mode = m;
  return call;
}

export function toMode(text: string): Mode | undefined {
  const modes: Record<string, Mode> = {
    default: 'default',
    manual: 'default',
    acceptEdits: 'acceptEdits',
    plan: 'plan',
    auto: 'auto',
    dontAsk: 'dontAsk',
    bypassPermissions: 'bypassPermissions',
  };
  return modes[text];
}
