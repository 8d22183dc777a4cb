import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { ModelCaller, ModelClient, Recorder } from '../llm/index.js';
import type { LoadedSettings } from '../rules/index.js';
import { isModelConfigured, MODES, type Mode } from '../shared/index.js';
import { SHIPPED_RECORDING } from './dataset.js';
import { type EvalSettingsOptions, loadEvalSettings } from './workspace.js';

/** A configuration under test: the rules and the model. `--vs` takes one as a file or inline JSON. */
export const ConfigSpecSchema = z.strictObject({
  name: z.string().min(1).optional(),
  settings: z.array(z.string()).optional(),
  rules: z.array(z.string()).optional(),
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  defaults: z.boolean().optional(),
  mode: z.enum(MODES).optional(),
  llm: z.boolean().optional(),
  model: z.string().min(1).optional(),
  replay: z.string().min(1).optional(),
  record: z.string().min(1).optional(),
});
export type ConfigSpec = z.infer<typeof ConfigSpecSchema>;

const FILE_KEYS = ['settings', 'rules'] as const;

function rebase(spec: ConfigSpec, base: string): ConfigSpec {
  const out: ConfigSpec = { ...spec };
  const abs = (f: string) => (f.trim().startsWith('{') ? f : path.resolve(base, f));
  for (const key of FILE_KEYS) if (out[key]) out[key] = out[key]!.map(abs);
  if (out.replay) out.replay = abs(out.replay);
  if (out.record) out.record = abs(out.record);
  return out;
}

/**
 * The other side of `--vs`: inline JSON or a JSON/YAML file. What it does not set comes from the base
 * configuration (so `{"model": "claude-opus-5-5"}` compares two models on the same rules); a name is made up
 * from what differs when none is given.
 */
export async function readVsSpec(value: string, base: ConfigSpec, cwd = process.cwd()): Promise<ConfigSpec> {
  let raw: unknown;
  let folder = cwd;
  if (value.trim().startsWith('{')) {
    try {
      raw = JSON.parse(value);
    } catch (e) {
      throw new Error(`--vs: not valid JSON: ${(e as Error).message}`);
    }
  } else {
    const file = path.resolve(cwd, value);
    folder = path.dirname(file);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`--vs: cannot read ${file}: ${(e as Error).message}`);
    }
    try {
      raw = /\.ya?ml$/i.test(file) ? (await import('yaml')).parse(text) : JSON.parse(text);
    } catch (e) {
      throw new Error(`--vs: ${file}: ${(e as Error).message}`);
    }
  }
  const parsed = ConfigSpecSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--vs: ${issue?.path.join('.') || 'configuration'}: ${issue?.message}`);
  }
  const own = rebase(parsed.data, folder);
  const merged: ConfigSpec = { ...base, ...own };
  // A model or recording of its own replaces the base's way of reaching the model.
  if (own.model !== undefined || own.llm !== undefined) {
    if (own.replay === undefined) delete merged.replay;
    if (own.record === undefined) delete merged.record;
  }
  if (own.replay !== undefined && own.record === undefined) delete merged.record;
  merged.name = own.name ?? nameFromDifference(own);
  return merged;
}

function nameFromDifference(own: ConfigSpec): string {
  const parts: string[] = [];
  if (own.model) parts.push(own.model);
  if (own.llm === false) parts.push('rules only');
  if (own.replay) parts.push(`replay ${path.basename(own.replay)}`);
  if (own.settings?.length) parts.push(own.settings.map((f) => path.basename(f)).join('+'));
  if (own.rules?.length) parts.push(own.rules.map((f) => path.basename(f)).join('+'));
  for (const behavior of ['allow', 'ask', 'deny'] as const) {
    const rules = own[behavior];
    if (rules?.length)
      parts.push(rules.length === 1 ? `${behavior} ${rules[0]}` : `${rules.length} ${behavior} rules`);
  }
  if (own.defaults === false) parts.push('no defaults');
  if (own.mode) parts.push(`mode ${own.mode}`);
  return parts.join(', ') || 'vs';
}

export type ModelSource =
  | { kind: 'none'; reason: string }
  | { kind: 'replay'; file: string; caller: ModelCaller; synthetic: boolean }
  | { kind: 'live'; client: ModelClient; caller: ModelCaller; recorder?: Recorder };

export interface ResolvedConfig {
  name: string;
  spec: ConfigSpec;
  settings: LoadedSettings;
  model: ModelSource;
  /** One line saying what answers model requests. */
  modelLine: string;
}

async function isOracleRecording(file: string): Promise<boolean> {
  try {
    const text = await readFile(file, 'utf8');
    const first = text.slice(0, Math.max(0, text.indexOf('\n'))) || text;
    return first.includes('"model":"oracle"');
  } catch {
    return false;
  }
}

/** The model a configuration reaches; a replay file that cannot be read is an error (thrown as a message). */
export async function resolveModelSource(
  spec: ConfigSpec,
  env: NodeJS.ProcessEnv = process.env,
  options: { needClient?: boolean } = {},
): Promise<ModelSource> {
  if (spec.llm === false) return { kind: 'none', reason: '--no-llm' };
  const models = spec.model ? { model: spec.model } : {};
  if (spec.replay) {
    const { loadReplayClient } = await import('../llm/recording.js');
    const loaded = await loadReplayClient(spec.replay, { ...models, env });
    if (!loaded.ok) throw new Error(loaded.message);
    return {
      kind: 'replay',
      file: spec.replay,
      caller: loaded.client,
      synthetic: await isOracleRecording(spec.replay),
    };
  }
  if (!isModelConfigured(env)) {
    if (spec.record || options.needClient) {
      throw new Error('a model is needed (--record, --batch): set ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL');
    }
    return { kind: 'none', reason: 'no ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL, and no --replay' };
  }
  const { createModelClient } = await import('../llm/client.js');
  const client = createModelClient({ ...models, env });
  if (!spec.record) return { kind: 'live', client, caller: client };
  const { createRecorder } = await import('../llm/recording.js');
  const recorder = createRecorder(client, spec.record);
  return { kind: 'live', client, caller: recorder, recorder };
}

export function describeModel(source: ModelSource, batch = false): string {
  switch (source.kind) {
    case 'none':
      return `none: rules only (${source.reason})`;
    case 'replay':
      return `replay of ${source.file}${source.synthetic ? ' (synthetic oracle recording, not a real model)' : ''}`;
    case 'live': {
      const m = source.client.config.models;
      const record = source.recorder && source.client ? ', recording' : '';
      return `${batch ? 'Message Batches' : 'live'}: stage 1 ${m[1]}, stage 2 ${m[2]}${record}`;
    }
  }
}

/** The settings a configuration names, as `loadEvalSettings` takes them. */
export function settingsOptions(spec: ConfigSpec): EvalSettingsOptions {
  return {
    ...(spec.settings ? { settingsFiles: spec.settings } : {}),
    ...(spec.rules ? { ruleFiles: spec.rules } : {}),
    ...(spec.allow ? { allow: spec.allow } : {}),
    ...(spec.ask ? { ask: spec.ask } : {}),
    ...(spec.deny ? { deny: spec.deny } : {}),
    shippedDefaults: spec.defaults !== false,
  };
}

export async function resolveConfig(
  spec: ConfigSpec,
  options: { env?: NodeJS.ProcessEnv; batch?: boolean; fallbackName?: string } = {},
): Promise<ResolvedConfig> {
  const settings = await loadEvalSettings(settingsOptions(spec));
  const model = await resolveModelSource(spec, options.env, { needClient: options.batch === true });
  const modelLine = describeModel(model, options.batch);
  const name =
    spec.name ??
    options.fallbackName ??
    (model.kind === 'none' ? 'rules only' : model.kind === 'replay' ? 'replay' : 'model');
  return { name, spec, settings, model, modelLine };
}

/** The shipped oracle recording, for the shipped dataset offline. */
export const DEFAULT_REPLAY = SHIPPED_RECORDING;

export type { Mode };
