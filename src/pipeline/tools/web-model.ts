import { type CallResult, loadModelClient, type ModelCaller } from '../../llm/index.js';

/**
 * The model the web tools ask: a caller (the live client, a recorder or a replay of recorded answers), or a
 * function that makes one on first use. Without one, the model client the environment configures
 * (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `AUTOMODE_MODEL`), loaded on the first call.
 */
export type WebModel = ModelCaller | (() => Promise<ModelCaller>);

export function webModel(model: WebModel | undefined): () => Promise<ModelCaller> {
  if (model !== undefined && typeof model !== 'function') return () => Promise.resolve(model);
  let caller: Promise<ModelCaller> | undefined;
  return () => {
    caller ??= model ? model() : loadModelClient();
    return caller;
  };
}

/** The text blocks of a successful answer, joined; a failure is an error naming its kind. */
export function answerText(result: CallResult, what: string): string {
  if (!result.ok) throw new Error(`${what}: the model gave no answer (${result.kind}: ${result.message})`);
  return result.message.content
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('')
    .trim();
}
