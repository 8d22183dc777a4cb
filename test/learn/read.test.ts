import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { projectTranscriptFolder, readSessions } from '../../src/testing/index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'automode-learn-read-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const base = { cwd: '/home/sam/app', sessionId: 's-1', version: '2.0.37', userType: 'external' };
const use = (id: string, name: string, input: object, extra: object = {}) =>
  JSON.stringify({
    ...base,
    ...extra,
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
  });
const result = (id: string, content: unknown, isError = false, extra: object = {}) =>
  JSON.stringify({
    ...base,
    ...extra,
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }],
    },
  });

describe('readSessions', () => {
  it('reads each call with what became of it, the permission mode and the project folder', async () => {
    const file = path.join(root, 's.jsonl');
    await writeFile(
      file,
      [
        JSON.stringify({ type: 'summary', summary: 'x', leafUuid: 'u' }),
        JSON.stringify({
          ...base,
          type: 'user',
          message: { role: 'user', content: 'go' },
          permissionMode: 'default',
        }),
        use('t1', 'Bash', { command: 'npm test' }),
        result('t1', 'ok'),
        use('t2', 'Bash', { command: 'npm run lint' }),
        result('t2', 'Exit code 1\nlint failed', true),
        use('t3', 'Bash', { command: 'git push --force' }),
        result(
          't3',
          [
            {
              type: 'text',
              text: "The user doesn't want to proceed with this tool use. The tool use was rejected.",
            },
          ],
          true,
        ),
        use('t4', 'Bash', { command: 'rm -rf /' }),
        result('t4', 'Permission to use Bash with command rm -rf / has been denied.', true),
        use('t5', 'Edit', { file_path: '/home/sam/app/a.ts' }),
        result('t5', '<tool_use_error>File has not been read yet.</tool_use_error>', true),
        JSON.stringify({
          ...base,
          type: 'user',
          message: { role: 'user', content: 'now' },
          permissionMode: 'bypassPermissions',
        }),
        use('t6', 'Bash', { command: 'make' }),
        result('t6', 'done'),
        use('t7', 'Bash', { command: 'sleep 100' }),
        '',
      ].join('\n'),
    );
    const read = await readSessions([file]);
    expect(read.problems).toEqual([]);
    expect(read.calls.map((c) => [c.input.command ?? c.tool, c.outcome, c.mode])).toEqual([
      ['npm test', 'ran', 'default'],
      ['npm run lint', 'ran', 'default'],
      ['git push --force', 'rejected', 'default'],
      ['rm -rf /', 'denied', 'default'],
      ['Edit', 'other', 'default'],
      ['make', 'ran', 'bypassPermissions'],
      ['sleep 100', 'other', 'bypassPermissions'],
    ]);
    expect(read.calls[0]).toMatchObject({
      file,
      line: 3,
      session: 's-1',
      project: '/home/sam/app',
      cwd: '/home/sam/app',
    });
  });

  it('counts lines of unknown types and locates lines that are not JSON, reading the rest of the file', async () => {
    const file = path.join(root, 'odd.jsonl');
    await writeFile(
      file,
      [
        JSON.stringify({ type: 'x-new-kind', data: 1 }),
        JSON.stringify({ type: 'x-new-kind', data: 2 }),
        '{"type": "assistant", "message": {',
        '[1, 2]',
        use('t1', 'Bash', { command: 'ls' }),
        result('t1', 'a b'),
      ].join('\n'),
    );
    const read = await readSessions([file]);
    expect(read.unknown).toEqual({ 'x-new-kind': 2 });
    expect(read.problems.map((p) => [p.line, p.column, p.message.slice(0, 8)])).toEqual([
      [3, 1, 'not JSON'],
      [4, 1, 'not a JS'],
    ]);
    expect(read.calls).toHaveLength(1);
  });

  it('walks folders for .jsonl transcripts and .json agent runs; a missing path is an error', async () => {
    await mkdir(path.join(root, 'p', 'sub'), { recursive: true });
    await writeFile(
      path.join(root, 'p', 'sub', 'a.jsonl'),
      `${use('t1', 'Bash', { command: 'ls' })}\n${result('t1', 'x')}\n`,
    );
    await writeFile(path.join(root, 'p', 'notes.txt'), 'not read');
    await writeFile(
      path.join(root, 'p', 'run.json'),
      JSON.stringify({
        turns: 2,
        calls: [
          { tool: 'Bash', input: { command: 'npm test' }, decision: 'allow', asked: true, isError: false },
          { tool: 'Bash', input: { command: 'git push' }, decision: 'deny', asked: true, isError: true },
        ],
      }),
    );
    const read = await readSessions([path.join(root, 'p'), path.join(root, 'missing')]);
    expect(read.files).toBe(2);
    expect(read.calls.map((c) => [c.input.command, c.outcome, c.asked])).toEqual([
      ['npm test', 'ran', true],
      ['git push', 'rejected', true],
      ['ls', 'ran', undefined],
    ]);
    expect(read.errors).toEqual([{ file: path.join(root, 'missing'), message: 'cannot read: ENOENT' }]);
  });

  it("names Claude Code's transcript folder of a project", () => {
    expect(projectTranscriptFolder('/h/.claude', '/home/sam/my.app')).toBe(
      '/h/.claude/projects/-home-sam-my-app',
    );
  });
});
