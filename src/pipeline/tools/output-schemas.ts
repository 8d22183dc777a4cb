import { ContentBlockSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

// What each reference tool returns: a PostToolUse hook's replacement output must have the same shape. Each tool's
// definition checks that its schema gives its output type.

export const BashOutputSchema = z.object({
  stdout: z.string(),
  stderr: z.string(),
  exitCode: z.number().int().nullable(),
  backgroundTaskId: z.string().optional(),
  autoBackgrounded: z.boolean().optional(),
});

export const TaskOutputSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed', 'killed']),
  exitCode: z.number().int().nullable(),
  stdout: z.string(),
  stderr: z.string(),
});

export const ReadOutputSchema = z.object({
  file: z.string(),
  text: z.string(),
  totalLines: z.number().int().nonnegative(),
});

export const WriteOutputSchema = z.object({ file: z.string(), created: z.boolean() });

export const EditOutputSchema = z.object({
  file: z.string(),
  replacements: z.number().int().nonnegative(),
});

export const GlobOutputSchema = z.object({
  files: z.array(z.string()),
  truncated: z.boolean(),
});

export const GrepOutputSchema = z.object({
  mode: z.enum(['content', 'files_with_matches', 'count']),
  lines: z.array(z.string()),
  truncated: z.boolean(),
});

const TodoSchema = z.object({
  content: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  activeForm: z.string().optional(),
});

export const TodoWriteOutputSchema = z.object({
  oldTodos: z.array(TodoSchema),
  newTodos: z.array(TodoSchema),
});

export const ToolSearchOutputSchema = z.object({
  loaded: z.array(z.string()),
  missing: z.array(z.string()),
  schemas: z.array(
    z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) }),
  ),
});

/**
 * An MCP tool's result content: the `content` list of a `tools/call` result, each item a content block of the
 * MCP schema (text, image, audio, resource link, embedded resource).
 */
export const McpOutputSchema = z.array(ContentBlockSchema);

export const NotebookEditOutputSchema = z.object({
  file: z.string(),
  edit_mode: z.enum(['replace', 'insert', 'delete']),
  cell_id: z.string(),
  cell_type: z.enum(['code', 'markdown']),
  new_source: z.string(),
  language: z.string(),
});
