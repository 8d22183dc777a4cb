/** An error whose `telemetryMessage` is known to hold no path, code or user data. */
export class TelemetrySafeError extends Error {
  constructor(
    message: string,
    readonly telemetryMessage: string,
  ) {
    super(message);
    this.name = 'TelemetrySafeError';
  }
}

/**
 * An error kind for telemetry that leaks no path: the safe message, the errno code (`Error:ENOENT`), an error
 * name long enough not to be minified (more than 3 characters), `Error`, or `UnknownError` for non-errors.
 */
export function classifyToolError(error: unknown): string {
  if (error instanceof TelemetrySafeError) return error.telemetryMessage;
  if (!(error instanceof Error)) return 'UnknownError';
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return `Error:${code}`;
  if (error.name && error.name !== 'Error' && error.name.length > 3) return error.name;
  return 'Error';
}

/** What the model reads about an error: the message, or the value as text. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** Errors the pipeline itself reports to the model are wrapped the way Claude Code wraps them. */
export function toolUseError(message: string): string {
  return `<tool_use_error>${message}</tool_use_error>`;
}
