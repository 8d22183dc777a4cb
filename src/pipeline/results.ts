import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeDirectories } from '../shared/index.js';
import type { ToolResultContent } from './messages.js';

const PREVIEW_CHARS = 2000;

function textLength(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  return content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : 0), 0);
}

function fullText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}

/**
 * A result over the limit is written whole to `<dir>/<toolUseId>.txt`; the model gets the path, the size and
 * the beginning. Images are not counted and do not survive: the model can read the file instead.
 */
export async function persistLargeResult(
  content: ToolResultContent,
  limit: number,
  dir: string,
  toolUseId: string,
): Promise<ToolResultContent> {
  const size = textLength(content);
  if (size <= limit) return content;
  const text = fullText(content);
  const safeId = toolUseId.replace(/[^\w.-]/g, '_');
  const file = path.join(dir, `${safeId}.txt`);
  makeDirectories(dir);
  await writeFile(file, text);
  const preview = text.slice(0, Math.min(PREVIEW_CHARS, limit));
  return [
    '<persisted-output>',
    `Output too large (${size} characters). Full output saved to: ${file}`,
    'Read that file, in parts if need be, to see all of it.',
    '',
    `Preview (first ${preview.length} characters):`,
    preview,
    '</persisted-output>',
  ].join('\n');
}
