import path from 'node:path';
import {
  AgentSession,
  type CallRecord,
  decisionOf,
  type HookStop,
  playScript,
  readScript,
  runAgent,
} from '../eval/index.js';
import { DEFAULT_MODELS } from '../llm/index.js';
import { type PermissionHandler, Sandbox, stopSandboxRuntime } from '../pipeline/index.js';
import type { Colors, Mode } from '../shared/index.js';
import { isModelConfigured } from '../shared/index.js';
import { type ModelArgs, modelFromArgs, withModelOptions } from './model-args.js';
import { EXIT, type Io, printJson } from './output.js';
import { decisionColor } from './render-verdict.js';
import {
  loadFromArgs,
  modeOption,
  reportDiagnostics,
  type SettingsArgs,
  withSettingsOptions,
} from './settings-args.js';
import type { CommandModule } from './types.js';

interface AgentArgs extends SettingsArgs, ModelArgs {
  task?: string;
  script?: string;
  agentModel?: string;
  maxTurns: number;
  mode?: Mode;
  json: boolean;
  mcp: boolean;
  sandbox: boolean;
}

function callLine(r: CallRecord, c: Colors): string {
  const d = decisionOf(r);
  const what =
    r.tool === 'Bash' && typeof (r.input as { command?: unknown })?.command === 'string'
      ? (r.input as { command: string }).command.replace(/\n/g, ' ⏎ ')
      : `${r.tool} ${JSON.stringify(r.input)}`;
  const decision = d === 'error' ? c.red('error') : decisionColor(c, d);
  const why = d === 'error' ? `${r.failedAt}: ${r.kind}` : `${r.by}: ${r.reason ?? ''}`;
  const ran = r.decision === 'allow' ? (r.isError ? c.red(' (failed)') : c.dim(' (ran)')) : '';
  return `${decision} ${what.length > 100 ? `${what.slice(0, 99)}…` : what}${ran}\n      ${c.dim(why)}`;
}

function stoppedLine(stop: HookStop): string {
  return `A ${stop.event} hook of ${stop.toolUseId} stopped the agent: ${stop.reason}`;
}

/** The terminal prompt when a person is at the terminal; otherwise hooks and the classifier, else deny. */
async function handlerFor(args: AgentArgs): Promise<PermissionHandler | undefined> {
  if (args.json || process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  const { interactiveHandler } = await import('../pipeline/index.js');
  const { terminalPrompt } = await import('../pipeline/index.js');
  return interactiveHandler({ prompt: terminalPrompt({ input: process.stdin, output: process.stderr }) });
}

/** The MCP servers connected, with their tools, and what went wrong setting them up. */
function mcpReport(session: AgentSession) {
  return { servers: session.mcpServers(), problems: session.problems };
}

/** Prints whole lines of streamed text as they complete. */
function lineWriter(io: Io) {
  let pending = '';
  return {
    write(text: string) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) io.out(l);
    },
    flush() {
      if (pending) io.out(pending);
      pending = '';
    },
  };
}

const command: CommandModule = {
  command: 'agent [task]',
  describe: 'Run a minimal agent (or replay recorded turns) with every tool call decided by the pipeline',
  builder: (y) =>
    withModelOptions(modeOption(withSettingsOptions(y)))
      .option('model', {
        type: 'string',
        describe: "The classifier's model for both stages (default: AUTOMODE_MODEL, then built-in)",
      })
      .positional('task', { type: 'string', describe: 'What the agent should do' })
      .option('script', {
        type: 'string',
        describe:
          'Replay recorded assistant turns (a JSONL transcript, with SSE turns) instead of asking a model',
      })
      .option('agent-model', {
        type: 'string',
        describe: `Model that does the task (default: AUTOMODE_AGENT_MODEL, then ${DEFAULT_MODELS[2]})`,
      })
      .option('max-turns', { type: 'number', default: 20, describe: 'Stop after this many model turns' })
      .option('json', { type: 'boolean', default: false, describe: 'Print the run as one JSON object' })
      .option('mcp', {
        type: 'boolean',
        default: true,
        describe:
          'Connect the MCP servers of the settings and of the approved .mcp.json; their tools are deferred ' +
          '(found with ToolSearch) as ENABLE_TOOL_SEARCH says: unset or true, auto, auto:N (percent of the context), false',
      })
      .option('sandbox', {
        type: 'boolean',
        default: false,
        describe:
          "Run Bash in Claude Code's sandbox (bubblewrap on Linux, Seatbelt on macOS) even where the settings do " +
          'not set sandbox.enabled: writes only in the project and the temp folder, network only to allowed hosts; ' +
          "the settings' sandbox block applies. Where it cannot start, calls are asked, never run unsandboxed",
      })
      .example('$0 agent "make the failing test pass" --cwd ./repo --mode auto', 'A live agent')
      .example(
        '$0 agent --script session.jsonl --cwd /tmp/sandbox',
        'Replay a recorded session through the pipeline',
      ),
  run: async (raw, io) => {
    const args = raw as unknown as AgentArgs;
    if ((args.task === undefined) === (args.script === undefined)) {
      io.err('automode: give a task, or --script FILE');
      return EXIT.usage;
    }
    if (!(Number.isInteger(args.maxTurns) && args.maxTurns > 0)) {
      io.err('automode: --max-turns takes a positive whole number');
      return EXIT.usage;
    }
    const settings = await loadFromArgs(args);
    if (reportDiagnostics(settings, io)) return EXIT.usage;
    let classifierModel: Awaited<ReturnType<typeof modelFromArgs>>;
    try {
      classifierModel = await modelFromArgs(args);
    } catch (e) {
      io.err(`automode: ${(e as Error).message}`);
      return EXIT.usage;
    }
    if (args.script === undefined && !isModelConfigured()) {
      io.err('automode: the agent needs a model: set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL');
      return EXIT.usage;
    }
    const handler = await handlerFor(args);
    const sandbox = new Sandbox(settings, args.sandbox ? { enabled: true } : {});
    const session = await AgentSession.create({
      settings,
      cwd: settings.cwd,
      ...(classifierModel ? { classifierModel } : {}),
      ...(args.mode ? { mode: args.mode } : {}),
      ...(handler ? { handler } : {}),
      mcp: args.mcp,
      ...(sandbox.enabled ? { sandbox } : {}),
    });
    for (const p of session.problems) io.err(io.errColors.yellow(`automode: ${p}`));
    // The MCP servers and background commands stop before the command returns, however it returns.
    try {
      const onRecord = args.json ? undefined : (r: CallRecord) => io.err(callLine(r, io.errColors));
      const flush = async () => {
        if (classifierModel && 'flush' in classifierModel) {
          const done = await (classifierModel as { flush(): Promise<{ ok: boolean }> }).flush();
          if (!done.ok) io.err('automode: the recording could not be written in full');
        }
      };

      if (args.script) {
        const file = path.resolve(args.script);
        let read: Awaited<ReturnType<typeof readScript>>;
        try {
          read = await readScript(file);
        } catch (e) {
          io.err(`automode: cannot read ${file}: ${(e as Error).message}`);
          return EXIT.usage;
        }
        if (read.problems.length > 0) {
          for (const p of read.problems) io.err(`automode: ${file}:${p.line}: ${p.message}`);
          return EXIT.usage;
        }
        const run = await playScript(read.script, session, onRecord);
        await flush();
        const failed = run.checks.filter((c) => !c.ok);
        if (args.json)
          printJson(io, {
            calls: run.records,
            checks: run.checks,
            mcp: mcpReport(session),
            ...(run.stop ? { stop: run.stop } : {}),
          });
        else {
          if (run.stop) io.out(stoppedLine(run.stop));
          io.out(
            `${run.records.length} calls replayed; ${run.checks.length - failed.length} of ${run.checks.length} labels met`,
          );
          for (const f of failed)
            io.out(
              `  ${file}:${f.line}: ${f.toolUseId ?? 'the run'} expected ${f.expected}, got ${f.actual}`,
            );
        }
        return failed.length > 0 ? EXIT.findings : EXIT.ok;
      }

      const { createModelClient } = await import('../llm/client.js');
      const agentModel = args.agentModel ?? process.env.AUTOMODE_AGENT_MODEL ?? DEFAULT_MODELS[2];
      const client = createModelClient({ model: agentModel, timeoutMs: 600_000, attemptTimeoutMs: 600_000 });
      const text = lineWriter(io);
      const run = await runAgent(args.task!, session, {
        sdk: client.sdk,
        model: agentModel,
        maxTurns: args.maxTurns,
        ...(args.json ? {} : { onText: (t: string) => text.write(t) }),
        ...(onRecord ? { onRecord } : {}),
      });
      text.flush();
      await flush();
      const { records, ...summary } = run;
      if (args.json) printJson(io, { ...summary, calls: records, mcp: mcpReport(session) });
      else {
        const asked = run.records.filter((r) => r.asked).length;
        const denied = run.records.filter((r) => r.decision === 'deny').length;
        io.err(
          io.errColors.dim(
            `${run.turns} turns, ${run.records.length} tool calls (${denied} denied, ${asked} asked); ${run.usage.input} input and ${run.usage.output} output tokens; stopped: ${run.stopReason}${run.error ? ` (${run.error})` : ''}`,
          ),
        );
        if (run.stop) io.err(stoppedLine(run.stop));
      }
      return run.stopReason === 'error' || run.stopReason === 'max-turns' ? EXIT.findings : EXIT.ok;
    } finally {
      sandbox.close();
      await session.close();
    }
  },
};

/** The sandbox's proxies would keep the process alive: they stop when the command ends, however it ends. */
export const agentCommand: CommandModule = {
  ...command,
  run: (raw, io) => command.run(raw, io).finally(stopSandboxRuntime),
};
