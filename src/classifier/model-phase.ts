import type { ModelCaller } from '../llm/index.js';
import { applyMode, combine } from '../policy/index.js';
import type { LoadedSettings } from '../rules/index.js';
import type { CachedJudge } from './cached-judge.js';
import { markAsk, modelInfo, modelParts, needsModel, softAsks } from './model-parts.js';
import { projectInstructions } from './project-instructions.js';
import type { RulesPhase } from './rules-phase.js';
import type {
  ClassifiedVerdict,
  ClassifierOptions,
  ClassifierSession,
  ClassifyOptions,
  Judgement,
} from './types.js';

/** The model's judgement of what a rules phase left open; the rules' verdict when nothing is. */
export type ModelPhaseRunner = (phase: RulesPhase, extra: ClassifyOptions) => Promise<ClassifiedVerdict>;

export type LazyJudge = (caller: ModelCaller) => Promise<CachedJudge>;

/** The judge and its dependencies load on first use: rule-only decisions never pay for them. */
export function lazyJudge(options: ClassifierOptions): LazyJudge {
  let judgePromise: Promise<CachedJudge> | undefined;
  return (caller) => {
    judgePromise ??= import('./cached-judge.js').then(
      ({ CachedJudge }) =>
        new CachedJudge({
          caller,
          ...(options.modelTimeoutMs !== undefined ? { timeoutMs: options.modelTimeoutMs } : {}),
          ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
          ...(options.cacheSize !== undefined ? { cacheSize: options.cacheSize } : {}),
          ...(options.projectEnvironment ? { projectEnvironment: true } : {}),
        }),
    );
    return judgePromise;
  };
}

/** The judgement applied to the rules' parts, then the mode; `tracked` is the judgement after denial tracking. */
function applyJudgement(
  phase: RulesPhase,
  judgement: Judgement,
  tracked: Judgement,
  cached: boolean,
  allShell: boolean,
): ClassifiedVerdict {
  const { call, mode, analysis } = phase;
  const parts = applyMode(modelParts(phase.parts, tracked, mode, allShell), mode);
  const verdict: ClassifiedVerdict = markAsk(combine(call.tool, mode, parts), phase.parts, mode);
  if (analysis) verdict.analysis = analysis;
  verdict.model = modelInfo(judgement, cached, tracked !== judgement);
  return verdict;
}

/** The model phase of a classifier: the model judges what the rules leave open, when one is configured. */
export function modelPhase(
  settings: LoadedSettings,
  options: ClassifierOptions,
  cachedJudge: LazyJudge,
  session: ClassifierSession,
): ModelPhaseRunner {
  return async (phase, extra) => {
    const { call, mode, cwd, analysis } = phase;
    const allShell = call.tool === 'Bash' && settings.prose.classifyAllShell === true;
    if (!options.model || !needsModel(phase.parts, mode, allShell)) return phase.verdict;
    const judge = await cachedJudge(options.model);
    const soft = softAsks(phase.parts, mode);
    const transcript = typeof extra.context === 'function' ? await extra.context() : extra.context;
    const instructions = projectInstructions(settings.projectRoot ?? settings.cwd);
    const context = instructions ? { ...transcript, projectInstructions: instructions } : transcript;
    const request = {
      prose: settings.prose,
      tool: call.tool,
      input: call.input,
      context,
      mode,
      cwd,
      ...(analysis ? { analysis } : {}),
      ...(soft.length > 0 ? { soft } : {}),
    };
    const { judgement, cached } = await judge.judge(judge.key(request), request, extra.signal);
    const tracked = (extra.session ?? session).denials.record(judgement, cached);
    return applyJudgement(phase, judgement, tracked, cached, allShell);
  };
}
