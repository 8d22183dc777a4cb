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

// The MCP content blocks, as ContentBlockSchema of @modelcontextprotocol/sdk/types.js (1.32.2) defines them,
// written out here so that loading the pipeline does not load the MCP SDK, an optional package
// (test/pipeline/optional.test.ts checks both accept and reject the same blocks).
const meta = z.record(z.string(), z.unknown()).optional();
const base64 = z.string().refine(
  (v) => {
    try {
      atob(v);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'Invalid Base64 string' },
);
const annotations = z
  .object({
    audience: z.array(z.enum(['user', 'assistant'])).optional(),
    priority: z.number().min(0).max(1).optional(),
    lastModified: z.iso.datetime({ offset: true }).optional(),
  })
  .optional();
const icon = z.object({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(['light', 'dark']).optional(),
});
const resourceContents = { uri: z.string(), mimeType: z.string().optional(), _meta: meta };

const McpTextSchema = z.object({ type: z.literal('text'), text: z.string(), annotations, _meta: meta });
const McpImageSchema = z.object({
  type: z.literal('image'),
  data: base64,
  mimeType: z.string(),
  annotations,
  _meta: meta,
});
const McpAudioSchema = z.object({
  type: z.literal('audio'),
  data: base64,
  mimeType: z.string(),
  annotations,
  _meta: meta,
});
const McpResourceLinkSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  icons: z.array(icon).optional(),
  uri: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().optional(),
  annotations,
  _meta: z.looseObject({}).optional(),
  type: z.literal('resource_link'),
});
const McpEmbeddedResourceSchema = z.object({
  type: z.literal('resource'),
  resource: z.union([
    z.object({ ...resourceContents, text: z.string() }),
    z.object({ ...resourceContents, blob: base64 }),
  ]),
  annotations,
  _meta: meta,
});

/**
 * An MCP tool's result content: the `content` list of a `tools/call` result, each item a content block of the
 * MCP schema (text, image, audio, resource link, embedded resource).
 */
export const McpOutputSchema = z.array(
  z.union([McpTextSchema, McpImageSchema, McpAudioSchema, McpResourceLinkSchema, McpEmbeddedResourceSchema]),
);

export const NotebookEditOutputSchema = z.object({
  file: z.string(),
  edit_mode: z.enum(['replace', 'insert', 'delete']),
  cell_id: z.string(),
  cell_type: z.enum(['code', 'markdown']),
  new_source: z.string(),
  language: z.string(),
});
