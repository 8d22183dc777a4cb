import { rmSync } from 'node:fs';
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { TranscriptContext } from '../classifier/index.js';
import {
  type ClassifiedVerdict,
  type Classifier,
  createClassifier,
  type ToolCall,
} from '../classifier/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { PermissionHandler, PermissionMessage, ToolResultMessage } from '../pipeline/index.js';
import {
  type AnyTool,
  buildTool,
  createToolUseContext,
  executeToolUse,
  fromAuto,
  referenceTools,
  Sandbox,
  SessionState,
  ToolRegistry,
} from '../pipeline/index.js';
import type { LoadedSettings } from '../rules/index.js';
import { makeDirectories } from '../shared/index.js';
import type { Decided, Decider } from './decide.js';

export const NOT_EXECUTED =
  'Not executed: automode eval decides permissions only (use --execute to run allowed calls).';
const ASKED = 'a human would be asked';

async function* notExecuted(): AsyncIterable<{ type: 'result'; data: string }> {
  yield { type: 'result', data: NOT_EXECUTED };
}

/**
 * A tool as the permission stage sees it, that never runs: the real tool's name, schema and permission check,
 * without the checks that need the files to exist (the evaluation's project is not on disk).
 */
function standIn(tool: AnyTool): AnyTool {
  return {
    ...tool,
    validateInput: () => ({ result: true }),
    call: notExecuted,
    mapToolResult: () => NOT_EXECUTED,
  };
}

/** A tool the harness has no implementation of (WebFetch, MCP tools): any input, no permission of its own. */
function unknownTool(name: string): AnyTool {
  return buildTool<unknown, string>({
    name,
    description: `${name} (stand-in: automode eval has no implementation of it)`,
    inputSchema: z.looseObject({}) as z.ZodType<unknown>,
    call: notExecuted,
    mapToolResult: () => NOT_EXECUTED,
  }) as AnyTool;
}

/** Keeps the last full verdict the pipeline asked for (its speculative classification). */
function watching(classifier: Classifier): {
  classifier: Classifier;
  last(): Promise<ClassifiedVerdict> | undefined;
} {
  let last: Promise<ClassifiedVerdict> | undefined;
  const wrapped: Classifier = {
    settings: classifier.settings,
    classify(call, options) {
      last = classifier.classify(call, options);
      return last;
    },
    speculate(call, options) {
      const s = classifier.speculate(call, options);
      last = s.promise;
      return s;
    },
    verdictWithRules: (call, rules) => classifier.verdictWithRules(call, rules),
    withRules: (source, rules) => classifier.withRules(source, rules),
  };
  return { classifier: wrapped, last: () => last };
}

export interface PipelineDeciderOptions {
  /**
   * Run the calls the pipeline allows, for real, with the reference tools, in a workspace below `root` (the
   * settings' project and home folders). Files that a Read or Edit names are created first, inside `root` only.
   */
  execute?: { root: string; timeoutMs?: number; sandbox?: boolean };
}

/** Creates the file a file tool expects to find (Edit: containing the text it replaces) and records it as read. */
async function seed(call: ToolCall, cwd: string, root: string, session: SessionState): Promise<void> {
  const given = call.input.file_path;
  if (typeof given !== 'string' || !['Read', 'Edit', 'Write'].includes(call.tool)) return;
  const file = path.resolve(cwd, given);
  if (path.relative(root, file).startsWith('..')) return;
  if ((await stat(file).catch(() => undefined)) === undefined) {
    if (call.tool === 'Write') return;
    const old = call.input.old_string;
    makeDirectories(path.dirname(file));
    await writeFile(
      file,
      typeof old === 'string' && old ? `${old}\n` : 'placeholder created by automode eval\n',
    );
  }
  const content = await readFile(file, 'utf8');
  session.readFiles.set(file, { content, mtimeMs: (await stat(file)).mtimeMs });
}

let ids = 0;

/**
 * Decisions the way an agent meets them: every call goes through the tool pipeline (lookup, schema validation,
 * PreToolUse hooks beside the speculative classifier, the tool's own permission check, the permission stage with
 * its handler). The handler lets PermissionRequest hooks and the classifier answer; what neither settles is what
 * a human would be asked, and is recorded as `ask` (and not run).
 */
export function pipelineDecider(settings: LoadedSettings, options: PipelineDeciderOptions = {}): Decider {
  return {
    name: options.execute ? 'tool pipeline, allowed calls executed' : 'permission stage of the tool pipeline',
    session(model: ModelCaller | undefined) {
      const watched = watching(createClassifier(settings, model ? { model } : {}));
      const tools = options.execute ? referenceTools() : referenceTools().map(standIn);
      const registry = new ToolRegistry(tools);
      const session = new SessionState();
      // `execute.sandbox` turns the sandbox on whatever the settings say; otherwise `sandbox.enabled` decides.
      const sandbox = options.execute
        ? new Sandbox(settings, options.execute.sandbox ? { enabled: true } : {})
        : undefined;
      return async (call: ToolCall, context: TranscriptContext | undefined): Promise<Decided> => {
        if (!registry.find(call.tool)) registry.add(unknownTool(call.tool));
        let asked = false;
        const handler: PermissionHandler = async (request) => {
          const hook = fromAuto(await request.hooks(request.signal).catch(() => undefined));
          if (hook) return hook;
          const auto = fromAuto(await request.classifier?.catch(() => undefined));
          if (auto) return auto;
          asked = true;
          return { behavior: 'deny', by: 'eval', reason: `${request.reason} (${ASKED})` };
        };
        const cwd = call.cwd ?? settings.cwd;
        if (options.execute) await seed(call, cwd, options.execute.root, session);
        const ctx = createToolUseContext({
          classifier: watched.classifier,
          tools: registry,
          handler,
          cwd,
          session,
          ...(call.mode ? { mode: call.mode } : {}),
          context: () => context,
          resultsDir: await resultsDir(),
          ...(options.execute ? { toolTimeoutMs: options.execute.timeoutMs ?? 30_000 } : {}),
          ...(sandbox?.enabled ? { sandbox } : {}),
        });
        const block = {
          type: 'tool_use' as const,
          id: `toolu_eval_${++ids}`,
          name: call.tool,
          input: call.input,
        };
        let permission: PermissionMessage | undefined;
        let result: ToolResultMessage | undefined;
        let stop: string | undefined;
        for await (const m of executeToolUse(block, ctx)) {
          if (m.type === 'permission') permission = m;
          else if (m.type === 'tool_result') result = m;
          else if (m.type === 'hook' && m.stop !== undefined) stop ??= m.stop;
        }
        const pending = watched.last();
        const verdict = pending ? await pending : emptyVerdict(call);
        if (!permission) {
          const why = result?.error
            ? `${result.error.stage}: ${result.error.kind}`
            : 'no permission decision';
          return {
            verdict,
            decision: 'ask',
            source: 'error',
            reason: why,
            error: why,
            ...(stop !== undefined ? { stop } : {}),
          };
        }
        const decided: Decided = {
          verdict,
          decision: asked ? 'ask' : permission.decision,
          source: asked ? 'classifier' : permission.by,
          reason: permission.reason,
        };
        if (stop !== undefined) decided.stop = stop;
        if (options.execute && permission.decision === 'allow' && result) {
          decided.execution = { ok: result.error === undefined, durationMs: result.durationMs };
          if (result.error) {
            decided.execution.stage = result.error.stage;
            decided.execution.kind = result.error.kind;
          }
        }
        return decided;
      };
    },
  };
}

let sharedResults: Promise<string> | undefined;
function resultsDir(): Promise<string> {
  sharedResults ??= mkdtemp(path.join(tmpdir(), 'automode-eval-results-')).then((dir) => {
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  });
  return sharedResults;
}

function emptyVerdict(call: ToolCall): ClassifiedVerdict {
  return {
    decision: 'ask',
    reason: 'not classified',
    by: 'no-rule',
    tool: call.tool,
    mode: call.mode ?? '',
    parts: [],
  };
}
