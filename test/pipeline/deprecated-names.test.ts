import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { run, type Setup, setup } from './helpers.js';

beforeAll(async () => {
  await loadBash();
});

let made: Setup | undefined;
afterEach(async () => {
  if (made) await rm(made.root, { recursive: true, force: true });
  made = undefined;
});

describe("a call by one of the design's old tool names", () => {
  it('runs the current tool and its result says the name is deprecated and names the current one', async () => {
    made = await setup({ project: { permissions: { allow: ['Read', 'Bash(printf *)'] } } });
    const { ctx, cwd } = made;
    const file = path.join(cwd, 'a.txt');
    await writeFile(file, 'one\n');

    const read = await run(ctx, 'FileRead', { file_path: file });
    expect(read.result.block.is_error).toBe(false);
    expect(read.result.tool).toBe('Read');
    expect(read.text).toBe(
      '     1\tone\nNote: FileRead is a deprecated name for Read. Call Read from now on.',
    );

    const bash = await run(ctx, 'BashTool', { command: 'printf hi' });
    expect(bash.result.block.is_error).toBe(false);
    expect(bash.text).toContain('hi');
    expect(bash.text).toContain('Note: BashTool is a deprecated name for Bash. Call Bash from now on.');

    const current = await run(ctx, 'Read', { file_path: file });
    expect(current.text).not.toContain('deprecated');
  });

  it('says so on a failed call too: the model learns the name whatever the outcome', async () => {
    made = await setup();
    const { ctx, cwd } = made;
    const invalid = await run(ctx, 'FileReadTool', { path: 'x' });
    expect(invalid.result.error).toMatchObject({ stage: 'validation' });
    expect(invalid.text).toMatch(
      /Note: FileReadTool is a deprecated name for Read\. Call Read from now on\.$/,
    );

    const file = path.join(cwd, 'b.txt');
    await writeFile(file, 'x');
    const unread = await run(ctx, 'FileWrite', { file_path: file, content: 'y' });
    expect(unread.result.block.is_error).toBe(true);
    expect(unread.text).toContain('File has not been read yet');
    expect(unread.text).toContain('Note: FileWrite is a deprecated name for Write. Call Write from now on.');
  });
});
