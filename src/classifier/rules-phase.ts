import type { Analysis } from '../bash/index.js';
import { analyzeBash } from '../bash/index.js';
import type { DecisionContext } from '../policy/index.js';
import {
  applyMode,
  classifyBash,
  classifyBashInput,
  classifyTool,
  combine,
  EDIT_TOOLS,
  isBroadAllow,
  loadRuleChecks,
  type PartVerdict,
  RuleIndex,
} from '../policy/index.js';
import type { LoadedSettings, ReadServiceEntry } from '../rules/index.js';
import { canonicalToolName, formatDiagnostic } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import { toolCallOf } from './call-shape.js';
import { markAsk } from './model-parts.js';
import type { ClassifiedVerdict, HookToolCall, ToolCall } from './types.js';

/** What the deterministic checks found: the model phase starts from it. */
export interface RulesPhase {
  call: ToolCall;
  mode: Mode;
  cwd: string;
  /** Before the mode is applied: the model phase works on these. */
  parts: PartVerdict[];
  analysis: Analysis | undefined;
  verdict: ClassifiedVerdict;
}

/** The deterministic checks of one call: everything but the model. */
export type RulesPhaseRunner = (call: ToolCall | HookToolCall) => Promise<RulesPhase>;

export function resolveMode(settings: LoadedSettings, requested?: Mode): Mode {
  const mode = requested ?? settings.defaultMode ?? 'default';
  if (mode === 'bypassPermissions' && settings.scalars.disableBypassPermissionsMode) return 'default';
  return mode;
}

/**
 * Plan mode with `useAutoModeDuringPlan` on and auto mode available (a model configured) judges a call as auto
 * mode does, as Claude Code does (reference as of v2.1.240); edits still wait for the plan to be approved.
 */
function planAsAuto(settings: LoadedSettings, mode: Mode, tool: string, hasModel: boolean): Mode {
  if (mode !== 'plan' || !hasModel || EDIT_TOOLS.has(tool)) return mode;
  return settings.scalars.useAutoModeDuringPlan?.value === true ? 'auto' : mode;
}

/** The rule index of a mode; auto mode sets broad allow rules aside, as Claude Code does when entering it. */
function ruleIndexes(settings: LoadedSettings): (mode: Mode) => RuleIndex {
  const index = new RuleIndex(settings.rules);
  let autoIndex: RuleIndex | undefined;
  return (mode) => {
    if (mode !== 'auto') return index;
    autoIndex ??= new RuleIndex(settings.rules.filter((r) => !isBroadAllow(r)));
    return autoIndex;
  };
}

/** `automode.readServices` by program: the first entry (the highest-precedence source) names each. */
function readServicesOf(settings: LoadedSettings): ReadonlyMap<string, ReadServiceEntry> | undefined {
  if (!settings.readServices?.length) return undefined;
  const byProgram = new Map<string, ReadServiceEntry>();
  for (const entry of settings.readServices) {
    if (!byProgram.has(entry.program)) byProgram.set(entry.program, entry);
  }
  return byProgram;
}

/** Settings that failed to load make every call ask. */
function settingsFailure(settings: LoadedSettings): PartVerdict | undefined {
  if (settings.failed.length === 0) return undefined;
  return {
    subject: 'settings',
    decision: 'ask',
    by: 'settings-error',
    reason: `settings could not be loaded: ${formatDiagnostic(settings.failed[0]!)}`,
  };
}

interface Checked {
  parts: PartVerdict[];
  analysis?: Analysis;
}

/**
 * The per-part verdicts of a call: a Bash command is analysed first; a check that throws makes it ask (the
 * analysis, when done, is kept).
 */
async function checkCall(call: ToolCall, ctx: DecisionContext): Promise<Checked> {
  let analysis: Analysis | undefined;
  try {
    if (call.tool !== 'Bash') return { parts: classifyTool(call.tool, call.input, ctx) };
    const command = call.input.command;
    if (typeof command !== 'string') {
      const reason = 'the Bash input has no command string';
      return { parts: [{ subject: 'Bash', decision: 'ask', by: 'opaque', reason }] };
    }
    analysis = await analyzeBash(command);
    return { parts: [...classifyBashInput(call.input, ctx), ...classifyBash(analysis, ctx)], analysis };
  } catch (e) {
    const reason = `the checks failed, so it asks: ${e instanceof Error ? e.message : String(e)}`;
    const parts: PartVerdict[] = [{ subject: call.tool, decision: 'ask', by: 'opaque', reason }];
    return analysis ? { parts, analysis } : { parts };
  }
}

/** A call of neither shape asks, fails closed, and says which shapes `classify` takes. */
function unreadable(reason: string, mode: Mode, cwd: string): RulesPhase {
  const parts: PartVerdict[] = [{ subject: 'call', decision: 'ask', by: 'opaque', reason }];
  const verdict = markAsk(combine('unknown', mode, parts), parts, mode);
  return { call: { tool: 'unknown', input: {} }, mode, cwd, parts, analysis: undefined, verdict };
}

/** The rules phase of a classifier: the settings' indexes and failure are prepared once, each call is checked. */
export function rulesPhase(settings: LoadedSettings, hasModel: boolean): RulesPhaseRunner {
  const indexFor = ruleIndexes(settings);
  // The session's working folders: its project root and the added folders (the call's cwd is added per call).
  const additionalDirectories = [
    ...(settings.projectRoot && settings.projectRoot !== settings.cwd ? [settings.projectRoot] : []),
    ...settings.additionalDirectories.map((d) => d.path),
  ];
  const failure = settingsFailure(settings);
  const readServices = readServicesOf(settings);
  return async (given) => {
    const asked = toolCallOf(given);
    if ('error' in asked) return unreadable(asked.error, resolveMode(settings), settings.cwd);
    const tool = canonicalToolName(asked.tool);
    const call = tool === asked.tool ? asked : { ...asked, tool };
    const mode = planAsAuto(settings, resolveMode(settings, call.mode), call.tool, hasModel);
    if (mode === 'auto') await loadRuleChecks();
    const cwd = call.cwd ?? settings.cwd;
    const ctx: DecisionContext = {
      cwd,
      root: settings.projectRoot ?? settings.cwd,
      home: settings.home,
      mode,
      index: indexFor(mode),
      additionalDirectories,
      failed: settings.failed,
      ...(readServices ? { readServices } : {}),
      hasModel,
      realPaths: new Map(),
      folders: new Map(),
    };
    const { parts, analysis } = await checkCall(call, ctx);
    if (failure) parts.push(failure);
    const verdict: ClassifiedVerdict = markAsk(combine(call.tool, mode, applyMode(parts, mode)), parts, mode);
    if (analysis) verdict.analysis = analysis;
    return { call, mode, cwd, parts, analysis, verdict };
  };
}
