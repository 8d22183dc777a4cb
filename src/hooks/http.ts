import { MAX_HOOK_OUTPUT_CHARS, type RunHookOptions } from './command.js';
import type { CommandHook, HookRun, HookRunStatus, HttpHookTarget } from './types.js';

/** `$VAR` and `${VAR}` in a header value, for the variables the hook lists; any other is empty. */
function interpolate(value: string, allowed: readonly string[], env: NodeJS.ProcessEnv): string {
  return value.replace(/\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_, braced, bare) => {
    const name = (braced ?? bare) as string;
    return allowed.includes(name) ? (env[name] ?? '') : '';
  });
}

/**
 * POSTs the input as JSON to the hook's URL. A 2xx answer's body is read like a command hook's stdout; any
 * other status, a failed connection, a timeout or an abort decides nothing and is a status on the run.
 * Never rejects.
 */
export async function runHttpHook(
  hook: CommandHook & { http: HttpHookTarget },
  input: unknown,
  options: RunHookOptions,
): Promise<HookRun> {
  const started = performance.now();
  const env = options.env ?? process.env;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(hook.http.headers)) {
    headers[name] = interpolate(value, hook.http.allowedEnvVars, env);
  }
  const controller = new AbortController();
  let ended: HookRunStatus | undefined;
  const stop = (status: HookRunStatus) => {
    ended ??= status;
    controller.abort();
  };
  const timer = setTimeout(() => stop('timeout'), hook.timeoutMs);
  const onAbort = () => stop('aborted');
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const run = (status: HookRunStatus, stdout = '', truncated = false, error?: string): HookRun => {
    const r: HookRun = {
      hook,
      status,
      exitCode: null,
      signal: null,
      stdout,
      stderr: '',
      truncated,
      durationMs: performance.now() - started,
    };
    if (error !== undefined) r.error = error;
    return r;
  };
  try {
    const response = await fetch(hook.http.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(input),
      signal: controller.signal,
    });
    const body = await response.text();
    const cap = options.maxOutputChars ?? MAX_HOOK_OUTPUT_CHARS;
    if (!response.ok) {
      const detail = body.trim() ? `: ${body.trim().slice(0, 500)}` : '';
      return run('failed', '', false, `answered HTTP ${response.status}${detail}`);
    }
    return run('success', body.slice(0, cap), body.length > cap);
  } catch (e) {
    if (ended === 'timeout') return run('timeout', '', false, `timed out after ${hook.timeoutMs} ms`);
    if (ended === 'aborted') return run('aborted', '', false, 'aborted');
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return run(
      'crashed',
      '',
      false,
      `could not be reached (${e instanceof Error ? e.message : String(e)}${cause})`,
    );
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
