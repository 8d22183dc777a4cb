import type { PermissionHandler, PermissionSource } from '../permission/types.js';
import { automaticSource, deny, firstAnswer } from './answers.js';

export interface InteractiveOptions {
  /** The terminal prompt (see `terminalPrompt`). */
  prompt?: PermissionSource;
  /** Other places an answer may come from: a remote UI, a chat bridge. */
  sources?: readonly PermissionSource[];
}

/**
 * Races the prompt, the automatic sources (PermissionRequest hooks and the classifier still at work) and any
 * other registered source: the first answer wins and the others are aborted.
 */
export function interactiveHandler(options: InteractiveOptions): PermissionHandler {
  const sources = [automaticSource, ...(options.sources ?? []), ...(options.prompt ? [options.prompt] : [])];
  return async (request) =>
    (await firstAnswer(sources, request, request.signal)) ??
    deny('handler', `${request.reason} (no source answered)`);
}
