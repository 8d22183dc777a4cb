import { randomUUID } from 'node:crypto';
import { classifyToolError, errorText, TelemetrySafeError } from '../errors.js';
import type { PipelineMessage } from '../messages.js';
import type { AnyTool, ToolContext, ToolEvent } from '../tool.js';
import type { ToolRun } from './state.js';

/** How long an aborted tool gets to wind down on its own before the pipeline stops waiting for it. */
const ABORT_GRACE_MS = 2000;

export type ExecOutcome = { ok: true; output: unknown } | { ok: false; message: string; kind: string };

const ABORTED = Symbol('aborted');

/** Resolves some time after the signal fires; `clear` drops the timer and the listener. */
function afterAbort(signal: AbortSignal, graceMs: number) {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const promise = new Promise<typeof ABORTED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABORTED), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const clear = () => {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  };
  return { promise, clear };
}

function abortedOutcome(tool: AnyTool, signal: AbortSignal, timeoutMs: number | undefined, cause?: unknown) {
  const detail = cause !== undefined ? `\n${errorText(cause)}` : '';
  if (signal.reason === 'timeout') {
    return {
      ok: false as const,
      kind: 'Timeout',
      message: `${tool.name} timed out after ${timeoutMs} ms${detail}`,
    };
  }
  return {
    ok: false as const,
    kind: 'Interrupted',
    message: `Interrupted by user: ${tool.name} was cancelled.${detail}`,
  };
}

/** Stage 5: the tool runs with the input stage 4 allowed; its progress is passed on. */
export function executionStage(
  run: ToolRun,
  input: Record<string, unknown>,
): AsyncGenerator<PipelineMessage, ExecOutcome, undefined> {
  run.executing = true;
  return runCall(run.tool, input, run.toolCtx, run.controller, run.ctx.toolTimeoutMs);
}

/**
 * Drives the tool's generator, passing progress on, with the timeout and cancellation. A tool that
 * ignores the abort is abandoned after a grace period, so the pipeline never hangs on it.
 */
async function* runCall(
  tool: AnyTool,
  input: Record<string, unknown>,
  toolCtx: ToolContext,
  controller: AbortController,
  timeoutMs: number | undefined,
): AsyncGenerator<PipelineMessage, ExecOutcome, undefined> {
  const timer =
    timeoutMs !== undefined ? setTimeout(() => controller.abort('timeout'), timeoutMs) : undefined;
  const stop = afterAbort(controller.signal, ABORT_GRACE_MS);
  let iterator: AsyncIterator<ToolEvent<unknown>> | undefined;
  let output: { value: unknown } | undefined;
  try {
    iterator = tool.call(input as never, toolCtx)[Symbol.asyncIterator]();
    while (true) {
      const step = await Promise.race([iterator.next(), stop.promise]);
      if (step === ABORTED) {
        void iterator.return?.(undefined)?.catch(() => undefined);
        return abortedOutcome(tool, controller.signal, timeoutMs);
      }
      if (step.done) break;
      const event = step.value;
      if (event.type === 'progress') {
        yield {
          type: 'progress',
          id: randomUUID(),
          timestamp: new Date().toISOString(),
          toolUseId: toolCtx.toolUseId,
          tool: tool.name,
          data: event.data,
        };
      } else if (!output) {
        output = { value: event.data };
      }
    }
  } catch (e) {
    if (controller.signal.aborted) return abortedOutcome(tool, controller.signal, timeoutMs, e);
    return { ok: false, message: `Error: ${errorText(e)}`, kind: classifyToolError(e) };
  } finally {
    clearTimeout(timer);
    stop.clear();
  }
  if (!output) {
    const e = new TelemetrySafeError(`${tool.name} ended without a result`, 'NoResult');
    return controller.signal.aborted
      ? abortedOutcome(tool, controller.signal, timeoutMs)
      : { ok: false, message: `Error: ${e.message}`, kind: classifyToolError(e) };
  }
  return { ok: true, output: output.value };
}
