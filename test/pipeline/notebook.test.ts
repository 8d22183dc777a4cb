import { chmod, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingHandler, run, type Setup, type SetupOptions, setup } from './helpers.js';

let made: Setup | undefined;
afterEach(async () => {
  if (made) await rm(made.root, { recursive: true, force: true });
  made = undefined;
});

async function start(options: SetupOptions = {}): Promise<Setup> {
  made = await setup({ project: { permissions: { allow: ['Read', 'Edit(**)'] } }, ...options });
  return made;
}

/** A notebook as Jupyter writes it: nbformat 4.5, one-space indent, sorted keys, sources as lists of lines. */
function notebook(cells: Record<string, unknown>[], minor = 5) {
  return {
    cells,
    metadata: {
      kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' },
      language_info: { name: 'python' },
    },
    nbformat: 4,
    nbformat_minor: minor,
  };
}

const codeCell = (id: string, source: string[]) => ({
  cell_type: 'code',
  execution_count: 3,
  id,
  metadata: {},
  outputs: [{ name: 'stdout', output_type: 'stream', text: ['out\n'] }],
  source,
});
const mdCell = (id: string, source: string[]) => ({ cell_type: 'markdown', id, metadata: {}, source });

const jupyter = (nb: object) => `${JSON.stringify(nb, null, 1)}\n`;

async function writeNotebook(cwd: string, name: string, text: string): Promise<string> {
  const file = path.join(cwd, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

const sample = () =>
  notebook([mdCell('intro', ['# Title\n', 'Some text']), codeCell('a1b2c3d4', ['x = 1\n', 'print(x)'])]);

describe('NotebookEdit through the pipeline', () => {
  it('replaces a cell: new source as a list of lines, outputs cleared, execution_count null, layout kept', async () => {
    const { ctx, cwd } = await start();
    const file = await writeNotebook(cwd, 'nb.ipynb', jupyter(sample()));
    await run(ctx, 'Read', { file_path: file });

    const r = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'a1b2c3d4',
      new_source: 'y = 2\nprint(y)\n',
    });
    expect(r.result.block.is_error).toBe(false);
    expect(r.text).toBe('Updated cell a1b2c3d4 with y = 2\nprint(y)\n');

    const text = await readFile(file, 'utf8');
    const expected = sample();
    expected.cells[1] = {
      ...codeCell('a1b2c3d4', ['y = 2\n', 'print(y)\n']),
      execution_count: null,
      outputs: [],
    };
    expect(text).toBe(jupyter(expected));
  });

  it('changes a cell type on replace, with only the fields nbformat allows', async () => {
    const { ctx, cwd } = await start();
    const file = await writeNotebook(cwd, 'nb.ipynb', jupyter(sample()));
    await run(ctx, 'Read', { file_path: file });
    const toMd = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'a1b2c3d4',
      new_source: 'Now prose',
      cell_type: 'markdown',
    });
    expect(toMd.result.block.is_error).toBe(false);
    const toCode = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'intro',
      new_source: 'import os',
      cell_type: 'code',
    });
    expect(toCode.result.block.is_error).toBe(false);
    const nb = JSON.parse(await readFile(file, 'utf8'));
    expect(nb.cells).toEqual([
      {
        cell_type: 'code',
        execution_count: null,
        id: 'intro',
        metadata: {},
        outputs: [],
        source: ['import os'],
      },
      { cell_type: 'markdown', id: 'a1b2c3d4', metadata: {}, source: ['Now prose'] },
    ]);
    // Keys stay sorted, as Jupyter writes them.
    expect(Object.keys(nb.cells[0])).toEqual([
      'cell_type',
      'execution_count',
      'id',
      'metadata',
      'outputs',
      'source',
    ]);
  });

  it('inserts after the cell named, or at the start without cell_id, each with a new nbformat 4.5 id', async () => {
    const { ctx, cwd } = await start();
    const file = await writeNotebook(cwd, 'nb.ipynb', jupyter(sample()));
    await run(ctx, 'Read', { file_path: file });

    const after = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'intro',
      new_source: 'z = 3',
      cell_type: 'code',
      edit_mode: 'insert',
    });
    expect(after.result.block.is_error).toBe(false);
    const first = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      new_source: '## Top',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    expect(first.result.block.is_error).toBe(false);

    const nb = JSON.parse(await readFile(file, 'utf8'));
    expect(nb.cells.map((c: { source: string[] }) => c.source.join(''))).toEqual([
      '## Top',
      '# Title\nSome text',
      'z = 3',
      'x = 1\nprint(x)',
    ]);
    const [top, , inserted] = nb.cells;
    expect(inserted).toEqual({
      cell_type: 'code',
      execution_count: null,
      id: inserted.id,
      metadata: {},
      outputs: [],
      source: ['z = 3'],
    });
    expect(top).toEqual({ cell_type: 'markdown', id: top.id, metadata: {}, source: ['## Top'] });
    for (const id of [top.id, inserted.id]) expect(id).toMatch(/^[a-zA-Z0-9_-]{8,}$/);
    expect(new Set(nb.cells.map((c: { id: string }) => c.id)).size).toBe(4);
    expect(after.text).toBe(`Inserted cell ${inserted.id} with z = 3`);
  });

  it('deletes a cell', async () => {
    const { ctx, cwd } = await start();
    const file = await writeNotebook(cwd, 'nb.ipynb', jupyter(sample()));
    await run(ctx, 'Read', { file_path: file });
    const r = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'intro',
      new_source: '',
      edit_mode: 'delete',
    });
    expect(r.result.block.is_error).toBe(false);
    expect(r.text).toBe('Deleted cell intro');
    expect(JSON.parse(await readFile(file, 'utf8')).cells.map((c: { id: string }) => c.id)).toEqual([
      'a1b2c3d4',
    ]);
  });

  it('accepts cell-N, the index Claude Code shows for a cell without an id; a 4.4 notebook gets no ids', async () => {
    const { ctx, cwd } = await start();
    const cells = sample().cells.map(({ id: _, ...c }) => c);
    const file = await writeNotebook(cwd, 'old.ipynb', jupyter(notebook(cells, 4)));
    await run(ctx, 'Read', { file_path: file });
    const r = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'cell-1',
      new_source: 'print(2)',
    });
    expect(r.result.block.is_error).toBe(false);
    expect(r.text).toBe('Updated cell cell-1 with print(2)');
    const ins = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'cell-0',
      new_source: 'more',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    expect(ins.text).toBe('Inserted cell cell-1 with more');
    const nb = JSON.parse(await readFile(file, 'utf8'));
    expect(nb.cells.map((c: { source: string[] }) => c.source.join(''))).toEqual([
      '# Title\nSome text',
      'more',
      'print(2)',
    ]);
    expect(nb.cells.some((c: object) => 'id' in c)).toBe(false);

    const missing = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'cell-9',
      new_source: 'x',
    });
    expect(missing.result.block.is_error).toBe(true);
    expect(missing.text).toContain('Cell with index 9 does not exist in notebook.');
  });

  it("keeps the file's own layout: two-space indent, no final newline, string sources, its mode", async () => {
    const { ctx, cwd } = await start();
    const nb = notebook([
      { cell_type: 'code', execution_count: null, id: 'c1', metadata: {}, outputs: [], source: 'a = 1' },
    ]);
    const file = await writeNotebook(cwd, 'nb.ipynb', JSON.stringify(nb, null, 2));
    await chmod(file, 0o640);
    await run(ctx, 'Read', { file_path: file });
    const r = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'c1',
      new_source: 'a = 2\nb = 3',
    });
    expect(r.result.block.is_error).toBe(false);
    const ins = await run(ctx, 'NotebookEdit', {
      notebook_path: file,
      cell_id: 'c1',
      new_source: 'note\nmore',
      cell_type: 'markdown',
      edit_mode: 'insert',
    });
    expect(ins.result.block.is_error).toBe(false);
    const text = await readFile(file, 'utf8');
    const parsed = JSON.parse(text);
    nb.cells[0]!.source = 'a = 2\nb = 3';
    nb.cells.push({ cell_type: 'markdown', id: parsed.cells[1].id, metadata: {}, source: 'note\nmore' });
    expect(text).toBe(JSON.stringify(nb, null, 2));
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps tabs, CRLF line endings and a BOM; a one-line notebook stays on one line, with no key added', async () => {
    const { ctx, cwd } = await start();
    const nb = notebook([mdCell('m1', ['old'])]);
    const crlf = `\uFEFF${JSON.stringify(nb, null, '\t').replaceAll('\n', '\r\n')}\r\n`;
    const file = await writeNotebook(cwd, 'crlf.ipynb', crlf);
    const { nbformat_minor: _, ...bare } = notebook([mdCell('m1', ['old'])]);
    const compact = await writeNotebook(cwd, 'compact.ipynb', JSON.stringify(bare));
    for (const f of [file, compact]) {
      await run(ctx, 'Read', { file_path: f });
      const r = await run(ctx, 'NotebookEdit', { notebook_path: f, cell_id: 'm1', new_source: 'new' });
      expect(r.result.block.is_error, f).toBe(false);
    }
    nb.cells[0] = mdCell('m1', ['new']);
    bare.cells[0] = mdCell('m1', ['new']);
    expect(await readFile(file, 'utf8')).toBe(
      `\uFEFF${JSON.stringify(nb, null, '\t').replaceAll('\n', '\r\n')}\r\n`,
    );
    expect(await readFile(compact, 'utf8')).toBe(JSON.stringify(bare));
  });

  it('an Edit deny rule denies it, and the notebook is unchanged', async () => {
    const { handler, requests } = recordingHandler('allow');
    const { ctx, cwd } = await start({
      handler,
      project: { permissions: { allow: ['Read', 'Edit(**)'], deny: ['Edit(./secret.ipynb)'] } },
    });
    const before = jupyter(sample());
    const file = await writeNotebook(cwd, 'secret.ipynb', before);
    await run(ctx, 'Read', { file_path: file });
    const r = await run(ctx, 'NotebookEdit', { notebook_path: file, cell_id: 'intro', new_source: 'x' });
    expect(r.result.block.is_error).toBe(true);
    expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'deny' });
    expect(requests).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('a notebook under .claude/ is a protected path, as for Edit: asked even with an allow rule', async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx, cwd } = await start({ handler });
    const before = jupyter(sample());
    const file = await writeNotebook(cwd, '.claude/x.ipynb', before);
    const text = path.join(cwd, '.claude', 'x.md');
    await writeFile(text, 'old');
    await run(ctx, 'Read', { file_path: file });
    await run(ctx, 'Read', { file_path: text });

    const nb = await run(ctx, 'NotebookEdit', { notebook_path: file, cell_id: 'intro', new_source: 'x' });
    const edit = await run(ctx, 'Edit', { file_path: text, old_string: 'old', new_string: 'new' });
    for (const r of [nb, edit]) {
      expect(r.result.block.is_error).toBe(true);
      expect(r.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'deny', by: 'test' });
    }
    expect(requests.map((q) => q.toolName)).toEqual(['NotebookEdit', 'Edit']);
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('an Edit allow rule for the notebook lets it through without asking; without one it is asked', async () => {
    const { handler, requests } = recordingHandler('deny');
    const { ctx, cwd } = await start({
      handler,
      project: { permissions: { allow: ['Read', 'Edit(./open.ipynb)'] } },
    });
    const open = await writeNotebook(cwd, 'open.ipynb', jupyter(sample()));
    const other = await writeNotebook(cwd, 'other.ipynb', jupyter(sample()));
    await run(ctx, 'Read', { file_path: open });
    await run(ctx, 'Read', { file_path: other });
    expect(
      (await run(ctx, 'NotebookEdit', { notebook_path: open, cell_id: 'intro', new_source: 'x' })).result
        .block.is_error,
    ).toBe(false);
    expect(
      (await run(ctx, 'NotebookEdit', { notebook_path: other, cell_id: 'intro', new_source: 'x' })).result
        .block.is_error,
    ).toBe(true);
    expect(requests.map((q) => q.toolName)).toEqual(['NotebookEdit']);
  });

  it('needs the notebook read first, and read again after it changed', async () => {
    const { ctx, cwd } = await start();
    const before = jupyter(sample());
    const file = await writeNotebook(cwd, 'nb.ipynb', before);
    const r = await run(ctx, 'NotebookEdit', { notebook_path: file, cell_id: 'intro', new_source: 'x' });
    expect(r.result.error).toMatchObject({ stage: 'validation' });
    expect(r.text).toContain('File has not been read yet');
    expect(await readFile(file, 'utf8')).toBe(before);

    await run(ctx, 'Read', { file_path: file });
    const changed = jupyter(notebook([mdCell('intro', ['changed'])]));
    await writeFile(file, changed);
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    const stale = await run(ctx, 'NotebookEdit', { notebook_path: file, cell_id: 'intro', new_source: 'x' });
    expect(stale.text).toContain('File has been modified since read');
    expect(await readFile(file, 'utf8')).toBe(changed);
  });

  it('refuses what it cannot edit with a clear error, leaving every byte of the file as it was', async () => {
    const { ctx, cwd } = await start();
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['garbage.ipynb', '{not json', { cell_id: 'intro' }, 'Notebook is not valid JSON.'],
      [
        'nocells.ipynb',
        '{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}\n',
        { cell_id: 'intro' },
        'no list of cells',
      ],
      [
        'v3.ipynb',
        '{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}\n',
        { cell_id: 'intro' },
        'nbformat 3',
      ],
      ['unknown.ipynb', jupyter(sample()), { cell_id: 'nope' }, 'Cell with ID "nope" not found in notebook.'],
      ['noid.ipynb', jupyter(sample()), {}, 'Cell ID must be specified when not inserting a new cell.'],
      [
        'notype.ipynb',
        jupyter(sample()),
        { edit_mode: 'insert' },
        'Cell type is required when using edit_mode=insert.',
      ],
    ];
    for (const [name, content, args, message] of cases) {
      const file = await writeNotebook(cwd, name, content);
      await run(ctx, 'Read', { file_path: file });
      const r = await run(ctx, 'NotebookEdit', { notebook_path: file, new_source: 'x', ...args });
      expect(r.result.block.is_error, name).toBe(true);
      expect(r.text, name).toContain(message);
      expect(await readFile(file, 'utf8'), name).toBe(content);
    }
    const txt = await writeNotebook(cwd, 'notes.txt', 'hello');
    const wrong = await run(ctx, 'NotebookEdit', { notebook_path: txt, cell_id: 'a', new_source: 'x' });
    expect(wrong.text).toContain('File must be a Jupyter notebook (.ipynb file)');
    const bad = await run(ctx, 'NotebookEdit', { notebook_path: txt, new_source: 'x', edit_mode: 'append' });
    expect(bad.result.error).toMatchObject({ stage: 'validation', kind: 'InputValidationError' });
    expect((await readdir(cwd)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
