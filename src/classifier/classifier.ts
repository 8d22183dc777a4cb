import type { Analysis } from '../bash/index.js';
import { analyzeBash } from '../bash/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { DecisionContext } from '../policy/index.js';
import {
  applyMode,
  classifyBash,
  classifyBashInput,
  classifyTool,
  combine,
  isBroadAllow,
  type PartVerdict,
  RuleIndex,
  type Verdict,
} from '../policy/index.js';
import type { Behavior, LoadedSettings } from '../rules/index.js';
import { addRules, formatDiagnostic } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import type { Judgement } from './judge.js';
import { DenialTracker, type ModelInfo, modelInfo, modelParts, needsModel } from './model-parts.js';
import type { ModelStage } from './model-stage.js';
import type { TranscriptContext } from './transcript.js';

export type { TranscriptContext };

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Working folder of the call; defaults to the settings' folder. */
  cwd?: string;
  /** Permission mode; defaults to the settings' `defaultMode`, then `default`. */
  mode?: Mode;
}

export interface ClassifyOptions {
  /** The session so far: the user's messages and the agent's earlier tool calls (never tool results). */
  context?: TranscriptContext;
  signal?: AbortSignal;
}

export interface ClassifiedVerdict extends Verdict {
  /** The bash analysis, for Bash calls. */
  analysis?: Analysis;
  /** What the model said, when it was asked. */
  model?: ModelInfo;
}

/** A classification started ahead of need: the agent calls `speculate` as soon as a tool_use block is complete. */
export interface Speculation {
  /** The full verdict, the model's judgement included. */
  readonly promise: Promise<ClassifiedVerdict>;
  /**
   * The verdict of the rules alone, before any model call (the same analysis, done once). With no model
   * configured, or nothing left open, it is the full verdict.
   */
  readonly rules: Promise<ClassifiedVerdict>;
  /** Stops waiting; the model call is aborted when no one else waits for the same answer. */
  cancel(): void;
}

export interface Classifier {
  readonly settings: LoadedSettings;
  classify(call: ToolCall, options?: ClassifyOptions): Promise<ClassifiedVerdict>;
  speculate(call: ToolCall, options?: ClassifyOptions): Speculation;
  /** Grants made during a session or carried by a slash command; returns a new classifier. */
  withRules(
    source: 'session' | 'command',
    rules: readonly { behavior: Behavior; text: string }[],
  ): Classifier;
}

export interface ClassifierOptions {
  /** The model that judges what the rules leave open (the live client or a replay of recorded answers). */
  model?: ModelCaller;
  /** Limit for each model call, retries included (default 30 s). */
  modelTimeoutMs?: number;
  cacheTtlMs?: number;
  cacheSize?: number;
}

interface RulesPhase {
  call: ToolCall;
  mode: Mode;
  cwd: string;
  /** Before the mode is applied: the model stage works on these. */
  parts: PartVerdict[];
  analysis: Analysis | undefined;
  verdict: ClassifiedVerdict;
}

export function resolveMode(settings: LoadedSettings, requested?: Mode): Mode {
  const mode = requested ?? settings.defaultMode ?? 'default';
  if (mode === 'bypassPermissions' && settings.scalars.disableBypassPermissionsMode) return 'default';
  return mode;
}

export function createClassifier(settings: LoadedSettings, options: ClassifierOptions = {}): Classifier {
  const index = new RuleIndex(settings.rules);
  let autoIndex: RuleIndex | undefined;
  /** Auto mode sets broad allow rules aside, as Claude Code does when entering it. */
  const indexFor = (mode: Mode): RuleIndex => {
    if (mode !== 'auto') return index;
    autoIndex ??= new RuleIndex(settings.rules.filter((r) => !isBroadAllow(r)));
    return autoIndex;
  };
  const additionalDirectories = settings.additionalDirectories.map((d) => d.path);
  const failure: PartVerdict | undefined =
    settings.failed.length > 0
      ? {
          subject: 'settings',
          decision: 'ask',
          by: 'settings-error',
          reason: `settings could not be loaded: ${formatDiagnostic(settings.failed[0]!)}`,
        }
      : undefined;
  let stagePromise: Promise<ModelStage> | undefined;
  /** The model stage and its dependencies load on first use: rule-only decisions never pay for them. */
  const modelStage = (caller: ModelCaller): Promise<ModelStage> => {
    stagePromise ??= import('./model-stage.js').then(
      ({ ModelStage }) =>
        new ModelStage({
          caller,
          ...(options.modelTimeoutMs !== undefined ? { timeoutMs: options.modelTimeoutMs } : {}),
          ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
          ...(options.cacheSize !== undefined ? { cacheSize: options.cacheSize } : {}),
        }),
    );
    return stagePromise;
  };
  const denials = new DenialTracker();

  /** The deterministic checks: everything but the model. */
  const rulesPhase = async (call: ToolCall): Promise<RulesPhase> => {
    const mode = resolveMode(settings, call.mode);
    const cwd = call.cwd ?? settings.cwd;
    const ctx: DecisionContext = {
      cwd,
      home: settings.home,
      mode,
      index: indexFor(mode),
      additionalDirectories,
      failed: settings.failed,
      hasModel: options.model !== undefined,
      realPaths: new Map(),
      folders: new Map(),
    };
    let analysis: Analysis | undefined;
    let parts: PartVerdict[];
    try {
      if (call.tool === 'Bash') {
        const command = call.input.command;
        if (typeof command !== 'string') {
          parts = [
            {
              subject: 'Bash',
              decision: 'ask',
              by: 'opaque',
              reason: 'the Bash input has no command string',
            },
          ];
        } else {
          analysis = await analyzeBash(command);
          parts = [...classifyBashInput(call.input, ctx), ...classifyBash(analysis, ctx)];
        }
      } else {
        parts = classifyTool(call.tool, call.input, ctx);
      }
    } catch (e) {
      const reason = `the checks failed, so it asks: ${e instanceof Error ? e.message : String(e)}`;
      parts = [{ subject: call.tool, decision: 'ask', by: 'opaque', reason }];
    }
    if (failure) parts.push(failure);
    const verdict: ClassifiedVerdict = combine(call.tool, mode, applyMode(parts, mode));
    if (analysis) verdict.analysis = analysis;
    return { call, mode, cwd, parts, analysis, verdict };
  };

  /** The model judges what the rules leave open, when one is configured and something is left open. */
  const modelPhase = async (phase: RulesPhase, extra: ClassifyOptions): Promise<ClassifiedVerdict> => {
    const { call, mode, cwd, analysis } = phase;
    const allShell = call.tool === 'Bash' && settings.prose.classifyAllShell === true;
    if (!options.model || !needsModel(phase.parts, mode, allShell)) return phase.verdict;
    const stage = await modelStage(options.model);
    const request = {
      prose: settings.prose,
      tool: call.tool,
      input: call.input,
      context: extra.context,
      mode,
      cwd,
      ...(analysis ? { analysis } : {}),
    };
    const { judgement, cached } = await stage.judge(stage.key(request), request, extra.signal);
    const tracked = denials.record(judgement, cached);
    const parts = applyMode(modelParts(phase.parts, tracked, mode, allShell), mode);
    const verdict: ClassifiedVerdict = combine(call.tool, mode, parts);
    if (analysis) verdict.analysis = analysis;
    verdict.model = modelInfo(judgement, cached, tracked !== judgement);
    return verdict;
  };

  const classify = async (call: ToolCall, extra: ClassifyOptions = {}): Promise<ClassifiedVerdict> =>
    modelPhase(await rulesPhase(call), extra);

  const speculate = (call: ToolCall, extra: ClassifyOptions = {}): Speculation => {
    const controller = new AbortController();
    const outer = extra.signal;
    if (outer) outer.addEventListener('abort', () => controller.abort(), { once: true });
    const first = rulesPhase(call);
    const rules = first.then((phase) => phase.verdict);
    // Nobody has to wait for the rules' verdict; its failure also fails `promise`, where it is reported.
    rules.catch(() => undefined);
    const promise = first.then((phase) => modelPhase(phase, { ...extra, signal: controller.signal }));
    return { promise, rules, cancel: () => controller.abort() };
  };

  return {
    settings,
    classify,
    speculate,
    withRules: (source, rules) => createClassifier(addRules(settings, source, rules), options),
  };
}

export type { Judgement };
