import { analyzeBash } from '../bash/analyze.js';
import type { Analysis } from '../bash/types.js';
import { classifyBash } from '../classifier/bash.js';
import { isBroadAllow } from '../classifier/broad.js';
import type { DecisionContext } from '../classifier/context.js';
import { RuleIndex } from '../classifier/rule-index.js';
import { classifyBashInput, classifyTool } from '../classifier/tools.js';
import { combine, type PartVerdict, type Verdict } from '../classifier/verdict.js';
import { addRules } from '../rules/add-rules.js';
import { formatDiagnostic } from '../rules/diagnostics.js';
import type { LoadedSettings } from '../rules/settings-types.js';
import type { Behavior, Mode } from '../rules/types.js';
import { applyMode } from './modes.js';

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Working folder of the call; defaults to the settings' folder. */
  cwd?: string;
  /** Permission mode; defaults to the settings' `defaultMode`, then `default`. */
  mode?: Mode;
}

export interface ClassifiedVerdict extends Verdict {
  /** The bash analysis, for Bash calls. */
  analysis?: Analysis;
}

export interface Classifier {
  readonly settings: LoadedSettings;
  classify(call: ToolCall): Promise<ClassifiedVerdict>;
  /** Grants made during a session or carried by a slash command; returns a new classifier. */
  withRules(
    source: 'session' | 'command',
    rules: readonly { behavior: Behavior; text: string }[],
  ): Classifier;
}

export interface ClassifierOptions {
  /** Whether a model judges what the rules leave open; without one, auto mode asks. */
  hasModel?: boolean;
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
  const classify = async (call: ToolCall): Promise<ClassifiedVerdict> => {
    const mode = resolveMode(settings, call.mode);
    const ctx: DecisionContext = {
      cwd: call.cwd ?? settings.cwd,
      home: settings.home,
      mode,
      index: indexFor(mode),
      additionalDirectories,
      failed: settings.failed,
      hasModel: options.hasModel ?? false,
    };
    let analysis: Analysis | undefined;
    let parts: PartVerdict[];
    if (call.tool === 'Bash') {
      const command = call.input.command;
      if (typeof command !== 'string') {
        parts = [
          { subject: 'Bash', decision: 'ask', by: 'opaque', reason: 'the Bash input has no command string' },
        ];
      } else {
        analysis = await analyzeBash(command);
        parts = [...classifyBashInput(call.input, ctx), ...classifyBash(analysis, ctx)];
      }
    } else {
      parts = classifyTool(call.tool, call.input, ctx);
    }
    if (failure) parts.push(failure);
    parts = applyMode(parts, mode);
    const verdict: ClassifiedVerdict = combine(call.tool, mode, parts);
    if (analysis) verdict.analysis = analysis;
    return verdict;
  };
  return {
    settings,
    classify,
    withRules: (source, rules) => createClassifier(addRules(settings, source, rules), options),
  };
}
