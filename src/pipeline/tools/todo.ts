import { z } from 'zod';
import type { Todo } from '../session.js';
import { buildTool, type Tool } from '../tool.js';
import { TodoWriteOutputSchema } from './output-schemas.js';

const todo = z.strictObject({
  content: z.string().min(1),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().min(1).optional(),
});

const input = z.strictObject({ todos: z.array(todo).describe('The whole updated todo list') });

/** Replaces the session's todo list. */
export function todoWriteTool(): Tool<z.infer<typeof input>, { oldTodos: Todo[]; newTodos: Todo[] }> {
  return buildTool({
    name: 'TodoWrite',
    description: 'Update the todo list of the session',
    inputSchema: input,
    outputSchema: TodoWriteOutputSchema,
    isConcurrencySafe: () => true,
    async *call(args, ctx) {
      const oldTodos = ctx.session.todos;
      ctx.session.todos = args.todos.map((t) => ({ ...t }));
      yield { type: 'result', data: { oldTodos, newTodos: ctx.session.todos } };
    },
    mapToolResult: () =>
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.',
  });
}
