import { appendFileSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextFromTranscript, followTranscript } from '../../src/classifier/index.js';

const line = (v: unknown) => `${JSON.stringify(v)}\n`;
const user = (text: string) => line({ type: 'user', message: { role: 'user', content: text } });
const call = (command: string) =>
  line({
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'tool_use', name: 'Bash', input: { command } }] },
  });
const result = (text: string) =>
  line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', content: text }] } });

function file(text: string) {
  const path = join(mkdtempSync(join(tmpdir(), 'automode-transcript-')), 'session.jsonl');
  writeFileSync(path, text);
  return path;
}

describe('followTranscript', () => {
  it('reads only the bytes appended since the last read, a line cut in the middle included', async () => {
    const first = user('hello') + call('ls');
    const path = file(first);
    const follower = followTranscript(path);
    expect(await follower.read()).toEqual({
      userMessages: ['hello'],
      toolCalls: [{ tool: 'Bash', input: { command: 'ls' } }],
    });
    expect(follower.bytesRead).toBe(Buffer.byteLength(first));
    const next = result('SECRET') + user('go on');
    const half = Math.floor(next.length / 2) + 5;
    appendFileSync(path, next.slice(0, half));
    await follower.read();
    appendFileSync(path, next.slice(half));
    const context = await follower.read();
    expect(follower.bytesRead).toBe(Buffer.byteLength(first + next));
    expect(context).toEqual(contextFromTranscript(first + next));
    expect(JSON.stringify(context)).not.toContain('SECRET');
    expect(await follower.read()).toEqual(context);
    expect(follower.bytesRead).toBe(Buffer.byteLength(first + next));
  });

  it('keeps the last 20 user messages and 30 tool calls, as a full read does', async () => {
    let text = '';
    for (let i = 0; i < 50; i++) text += user(`message ${i}`) + call(`echo ${i}`);
    const path = file('');
    const follower = followTranscript(path);
    for (const chunk of text.match(/[\s\S]{1,700}/g) ?? []) {
      appendFileSync(path, chunk);
      await follower.read();
    }
    const context = await follower.read();
    expect(context).toEqual(contextFromTranscript(text));
    expect(context?.userMessages).toHaveLength(20);
    expect(context?.toolCalls).toHaveLength(30);
  });

  it('starts over when the file is truncated or replaced, and gives no context while it is missing', async () => {
    const path = file(user('first session') + user('more'));
    const follower = followTranscript(path);
    await follower.read();
    writeFileSync(path, user('new'));
    expect((await follower.read())?.userMessages).toEqual(['new']);
    writeFileSync(`${path}.tmp`, user('replaced, and longer than before'));
    const { renameSync, rmSync } = await import('node:fs');
    renameSync(`${path}.tmp`, path);
    expect((await follower.read())?.userMessages).toEqual(['replaced, and longer than before']);
    rmSync(path);
    expect(await follower.read()).toBeUndefined();
  });
  it('starts over when the file is rewritten in place (same inode), longer or shorter than before', async () => {
    const path = file(user('old one') + user('old two'));
    const inode = statSync(path).ino;
    const follower = followTranscript(path);
    expect((await follower.read())?.userMessages).toEqual(['old one', 'old two']);
    const longer = user('new, and much longer than what the old transcript held') + call('make');
    writeFileSync(path, longer);
    expect(statSync(path).ino).toBe(inode);
    expect(await follower.read()).toEqual(contextFromTranscript(longer));
    const shorter = user('short');
    writeFileSync(path, shorter);
    expect(await follower.read()).toEqual(contextFromTranscript(shorter));
    appendFileSync(path, user('appended'));
    expect((await follower.read())?.userMessages).toEqual(['short', 'appended']);
    // Rewritten between two reads into something as long, then grown past the last offset.
    const same = user('SHORT');
    writeFileSync(path, same + user('appended') + user('grown'));
    expect((await follower.read())?.userMessages).toEqual(['SHORT', 'appended', 'grown']);
    expect(statSync(path).ino).toBe(inode);
  });

  it('reads at most maxBytes in one call: of a large append, only its end', async () => {
    let text = '';
    for (let i = 0; i < 100; i++) text += user(`message ${i}`);
    const path = file(text);
    const follower = followTranscript(path, { messages: 20, calls: 30, maxBytes: 1000 });
    const context = await follower.read();
    expect(follower.bytesRead).toBeLessThanOrEqual(1000);
    expect(context?.userMessages?.at(-1)).toBe('message 99');
    expect(context?.userMessages).not.toContain('message 0');
    const fits = user('next');
    appendFileSync(path, fits);
    expect((await follower.read())?.userMessages?.at(-1)).toBe('next');
    expect(follower.bytesRead).toBeLessThanOrEqual(1000 + fits.length);
  });
});
