import type { PermissionHandler, PermissionSource } from '../permission/types.js';
import { deny, fromAuto } from './answers.js';

/**
 * Automation first: PermissionRequest hooks, then the classifier, then the prompt if there is one. Without a
 * prompt (a headless agent) whatever no automatic source allows is denied.
 */
export function coordinatorHandler(options: { prompt?: PermissionSource } = {}): PermissionHandler {
  return async (request) => {
    const hooks = fromAuto(await request.hooks(request.signal).catch(() => undefined));
    if (hooks) return hooks;
    const verdict = await request.classifier?.catch(() => undefined);
    const classifier = fromAuto(verdict);
    if (classifier) return classifier;
    const asked = verdict ? { ...request, reason: verdict.reason } : request;
    if (!options.prompt) return deny('handler', `${asked.reason} (no one to ask)`);
    const answer = await options.prompt(asked, request.signal).catch(() => undefined);
    return answer ?? deny('handler', `${asked.reason} (no answer)`);
  };
}
