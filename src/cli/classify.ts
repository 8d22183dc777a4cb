import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { TranscriptContext } from '../classifier/index.js';
import { createClassifier, readTranscript, type ToolCall } from '../classifier/index.js';
import type { Decision } from '../policy/index.js';
import { type Mode, parseCallLine, parseJsonObject } from '../shared/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT, printJson } from './output.js';
import { renderVerdict, verdictJson } from './render-verdict.js';
import {
  loadFromArgs,
  modeOption,
  reportDiagnostics,
  type SettingsArgs,
  withSettingsOptions,
} from './settings-args.js';
import type { CommandModule } from './types.js';

interface ClassifyArgs extends SettingsArgs, ModelArgs {
  context?: string;
  transcript?: string;
  command?: string;
  tool: string;
  input?: string;
  mode?: Mode;
  json: boolean;
  jsonl: boolean;
  exitCode: boolean;
}

/** `--exit-code`: the decision is the exit code, and a usage or configuration error is EX_USAGE. */
export const DECISION_EXIT = { allow: 0, ask: 1, deny: 2, usage: 64 } as const;
const STRICTNESS: Decision[] = ['allow', 'ask', 'deny'];

export const classifyCommand: CommandModule = {
  command: 'classify [command]',
  describe: 'Decide allow, ask or deny for a tool call, with the rule and file that decided',
  builder: (y) =>
    withModelOptions(modeOption(withSettingsOptions(y)))
      .positional('command', { type: 'string', describe: 'Shell command (for the Bash tool)' })
      .option('context', {
        type: 'string',
        describe:
          'Session context for the model: JSON file {"userMessages": [...], "toolCalls": [{"tool","input"}]}',
      })
      .option('transcript', {
        type: 'string',
        describe: 'Session context from a Claude Code transcript (JSONL)',
      })
      .option('tool', { type: 'string', default: 'Bash', describe: 'Tool name' })
      .option('input', { type: 'string', describe: 'Tool input as JSON (for tools other than Bash)' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the verdict as JSON' })
      .option('jsonl', {
        type: 'boolean',
        default: false,
        describe: 'Read PreToolUse-shaped JSON lines on stdin, print one verdict line each, in order',
      })
      .option('exit-code', {
        type: 'boolean',
        default: false,
        describe:
          'Exit 0 allow, 1 ask, 2 deny (with --jsonl the strictest); 64 for a usage or configuration error',
      })
      .example('$0 classify "git push --force origin main"', 'Which rule decides, and where it is written')
      .example('$0 classify --tool Read --input \'{"file_path":".env"}\'', 'A file tool')
      .example('cat calls.jsonl | $0 classify --jsonl', 'Many calls, streamed')
      .example('$0 classify --exit-code "$CMD" >/dev/null || exit', 'In a script: go on only when allowed'),
  usageExit: (argv) => (argv.includes('--exit-code') ? DECISION_EXIT.usage : undefined),
  run: async (raw, io) => {
    const args = raw as unknown as ClassifyArgs;
    const usage: number = args.exitCode ? DECISION_EXIT.usage : EXIT.usage;
    const settings = await loadFromArgs(args);
    const failed = reportDiagnostics(settings, io);
    let model: Awaited<ReturnType<typeof modelFromArgs>>;
    let context: TranscriptContext | undefined;
    try {
      model = await modelFromArgs(args);
      context = await contextFromArgs(args);
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return usage;
    }
    const classifier = createClassifier(settings, model ? { model, projectEnvironment: true } : {});
    const done = async (code: number) => {
      const flushed =
        model && 'flush' in model
          ? await (model as { flush(): Promise<{ ok: boolean }> }).flush()
          : undefined;
      if (flushed && !flushed.ok) io.err('automode: the recording could not be written in full');
      return code;
    };
    if (args.jsonl) {
      let bad = 0;
      let strictest: Decision = 'allow';
      const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
      let n = 0;
      for await (const line of lines) {
        n++;
        if (line.trim() === '') continue;
        const call = parseCallLine(line);
        if ('error' in call) {
          bad++;
          io.out(JSON.stringify({ decision: 'ask', reason: `line ${n}: ${call.error}`, error: call.error }));
          continue;
        }
        if (args.mode) call.mode = args.mode;
        const verdict = await classifier.classify(call);
        if (STRICTNESS.indexOf(verdict.decision) > STRICTNESS.indexOf(strictest))
          strictest = verdict.decision;
        io.out(JSON.stringify(verdictJson(verdict)));
      }
      if (failed || (args.exitCode && bad > 0)) return done(usage);
      if (args.exitCode) return done(DECISION_EXIT[strictest]);
      return done(bad > 0 ? EXIT.findings : EXIT.ok);
    }
    let call: ToolCall;
    if (args.tool === 'Bash' && args.input === undefined) {
      if (args.command === undefined) {
        io.err('automode: give a command, or --tool and --input');
        return usage;
      }
      call = { tool: 'Bash', input: { command: args.command } };
    } else {
      const parsed = parseJsonObject(args.input ?? '{}');
      if ('error' in parsed) {
        io.err(`automode: --input is not a JSON object: ${parsed.error}`);
        return usage;
      }
      call = { tool: args.tool, input: parsed.value };
    }
    if (args.mode) call.mode = args.mode;
    const verdict = await classifier.classify(call, context ? { context } : {});
    if (args.json) printJson(io, verdictJson(verdict));
    else io.out(renderVerdict(verdict, io.colors));
    if (failed) return done(usage);
    return done(args.exitCode ? DECISION_EXIT[verdict.decision] : EXIT.ok);
  },
};

async function contextFromArgs(args: ClassifyArgs): Promise<TranscriptContext | undefined> {
  if (args.transcript) return readTranscript(args.transcript);
  if (!args.context) return undefined;
  const parsed = parseJsonObject(await readFile(args.context, 'utf8'));
  if ('error' in parsed) throw new Error(`--context ${args.context}: ${parsed.error}`);
  return parsed.value as TranscriptContext;
}
