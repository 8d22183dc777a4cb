import type {
  AutoDecision,
  PermissionAnswer,
  PermissionRequest,
  PermissionSource,
} from '../permission/types.js';

export function deny(by: string, reason: string): PermissionAnswer {
  return { behavior: 'deny', by, reason };
}

export function fromAuto(d: AutoDecision | undefined): PermissionAnswer | undefined {
  if (!d || d.behavior === 'ask') return undefined;
  const answer: PermissionAnswer = { behavior: d.behavior, by: d.by, reason: d.reason };
  if (d.updatedInput) answer.updatedInput = d.updatedInput;
  if (d.stop !== undefined) answer.stop = d.stop;
  return answer;
}

/** Never rejects: a failing source abstains. */
function settle(p: Promise<PermissionAnswer | undefined>): Promise<PermissionAnswer | undefined> {
  return p.catch(() => undefined);
}

/** The automatic sources of a request: PermissionRequest hooks and the classifier; the first decision wins. */
export const automaticSource: PermissionSource = (request, signal) =>
  firstAnswer(
    [
      (r, s) => r.hooks(s).then(fromAuto),
      (r) => (r.classifier ? r.classifier.then(fromAuto) : Promise.resolve(undefined)),
    ],
    request,
    signal,
  );

/**
 * Starts every source at once; the first answer wins and the others are aborted. Resolves undefined when all
 * abstain, or when the outer signal fires first.
 */
export function firstAnswer(
  sources: readonly PermissionSource[],
  request: PermissionRequest,
  outer: AbortSignal,
): Promise<PermissionAnswer | undefined> {
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (outer.aborted) controller.abort();
  else outer.addEventListener('abort', onAbort, { once: true });
  return new Promise((resolve) => {
    let pending = sources.length;
    let done = false;
    const finish = (answer: PermissionAnswer | undefined) => {
      if (done) return;
      done = true;
      outer.removeEventListener('abort', onAbort);
      controller.abort();
      resolve(answer);
    };
    if (pending === 0) finish(undefined);
    controller.signal.addEventListener('abort', () => finish(undefined), { once: true });
    for (const source of sources) {
      void settle(Promise.resolve().then(() => source(request, controller.signal))).then((answer) => {
        pending--;
        if (answer) finish(answer);
        else if (pending === 0) finish(undefined);
      });
    }
  });
}
