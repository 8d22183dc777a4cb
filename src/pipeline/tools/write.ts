import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { makeDirectories } from '../../shared/index.js';
import { buildTool, type Tool } from '../tool.js';
import { absolute, checkReadFirst, mtimeOf } from './files.js';
import { WriteOutputSchema } from './output-schemas.js';

const input = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to write'),
  content: z.string().describe('The whole new content'),
});

export interface WriteOutput {
  file: string;
  created: boolean;
}

/** Writes a whole file; an existing file must have been read first and not changed since. */
export function writeTool(): Tool<z.infer<typeof input>, WriteOutput> {
  return buildTool({
    name: 'Write',
    description: 'Write a file',
    prompt: () => 'Writes a file, replacing its content. Read an existing file before writing it.',
    inputSchema: input,
    outputSchema: WriteOutputSchema,
    validateInput: (args, ctx) => checkReadFirst(ctx, absolute(ctx, args.file_path)),
    async *call(args, ctx) {
      const file = absolute(ctx, args.file_path);
      const created = (await mtimeOf(file)) === undefined;
      makeDirectories(path.dirname(file));
      await writeFile(file, args.content);
      ctx.session.readFiles.set(file, { content: args.content, mtimeMs: (await stat(file)).mtimeMs });
      yield { type: 'result', data: { file, created } };
    },
    mapToolResult: (out) =>
      out.created ? `File created successfully at: ${out.file}` : `The file ${out.file} has been updated.`,
  });
}
