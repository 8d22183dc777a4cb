import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext, ValidationResult } from '../tool.js';

export function absolute(ctx: ToolContext, file: string): string {
  return path.resolve(ctx.cwd, file);
}

export async function mtimeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Write and Edit refuse an existing file the session has not read, or that changed since it was read. */
export async function checkReadFirst(ctx: ToolContext, file: string): Promise<ValidationResult> {
  const mtime = await mtimeOf(file);
  if (mtime === undefined) return { result: true };
  const record = ctx.session.readFiles.get(file);
  if (!record) {
    return {
      result: false,
      message: 'File has not been read yet. Read it first before writing to it.',
      errorCode: 2,
    };
  }
  if (mtime > record.mtimeMs) {
    return {
      result: false,
      message:
        'File has been modified since read, either by the user or by a linter. Read it again before writing to it.',
      errorCode: 3,
    };
  }
  return { result: true };
}
