import type { Argv } from 'yargs';
import type { ModelCaller } from '../llm/index.js';
import { isModelConfigured } from '../shared/index.js';

export interface ModelArgs {
  llm?: boolean;
  model?: string;
  replay?: string;
  record?: string;
}

export function withModelOptions<T>(y: Argv<T>) {
  return y
    .option('llm', {
      type: 'boolean',
      default: true,
      describe:
        'Ask the model about what rules leave open, when ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL is set (--no-llm: never)',
    })
    .option('model', {
      type: 'string',
      describe: 'Model for both stages (default: AUTOMODE_MODEL, then built-in)',
    })
    .option('replay', {
      type: 'string',
      describe: 'Answer model calls from a recording (offline, reproducible)',
    })
    .option('record', { type: 'string', describe: 'Record model exchanges to this file (JSONL)' })
    .group(['llm', 'model', 'replay', 'record'], 'Model:');
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
