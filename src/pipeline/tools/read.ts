import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { semanticNumber } from '../schema.js';
import { buildTool, type Tool } from '../tool.js';
import { absolute } from './files.js';
import { ReadOutputSchema } from './output-schemas.js';

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;

const input = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to read'),
  offset: semanticNumber(z.number().int().min(1)).optional().describe('The line to start from (1-based)'),
  limit: semanticNumber(z.number().int().positive()).optional().describe('How many lines to read'),
});

export interface ReadOutput {
  file: string;
  /** The lines read, numbered. */
  text: string;
  totalLines: number;
}

/** Reads a text file with line numbers, and records it so that Write and Edit may change it. */
export function readTool(): Tool<z.infer<typeof input>, ReadOutput> {
  return buildTool({
    name: 'Read',
    description: 'Read a file',
    prompt: () =>
      `Reads a text file. Lines come numbered (cat -n style); at most ${MAX_LINES} lines from offset, each cut at ${MAX_LINE_CHARS} characters.`,
    inputSchema: input,
    outputSchema: ReadOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    maxResultSizeChars: 200_000,
    async *call(args, ctx) {
      const file = absolute(ctx, args.file_path);
      const info = await stat(file);
      const content = await readFile(file, 'utf8');
      ctx.session.readFiles.set(file, { content, mtimeMs: info.mtimeMs });
      const lines = content.split('\n');
      if (lines.at(-1) === '') lines.pop();
      const start = (args.offset ?? 1) - 1;
      const slice = lines.slice(start, start + (args.limit ?? MAX_LINES));
      const text = slice
        .map(
          (line, i) =>
            `${String(start + i + 1).padStart(6)}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`,
        )
        .join('\n');
      yield { type: 'result', data: { file, text, totalLines: lines.length } };
    },
    mapToolResult(out) {
      if (out.totalLines === 0) return `${out.file} exists but is empty.`;
      return out.text || `${out.file} has only ${out.totalLines} lines.`;
    },
  });
}
