import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { makeDirectories } from '../../shared/index.js';
import { semanticBoolean } from '../schema.js';
import { buildTool, type Tool, type ValidationResult } from '../tool.js';
import { absolute, checkReadFirst, mtimeOf } from './files.js';
import { EditOutputSchema } from './output-schemas.js';

const input = z.strictObject({
  file_path: z.string().describe('The absolute path of the file to change'),
  old_string: z
    .string()
    .describe('The text to replace; it must occur exactly once unless replace_all is set'),
  new_string: z.string().describe('The replacement'),
  replace_all: semanticBoolean().optional().describe('Replace every occurrence'),
});

type EditInput = z.infer<typeof input>;

export interface EditOutput {
  file: string;
  replacements: number;
}

function count(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

async function check(args: EditInput, file: string): Promise<ValidationResult> {
  if (args.old_string === args.new_string) {
    return {
      result: false,
      message: 'No changes to make: old_string and new_string are exactly the same.',
      errorCode: 1,
    };
  }
  if ((await mtimeOf(file)) === undefined) {
    return args.old_string === ''
      ? { result: true }
      : { result: false, message: `File does not exist: ${file}`, errorCode: 4 };
  }
  const content = await readFile(file, 'utf8');
  if (args.old_string === '') {
    return content === ''
      ? { result: true }
      : { result: false, message: 'Cannot create a new file: the file already exists.', errorCode: 5 };
  }
  const n = count(content, args.old_string);
  if (n === 0)
    return {
      result: false,
      message: `String to replace not found in file.\nString: ${args.old_string}`,
      errorCode: 6,
    };
  if (n > 1 && !args.replace_all) {
    return {
      result: false,
      message: `Found ${n} matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, provide more context to uniquely identify the instance.\nString: ${args.old_string}`,
      errorCode: 7,
    };
  }
  return { result: true };
}

/** Replaces a unique string in a file (or every occurrence with replace_all); an empty old_string creates a file. */
export function editTool(): Tool<EditInput, EditOutput> {
  return buildTool({
    name: 'Edit',
    description: 'Replace text in a file',
    prompt: () =>
      'Replaces old_string with new_string in a file. old_string must be unique in the file unless replace_all is true. Read the file first.',
    inputSchema: input,
    outputSchema: EditOutputSchema,
    async validateInput(args, ctx) {
      const file = absolute(ctx, args.file_path);
      const read = await checkReadFirst(ctx, file);
      return read.result ? check(args, file) : read;
    },
    async *call(args, ctx) {
      const file = absolute(ctx, args.file_path);
      const before = (await mtimeOf(file)) === undefined ? '' : await readFile(file, 'utf8');
      let after: string;
      let replacements = 1;
      if (args.old_string === '') after = args.new_string;
      else if (args.replace_all) {
        replacements = count(before, args.old_string);
        after = before.split(args.old_string).join(args.new_string);
      } else {
        const at = before.indexOf(args.old_string);
        if (at < 0 || before.indexOf(args.old_string, at + args.old_string.length) >= 0) {
          throw new Error('The file changed: old_string is no longer unique in it. Read it again.');
        }
        after = before.slice(0, at) + args.new_string + before.slice(at + args.old_string.length);
      }
      makeDirectories(path.dirname(file));
      await writeFile(file, after);
      ctx.session.readFiles.set(file, { content: after, mtimeMs: (await stat(file)).mtimeMs });
      yield { type: 'result', data: { file, replacements } };
    },
    mapToolResult: (out) =>
      `The file ${out.file} has been updated${out.replacements > 1 ? ` (${out.replacements} replacements)` : ''}.`,
  });
}
