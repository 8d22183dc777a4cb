import type { ModelClient } from './client.js';
import type { ModelClientOptions } from './config.js';

/** `createModelClient`, with the Anthropic SDK loaded on this first call instead of at import. */
export async function loadModelClient(options: ModelClientOptions = {}): Promise<ModelClient> {
  const { createModelClient } = await import('./client.js');
  return createModelClient(options);
}
