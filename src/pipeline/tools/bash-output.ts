import { z } from 'zod';
import { buildTool, type Tool } from '../tool.js';
import type { TaskOutput } from './background.js';
import { formatShellOutput } from './bash.js';
import { TaskOutputSchema } from './output-schemas.js';

const input = z.strictObject({ bash_id: z.string().describe('The ID of the background command') });

/** Reads what a background command printed since the last read, and whether it is still running. */
export function bashOutputTool(): Tool<z.infer<typeof input>, TaskOutput> {
  return buildTool({
    name: 'BashOutput',
    aliases: ['TaskOutput'],
    description: 'Read the new output of a background shell command',
    inputSchema: input,
    outputSchema: TaskOutputSchema,
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    validateInput: (args, ctx) =>
      ctx.session.tasks.get(args.bash_id)
        ? { result: true }
        : { result: false, message: `No background command with ID ${args.bash_id}`, errorCode: 1 },
    async *call(args, ctx) {
      yield { type: 'result', data: ctx.session.tasks.read(args.bash_id)! };
    },
    mapToolResult(out) {
      const exit = out.exitCode === null ? '' : `\n<exit_code>${out.exitCode}</exit_code>`;
      const text = formatShellOutput(out.stdout, out.stderr);
      return `<status>${out.status}</status>${exit}\n<output>\n${text}</output>`;
    },
  });
}
