import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { buildTool, type Tool } from '../tool.js';
import { GlobOutputSchema } from './output-schemas.js';
import { walkFiles } from './walk.js';

const MAX_RESULTS = 100;

const input = z.strictObject({
  pattern: z.string().describe('A glob such as "**/*.ts"'),
  path: z.string().optional().describe('The folder to search (default: the working folder)'),
});

export interface GlobOutput {
  files: string[];
  truncated: boolean;
}

/** Files whose path below the folder matches a glob, most recently changed first. */
export function globTool(): Tool<z.infer<typeof input>, GlobOutput> {
  return buildTool({
    name: 'Glob',
    description: 'Find files by name pattern',
    prompt: () =>
      `Finds files matching a glob pattern, most recently modified first (at most ${MAX_RESULTS}).`,
    inputSchema: input,
    outputSchema: GlobOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    async *call(args, ctx) {
      const root = path.resolve(ctx.cwd, args.path ?? '.');
      const match = picomatch(args.pattern, { dot: true });
      const walked = await walkFiles(root, {
        includeModules: args.pattern.includes('node_modules'),
        signal: ctx.signal,
      });
      const hits = walked.files.filter((f) => match(f)).map((f) => path.join(root, f));
      const timed = await Promise.all(
        hits.map(async (f) => ({ f, t: (await stat(f).catch(() => undefined))?.mtimeMs ?? 0 })),
      );
      timed.sort((a, b) => b.t - a.t || a.f.localeCompare(b.f));
      const files = timed.slice(0, MAX_RESULTS).map((x) => x.f);
      yield { type: 'result', data: { files, truncated: walked.truncated || timed.length > MAX_RESULTS } };
    },
    mapToolResult(out) {
      if (out.files.length === 0) return 'No files found';
      const more = out.truncated ? '\n(Results are truncated. Use a more specific path or pattern.)' : '';
      return out.files.join('\n') + more;
    },
  });
}
