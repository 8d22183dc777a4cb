import type { Argv } from 'yargs';
import type { ModelCaller } from '../llm/index.js';
import { isModelConfigured } from '../shared/index.js';
import { MODEL_OPTIONS } from './option-specs.js';
import { withOptions } from './settings-args.js';

export interface ModelArgs {
  llm?: boolean;
  model?: string;
  replay?: string;
  record?: string;
}

export function withModelOptions<T>(y: Argv<T>): Argv<T> {
  return withOptions(y, MODEL_OPTIONS, 'Model:');
}

/** The model to use, or undefined; a replay file that cannot be read is a usage error (thrown as a message). */
export async function modelFromArgs(
  args: ModelArgs,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelCaller | undefined> {
  if (args.llm === false) return undefined;
  const models = args.model ? { model: args.model } : {};
  if (args.replay) {
    const { loadReplayClient } = await import('../llm/recording.js');
    const loaded = await loadReplayClient(args.replay, { ...models, env });
    if (!loaded.ok) throw new Error(loaded.message);
    return loaded.client;
  }
  if (!isModelConfigured(env)) return undefined;
  const { createModelClient } = await import('../llm/client.js');
  const client = createModelClient({ ...models, env });
  if (!args.record) return client;
  const { createRecorder } = await import('../llm/recording.js');
  return createRecorder(client, args.record);
}
