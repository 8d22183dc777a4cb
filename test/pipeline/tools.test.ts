import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBash } from '../../src/bash/analyze.js';
import type { ToolUseContext } from '../../src/pipeline/context.js';
import { type AnyTool, buildTool } from '../../src/pipeline/tool.js';
import { deferredToolsNotice } from '../../src/pipeline/tools/tool-search.js';
import { run, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

const contexts: ToolUseContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.session.tasks.killAll()));
});

async function bashSetup(options: Parameters<typeof setup>[0] = {}) {
  const s = await setup({ project: { permissions: { allow: ['Bash'] } }, ...options });
  contexts.push(s.ctx);
  return s;
}

describe('Bash', () => {
  it('runs a real process in the working folder and streams stdout and stderr as progress', async () => {
    const { ctx, cwd } = await bashSetup();
    const r = await run(ctx, 'Bash', { command: 'pwd; echo err >&2; sleep 0.5; echo more' });
    expect(r.text).toBe(`${cwd}\nmore\nerr\n`);
    const chunks = r.messages.filter((m) => m.type === 'progress').map((m) => m.data);
    expect(chunks).toContainEqual({ stream: 'stderr', text: 'err\n' });
    expect(chunks.filter((c) => (c as { stream: string }).stream === 'stdout').length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('times out with the output so far', async () => {
    const { ctx } = await bashSetup();
    const started = Date.now();
    const r = await run(ctx, 'Bash', { command: 'echo started; sleep 10', timeout: '300' });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(r.result.error).toEqual({ stage: 'execution', kind: 'ShellError' });
    expect(r.text).toBe('Error: started\n\nCommand timed out after 300 ms');
  });

  it('runs in the background on request; BashOutput reads the new output and the status', async () => {
    const { ctx } = await bashSetup();
    const r = await run(ctx, 'Bash', { command: 'echo one; sleep 0.3; echo two', run_in_background: true });
    const id = /ID: (bash_\d+)/.exec(r.text)?.[1];
    expect(id).toBeDefined();
    await ctx.session.tasks.get(id!)!.process.done;
    const out = await run(ctx, 'BashOutput', { bash_id: id });
    expect(out.text).toBe(
      '<status>completed</status>\n<exit_code>0</exit_code>\n<output>\none\ntwo\n</output>',
    );
    expect((await run(ctx, 'BashOutput', { bash_id: id })).text).toContain('<output>\n</output>');
    const none = await run(ctx, 'BashOutput', { bash_id: 'bash_99' });
    expect(none.text).toBe('<tool_use_error>No background command with ID bash_99</tool_use_error>');
  });

  it('moves a command that runs past the threshold to the background, output kept', async () => {
    const { ctx } = await bashSetup({ bash: { autoBackgroundMs: 300 } });
    // The output so far ends before `late`: the call returned while the command still ran.
    const r = await run(ctx, 'Bash', { command: 'echo early; sleep 0.8; echo late' });
    expect(r.result.block.is_error).toBe(false);
    expect(r.text).toMatch(
      /moved to the background with ID: bash_1\. Read its output with BashOutput\.\nOutput so far:\nearly\n$/,
    );
    const task = ctx.session.tasks.get('bash_1')!;
    await task.process.done;
    expect(ctx.session.tasks.read('bash_1')).toMatchObject({ status: 'completed', stdout: 'early\nlate\n' });
  });
});

describe('Read, Write and Edit', () => {
  it('Write refuses a file not read first, or changed since; Edit needs a unique old_string', async () => {
    const { ctx, cwd } = await setup({ mode: 'acceptEdits' });
    const file = path.join(cwd, 'src', 'a.ts');
    const created = await run(ctx, 'Write', { file_path: file, content: 'let a = 1;\nlet b = 1;\n' });
    expect(created.text).toBe(`File created successfully at: ${file}`);
    const other = path.join(cwd, 'b.txt');
    await writeFile(other, 'old');
    const refused = await run(ctx, 'Write', { file_path: other, content: 'new' });
    expect(refused.text).toBe(
      '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
    );
    await run(ctx, 'Read', { file_path: other });
    const later = new Date(Date.now() + 5000);
    await utimes(other, later, later);
    const stale = await run(ctx, 'Write', { file_path: other, content: 'new' });
    expect(stale.text).toMatch(/modified since read/);
    expect(await readFile(other, 'utf8')).toBe('old');

    const ambiguous = await run(ctx, 'Edit', { file_path: file, old_string: ' = 1;', new_string: ' = 2;' });
    expect(ambiguous.text).toMatch(/Found 2 matches/);
    const unique = await run(ctx, 'Edit', {
      file_path: file,
      old_string: 'let b = 1;',
      new_string: 'let b = 2;',
    });
    expect(unique.text).toBe(`The file ${file} has been updated.`);
    const all = await run(ctx, 'Edit', {
      file_path: file,
      old_string: 'let',
      new_string: 'const',
      replace_all: 'true',
    });
    expect(all.text).toBe(`The file ${file} has been updated (2 replacements).`);
    expect(await readFile(file, 'utf8')).toBe('const a = 1;\nconst b = 2;\n');
    const missing = await run(ctx, 'Edit', {
      file_path: file,
      old_string: 'nothing like it',
      new_string: 'x',
    });
    expect(missing.text).toMatch(/String to replace not found/);
  });
});

describe('Glob, Grep and TodoWrite', () => {
  it('Glob finds files by pattern, newest first; Grep searches contents', async () => {
    const { ctx, cwd } = await setup();
    await mkdir(path.join(cwd, 'src', 'deep'), { recursive: true });
    await writeFile(path.join(cwd, 'src', 'a.ts'), 'export const needle = 1;\n');
    await writeFile(path.join(cwd, 'src', 'deep', 'b.ts'), 'nothing\nNEEDLE here\n');
    await writeFile(path.join(cwd, 'readme.md'), 'needle\n');
    const old = new Date(Date.now() - 60_000);
    await utimes(path.join(cwd, 'src', 'a.ts'), old, old);
    const glob = await run(ctx, 'Glob', { pattern: '**/*.ts' });
    expect(glob.text).toBe([path.join(cwd, 'src/deep/b.ts'), path.join(cwd, 'src/a.ts')].join('\n'));
    expect((await run(ctx, 'Glob', { pattern: '*.py' })).text).toBe('No files found');
    const files = await run(ctx, 'Grep', { pattern: 'needle', '-i': true, glob: '*.ts' });
    expect(files.text.split('\n').sort()).toEqual([
      path.join(cwd, 'src/a.ts'),
      path.join(cwd, 'src/deep/b.ts'),
    ]);
    const content = await run(ctx, 'Grep', { pattern: 'NEEDLE', output_mode: 'content', path: 'src' });
    expect(content.text).toBe(`${path.join(cwd, 'src/deep/b.ts')}:2:NEEDLE here`);
    const bad = await run(ctx, 'Grep', { pattern: '(' });
    expect(bad.text).toMatch(/<tool_use_error>Invalid regular expression/);
  });

  it('TodoWrite replaces the session todo list', async () => {
    const { ctx } = await setup();
    const todos = [
      { content: 'write tests', status: 'in_progress', activeForm: 'Writing tests' },
      { content: 'ship', status: 'pending' },
    ];
    const r = await run(ctx, 'TodoWrite', { todos });
    expect(r.text).toMatch(/^Todos have been modified successfully/);
    expect(ctx.session.todos).toEqual(todos);
    expect(
      (await run(ctx, 'TodoWrite', { todos: [{ content: 'x', status: 'done' }] })).result.error?.stage,
    ).toBe('validation');
  });
});

describe('deferred tools and ToolSearch', () => {
  const deferred = (name: string, description: string) =>
    buildTool({
      name,
      description,
      shouldDefer: true,
      inputSchema: z.strictObject({ text: z.string() }),
      async *call(input) {
        yield { type: 'result', data: `${name}: ${input.text}` };
      },
    }) as AnyTool;

  it('a deferred tool is not in the tool list and cannot be called until ToolSearch loads it', async () => {
    const tools = [
      deferred('CronCreate', 'Schedule a recurring task'),
      deferred('SendMessage', 'Send a message to a teammate'),
      deferred('TeamCreate', 'Create a team of agents'),
    ];
    const { ctx } = await setup({
      tools,
      project: { permissions: { allow: ['CronCreate', 'SendMessage', 'TeamCreate'] } },
    });
    expect(ctx.registry.definitions().map((d) => d.name)).not.toContain('CronCreate');
    expect(deferredToolsNotice(ctx.registry)).toBe(
      'Deferred tools (load with ToolSearch): CronCreate, SendMessage, TeamCreate',
    );
    const early = await run(ctx, 'CronCreate', { text: 'x' });
    expect(early.result.error).toEqual({ stage: 'lookup', kind: 'DeferredToolNotLoaded' });
    expect(early.text).toContain('select:CronCreate');

    const selected = await run(ctx, 'ToolSearch', { query: 'select:CronCreate,Nope' });
    expect(selected.text).toContain(
      '<function>{"name":"CronCreate","description":"Schedule a recurring task","parameters":{"type":"object"',
    );
    expect(selected.text).toContain('No deferred tool named: Nope');
    expect((await run(ctx, 'CronCreate', { text: 'hi' })).text).toBe('CronCreate: hi');

    const keyword = await run(ctx, 'ToolSearch', { query: 'message teammate' });
    expect(keyword.text).toContain('"name":"SendMessage"');
    expect(keyword.text).not.toContain('TeamCreate');
    expect(ctx.registry.definitions().map((d) => d.name)).toEqual(
      expect.arrayContaining(['CronCreate', 'SendMessage']),
    );
    expect(deferredToolsNotice(ctx.registry)).toBe('Deferred tools (load with ToolSearch): TeamCreate');
    expect((await run(ctx, 'ToolSearch', { query: 'weather forecast' })).text).toBe(
      'No matching deferred tools found.',
    );
  });
});

void sleep;
