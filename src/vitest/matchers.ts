import { type Classifier, createClassifier } from '../classifier/index.js';
import type { ModelCaller } from '../llm/index.js';
import type { LoadedSettings } from '../rules/index.js';
import type { Mode } from '../shared/index.js';
import type { Decision } from '../testing/index.js';
import {
  type CallSpec,
  configurationOf,
  describeCall,
  loadConfiguration,
  type ModelProvider,
  type ModelVerdict,
  modelProvider,
  NO_MODEL,
  needsModel,
  toCall,
} from '../testing/index.js';

/**
 * What the rules come from: loaded settings, a classifier, or paths (settings files, pattern rule files, a rule
 * repository folder) relative to the current folder, loaded once with the shipped rules.
 */
export type MatcherSettings = LoadedSettings | Classifier | string | readonly string[];

/** A Bash command, or a call: `{tool?, command | input, cwd?, mode?, context?}`. */
export type MatcherCall = string | CallSpec;

export interface MatcherOptions {
  /** The text or label of the rule expected to decide. */
  rule?: string;
  /** The permission mode (default: the settings' defaultMode). */
  mode?: Mode;
}

interface MatcherResult {
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}

type Matcher = (
  this: { isNot: boolean },
  received: MatcherCall,
  settings: MatcherSettings,
  options?: MatcherOptions,
) => Promise<MatcherResult>;

export interface AutomodeMatchers {
  toBeAllowedBy: Matcher;
  toBeAskedBy: Matcher;
  toBeDeniedBy: Matcher;
}

const PAST: Record<Decision, string> = { allow: 'allowed', ask: 'asked', deny: 'denied' };

/**
 * The matchers, with a model for the calls the rules leave to it: a model client (`createModelClient()`, a replay
 * of recorded exchanges) or a provider of model-backed classifiers.
 */
export function createAutomodeMatchers(
  options: { model?: ModelCaller | ModelProvider } = {},
): AutomodeMatchers {
  const provider = typeof options.model === 'object' ? modelProvider(options.model) : options.model;
  const make = (expected: Decision): Matcher =>
    async function (this: { isNot: boolean }, received, settings, matcherOptions = {}) {
      const verdict = await classifyFor(received, settings, matcherOptions.mode, provider);
      const rule = matcherOptions.rule;
      const decided = verdict.decision === expected;
      const named = rule === undefined || namesRule(verdict, rule);
      const call = typeof received === 'string' ? received : describeSpec(received);
      const wanted = `${PAST[expected]}${rule === undefined ? '' : ` by ${rule}`}`;
      return {
        pass: decided && named,
        message: () =>
          `expected ${call} ${this.isNot ? 'not ' : ''}to be ${wanted}, but it was ${PAST[verdict.decision]}: ${verdict.reason}\n${deciding(verdict)}`,
        actual: { decision: verdict.decision, rule: verdict.rule?.label ?? verdict.rule?.text },
        expected: { decision: expected, ...(rule === undefined ? {} : { rule }) },
      };
    };
  return { toBeAllowedBy: make('allow'), toBeAskedBy: make('ask'), toBeDeniedBy: make('deny') };
}

export const automodeMatchers: AutomodeMatchers = createAutomodeMatchers();

function deciding(v: ModelVerdict): string {
  if (!v.rule && v.model?.rule) return `decided by the model, naming the prose rule ${v.model.rule}`;
  if (!v.rule) return `decided by ${v.by}, no rule`;
  const r = v.rule;
  const name = r.label ? `${r.label} (${r.text})` : r.text;
  const where = r.file ? `${r.file}${r.line ? `:${r.line}:${r.column ?? 1}` : ''}` : 'no file';
  return `deciding rule: ${name} at ${where} (${r.source})`;
}

function namesRule(v: ModelVerdict, rule: string): boolean {
  const wanted = rule.trim();
  if (v.model?.rule?.trim() === wanted) return true;
  return v.rule !== undefined && (v.rule.text.trim() === wanted || v.rule.label?.trim() === wanted);
}

function describeSpec(spec: CallSpec): string {
  const tool = spec.tool ?? 'Bash';
  return describeCall({ tool, input: spec.input ?? { command: spec.command } });
}

async function classifyFor(
  received: MatcherCall,
  settings: MatcherSettings,
  mode: Mode | undefined,
  provider: ModelProvider | undefined,
): Promise<ModelVerdict> {
  const classifier = await classifierOf(settings);
  const spec: CallSpec = typeof received === 'string' ? { command: received } : received;
  const call = toCall(mode === undefined ? spec : { ...spec, mode }, classifier.settings.cwd);
  if ('error' in call) throw new TypeError(`automode matcher: ${call.error}`);
  const verdict = await classifier.classify(call);
  if (!needsModel(verdict, classifier.settings)) return verdict;
  const model = provider ? await provider(classifier.settings) : { unavailable: NO_MODEL };
  if ('unavailable' in model) {
    throw new Error(
      `automode matcher: ${describeCall(call)} is left to the model (${verdict.reason}): ${model.unavailable}`,
    );
  }
  return model.classify(call);
}

const loaded = new Map<string, Promise<Classifier>>();
const built = new WeakMap<LoadedSettings, Classifier>();

async function classifierOf(settings: MatcherSettings): Promise<Classifier> {
  if (typeof settings === 'string' || Array.isArray(settings)) {
    const paths = typeof settings === 'string' ? [settings] : (settings as readonly string[]);
    const key = JSON.stringify([process.cwd(), paths]);
    let found = loaded.get(key);
    if (!found) {
      found = loadPaths(paths);
      loaded.set(key, found);
    }
    return found;
  }
  if ('classify' in settings) return settings;
  const s = settings as LoadedSettings;
  let classifier = built.get(s);
  if (!classifier) {
    classifier = createClassifier(s);
    built.set(s, classifier);
  }
  return classifier;
}

async function loadPaths(paths: readonly string[]): Promise<Classifier> {
  const resolved = await configurationOf(paths, process.cwd());
  if ('errors' in resolved) throw new Error(`automode matcher: ${resolved.errors.join('; ')}`);
  return createClassifier(await loadConfiguration(resolved.config));
}
