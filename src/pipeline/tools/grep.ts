import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { semanticBoolean, semanticNumber } from '../schema.js';
import { buildTool, type Tool } from '../tool.js';
import { GrepOutputSchema } from './output-schemas.js';
import { walkFiles } from './walk.js';

const MAX_FILE_BYTES = 5 * 1024 * 1024;

const input = z.strictObject({
  pattern: z.string().describe('A JavaScript regular expression'),
  path: z.string().optional().describe('A file or folder to search (default: the working folder)'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts"'),
  output_mode: z.enum(['content', 'files_with_matches', 'count']).optional(),
  '-i': semanticBoolean().optional().describe('Case-insensitive'),
  '-n': semanticBoolean().optional().describe('Line numbers in content mode (default true)'),
  head_limit: semanticNumber(z.number().int().positive())
    .optional()
    .describe('At most this many lines or files'),
});

type GrepInput = z.infer<typeof input>;

export interface GrepOutput {
  mode: 'content' | 'files_with_matches' | 'count';
  lines: string[];
  truncated: boolean;
}

async function targets(args: GrepInput, cwd: string, signal: AbortSignal): Promise<string[]> {
  const root = path.resolve(cwd, args.path ?? '.');
  if ((await stat(root)).isFile()) return [root];
  const walked = await walkFiles(root, { signal });
  const match = args.glob
    ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') })
    : () => true;
  return walked.files.filter((f) => match(f)).map((f) => path.join(root, f));
}

/** Searches file contents with a regular expression; binary and very large files are skipped. */
export function grepTool(): Tool<GrepInput, GrepOutput> {
  return buildTool({
    name: 'Grep',
    description: 'Search file contents',
    prompt: () =>
      'Searches file contents with a JavaScript regular expression. output_mode: files_with_matches (default), content, count.',
    inputSchema: input,
    outputSchema: GrepOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    validateInput(args) {
      try {
        new RegExp(args.pattern);
        return { result: true };
      } catch (e) {
        return {
          result: false,
          message: `Invalid regular expression: ${(e as Error).message}`,
          errorCode: 1,
        };
      }
    },
    async *call(args, ctx) {
      const mode = args.output_mode ?? 'files_with_matches';
      const regex = new RegExp(args.pattern, args['-i'] ? 'i' : '');
      const limit = args.head_limit ?? Number.POSITIVE_INFINITY;
      const lines: string[] = [];
      let truncated = false;
      for (const file of await targets(args, ctx.cwd, ctx.signal)) {
        if (ctx.signal.aborted || lines.length >= limit) {
          truncated = lines.length >= limit;
          break;
        }
        const size = (await stat(file).catch(() => undefined))?.size ?? 0;
        if (size > MAX_FILE_BYTES) continue;
        const text = await readFile(file).catch(() => undefined);
        if (!text || text.subarray(0, 8000).includes(0)) continue;
        const fileLines = text.toString('utf8').split('\n');
        const hits = fileLines.flatMap((l, i) => (regex.test(l) ? [{ l, i }] : []));
        if (hits.length === 0) continue;
        if (mode === 'files_with_matches') lines.push(file);
        else if (mode === 'count') lines.push(`${file}:${hits.length}`);
        else {
          const numbered = args['-n'] !== false;
          for (const h of hits) lines.push(numbered ? `${file}:${h.i + 1}:${h.l}` : `${file}:${h.l}`);
        }
      }
      if (lines.length > limit) {
        lines.length = limit;
        truncated = true;
      }
      yield { type: 'result', data: { mode, lines, truncated } };
    },
    mapToolResult(out) {
      if (out.lines.length === 0) return out.mode === 'content' ? 'No matches found' : 'No files found';
      return out.lines.join('\n') + (out.truncated ? '\n(Results are truncated.)' : '');
    },
  });
}
