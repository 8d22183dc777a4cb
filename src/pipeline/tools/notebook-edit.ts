import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool, type Tool, type ToolContext, type ValidationResult } from '../tool.js';
import { absolute, checkReadFirst, mtimeOf } from './files.js';
import { NotebookEditOutputSchema } from './output-schemas.js';

const input = z.strictObject({
  notebook_path: z
    .string()
    .describe('The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)'),
  cell_id: z
    .string()
    .optional()
    .describe(
      'The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified.',
    ),
  new_source: z.string().describe('The new source for the cell'),
  cell_type: z
    .enum(['code', 'markdown'])
    .optional()
    .describe(
      'The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required.',
    ),
  edit_mode: z
    .enum(['replace', 'insert', 'delete'])
    .optional()
    .describe('The type of edit to make (replace, insert, delete). Defaults to replace.'),
});

export type NotebookEditInput = z.infer<typeof input>;

export interface NotebookEditOutput {
  file: string;
  edit_mode: 'replace' | 'insert' | 'delete';
  /** The cell changed: its id, or `cell-N` in a notebook without cell ids. */
  cell_id: string;
  cell_type: 'code' | 'markdown';
  new_source: string;
  /** The kernel's language, from the notebook's metadata. */
  language: string;
}

type Cell = Record<string, unknown>;
interface Notebook {
  cells: Cell[];
  nbformat: number;
  nbformat_minor?: unknown;
  metadata?: { language_info?: { name?: unknown } };
  [key: string]: unknown;
}

/** A notebook that cannot be edited as asked: the message is the tool's error, and the file is left as it is. */
class NotebookError extends Error {}

/** Claude Code shows a notebook's cells as `cell-N` when they have no id; such a name is accepted as the index. */
const INDEX_ID = /^cell-(\d+)$/;

function parse(text: string): Notebook {
  let nb: unknown;
  try {
    nb = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    throw new NotebookError('Notebook is not valid JSON.');
  }
  if (typeof nb !== 'object' || nb === null || Array.isArray(nb)) {
    throw new NotebookError('Notebook is not valid: its JSON is not an object.');
  }
  const o = nb as Record<string, unknown>;
  if (typeof o.nbformat !== 'number') throw new NotebookError('Notebook is not valid: it has no nbformat.');
  if (o.nbformat < 4) {
    throw new NotebookError(
      `Notebook is in nbformat ${o.nbformat}; NotebookEdit edits nbformat 4 notebooks only. Convert it first (jupyter nbconvert --to notebook).`,
    );
  }
  if (
    !Array.isArray(o.cells) ||
    !o.cells.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c))
  ) {
    throw new NotebookError('Notebook is not valid: it has no list of cells.');
  }
  return o as Notebook;
}

/** nbformat 4.5 gave every cell an id. */
function hasCellIds(nb: Notebook): boolean {
  return nb.nbformat > 4 || (typeof nb.nbformat_minor === 'number' && nb.nbformat_minor >= 5);
}

function findCell(nb: Notebook, cellId: string): number {
  const byId = nb.cells.findIndex((c) => c.id === cellId);
  if (byId >= 0) return byId;
  const index = INDEX_ID.exec(cellId);
  if (!index) throw new NotebookError(`Cell with ID "${cellId}" not found in notebook.`);
  const n = Number(index[1]);
  if (n >= nb.cells.length) throw new NotebookError(`Cell with index ${n} does not exist in notebook.`);
  return n;
}

/** The source as the notebook writes it: Jupyter's list of lines (each keeping its newline), or one string. */
function sourceLike(text: string, like: unknown): string | string[] {
  return typeof like === 'string' ? text : text.split(/(?<=\n)/).filter((l) => l !== '');
}

/** Jupyter writes keys sorted; a cell that was sorted stays sorted. */
function keepOrder(cell: Cell, before: string[]): Cell {
  const sorted = before.every((k, i) => i === 0 || before[i - 1]! <= k);
  if (!sorted) return cell;
  return Object.fromEntries(Object.entries(cell).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function newCellId(nb: Notebook): string {
  const taken = new Set(nb.cells.map((c) => c.id));
  for (;;) {
    const id = randomUUID().replaceAll('-', '').slice(0, 8);
    if (!taken.has(id)) return id;
  }
}

function cellName(nb: Notebook, index: number): string {
  const id = nb.cells[index]?.id;
  return typeof id === 'string' ? id : `cell-${index}`;
}

function cellTypeOf(cell: Cell | undefined): 'code' | 'markdown' {
  return cell?.cell_type === 'markdown' ? 'markdown' : 'code';
}

/** The edit on the parsed notebook; throws `NotebookError` when it cannot be made. */
function apply(nb: Notebook, args: NotebookEditInput, file: string): NotebookEditOutput {
  const mode = args.edit_mode ?? 'replace';
  const language =
    typeof nb.metadata?.language_info?.name === 'string' ? nb.metadata.language_info.name : 'python';
  const out = (cell_id: string, cell_type: 'code' | 'markdown'): NotebookEditOutput => ({
    file,
    edit_mode: mode,
    cell_id,
    cell_type,
    new_source: args.new_source,
    language,
  });
  if (mode === 'insert') {
    if (!args.cell_type) throw new NotebookError('Cell type is required when using edit_mode=insert.');
    const at = args.cell_id === undefined ? 0 : findCell(nb, args.cell_id) + 1;
    const like = nb.cells.find((c) => c.source !== undefined)?.source;
    const cell: Cell = { cell_type: args.cell_type };
    if (args.cell_type === 'code') cell.execution_count = null;
    if (hasCellIds(nb)) cell.id = newCellId(nb);
    cell.metadata = {};
    if (args.cell_type === 'code') cell.outputs = [];
    cell.source = sourceLike(args.new_source, like);
    nb.cells.splice(at, 0, cell);
    return out(cellName(nb, at), args.cell_type);
  }
  if (args.cell_id === undefined)
    throw new NotebookError('Cell ID must be specified when not inserting a new cell.');
  const index = findCell(nb, args.cell_id);
  const name = cellName(nb, index);
  const cell = nb.cells[index]!;
  if (mode === 'delete') {
    nb.cells.splice(index, 1);
    return out(name, cellTypeOf(cell));
  }
  const keys = Object.keys(cell);
  const type = args.cell_type ?? cellTypeOf(cell);
  const edited: Cell = { ...cell, cell_type: type, source: sourceLike(args.new_source, cell.source) };
  if (type === 'code') {
    edited.execution_count = null;
    edited.outputs = [];
  } else {
    // nbformat allows neither on a markdown cell.
    delete edited.execution_count;
    delete edited.outputs;
  }
  nb.cells[index] = keepOrder(edited, keys);
  return out(name, type);
}

/** The file's own layout: its indentation (Jupyter's is one space), line ending, final newline and BOM. */
function serialize(nb: Notebook, original: string): string {
  const indent = /^\uFEFF?\{\r?\n([ \t]+)"/.exec(original)?.[1];
  let text = indent === undefined ? JSON.stringify(nb) : JSON.stringify(nb, null, indent);
  if (/\r?\n$/.test(original)) text += '\n';
  if (original.includes('\r\n')) text = text.replaceAll('\n', '\r\n');
  return original.charCodeAt(0) === 0xfeff ? `\uFEFF${text}` : text;
}

/** Writes through a temporary file in the same folder, renamed over the target: a failure leaves it whole. */
async function writeAtomically(file: string, text: string): Promise<void> {
  const target = await realpath(file);
  const { mode } = await stat(target);
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    await writeFile(temp, text, { mode: mode & 0o7777, flag: 'wx' });
    await chmod(temp, mode & 0o7777);
    await rename(temp, target);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}

async function load(file: string): Promise<{ text: string; nb: Notebook }> {
  if ((await mtimeOf(file)) === undefined) throw new NotebookError(`Notebook file does not exist: ${file}`);
  const text = await readFile(file, 'utf8');
  return { text, nb: parse(text) };
}

async function check(args: NotebookEditInput, ctx: ToolContext): Promise<ValidationResult> {
  const file = absolute(ctx, args.notebook_path);
  if (path.extname(file) !== '.ipynb') {
    return {
      result: false,
      message:
        'File must be a Jupyter notebook (.ipynb file). For editing other file types, use the Edit tool.',
      errorCode: 2,
    };
  }
  if ((await mtimeOf(file)) === undefined) {
    return { result: false, message: `Notebook file does not exist: ${file}`, errorCode: 1 };
  }
  const read = await checkReadFirst(ctx, file);
  if (!read.result) return read;
  try {
    apply((await load(file)).nb, args, file);
  } catch (e) {
    if (e instanceof NotebookError) return { result: false, message: e.message, errorCode: 6 };
    throw e;
  }
  return { result: true };
}

/**
 * Replaces, inserts or deletes one cell of a Jupyter notebook, as Claude Code's NotebookEdit does. It is an edit
 * tool: Edit rules and the protected paths decide it (`EDIT_TOOLS` in the policy), and it needs the notebook
 * read first, as Edit does.
 */
export function notebookEditTool(): Tool<NotebookEditInput, NotebookEditOutput> {
  return buildTool({
    name: 'NotebookEdit',
    description: 'Edit a cell of a Jupyter notebook',
    prompt: () =>
      'Completely replaces the contents of a specific cell in a Jupyter notebook (.ipynb file) with new source. The notebook_path parameter must be an absolute path. The cell_id is the id of the cell to edit (or cell-N, its 0-based index). Use edit_mode=insert to add a new cell after the cell with cell_id (at the beginning without one; cell_type is then required), and edit_mode=delete to delete the cell. Read the notebook first.',
    inputSchema: input,
    outputSchema: NotebookEditOutputSchema,
    validateInput: check,
    async *call(args, ctx) {
      const file = absolute(ctx, args.notebook_path);
      const { text, nb } = await load(file);
      const out = apply(nb, args, file);
      const after = serialize(nb, text);
      await writeAtomically(file, after);
      ctx.session.readFiles.set(file, { content: after, mtimeMs: (await stat(file)).mtimeMs });
      yield { type: 'result', data: out };
    },
    mapToolResult(out) {
      if (out.edit_mode === 'delete') return `Deleted cell ${out.cell_id}`;
      if (out.edit_mode === 'insert') return `Inserted cell ${out.cell_id} with ${out.new_source}`;
      return `Updated cell ${out.cell_id} with ${out.new_source}`;
    },
  });
}
