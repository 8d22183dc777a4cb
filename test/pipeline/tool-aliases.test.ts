import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookCommand, recordingHandler, run, type Setup, setup } from './helpers.js';

let made: Setup | undefined;
afterEach(async () => {
  if (made) await rm(made.root, { recursive: true, force: true });
  made = undefined;
});

describe('a call by a name the tool has gone by, through the pipeline', () => {
  it('FileEdit runs the Edit tool, under Edit rules and hooks matching FileEdit', async () => {
    const { handler, requests } = recordingHandler('deny');
    const record = path.join(tmpdir(), `automode-tool-aliases-${process.pid}.jsonl`);
    made = await setup({
      handler,
      project: {
        permissions: { allow: ['Edit(notes/**)', 'Read'], deny: ['FileEdit(secret/**)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'FileEdit', hooks: [{ type: 'command', command: hookCommand({ record }) }] },
          ],
        },
      },
    });
    const { ctx, cwd } = made;
    try {
      const notes = path.join(cwd, 'notes', 'a.md');
      const secret = path.join(cwd, 'secret', 'key');
      await mkdir(path.dirname(notes), { recursive: true });
      await mkdir(path.dirname(secret), { recursive: true });
      await writeFile(notes, 'old\n');
      await writeFile(secret, 'old\n');
      await run(ctx, 'Read', { file_path: notes });
      await run(ctx, 'Read', { file_path: secret });

      const allowed = await run(ctx, 'FileEdit', { file_path: notes, old_string: 'old', new_string: 'new' });
      expect(allowed.result.block.is_error).not.toBe(true);
      expect(await readFile(notes, 'utf8')).toBe('new\n');

      const denied = await run(ctx, 'FileEdit', { file_path: secret, old_string: 'old', new_string: 'new' });
      expect(denied.result.block.is_error).toBe(true);
      expect(denied.messages.find((m) => m.type === 'permission')).toMatchObject({ decision: 'deny' });
      expect(await readFile(secret, 'utf8')).toBe('old\n');
      expect(requests).toEqual([]);

      const hookInputs = (await readFile(record, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(hookInputs.map((i) => i.input.tool_name)).toEqual(['Edit', 'Edit']);
    } finally {
      await rm(record, { force: true });
    }
  });
});
