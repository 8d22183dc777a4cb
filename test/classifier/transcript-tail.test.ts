import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextFromTranscript, readTranscriptTail } from '../../src/classifier/index.js';

let dir: string;
let n = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'automode-tail-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(content: string | Buffer): string {
  const path = join(dir, `t${n++}.jsonl`);
  writeFileSync(path, content);
  return path;
}

/** Text with multibyte characters (2, 3 and 4 bytes in UTF-8), so that chunk edges fall inside them. */
const words = fc.string({ unit: fc.constantFrom('a', 'é', '€', '𝄞', ' ', '"', '\\'), maxLength: 40 });

const entry = fc.oneof(
  words.map((t) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } })),
  fc.array(words, { maxLength: 3 }).map((ts) =>
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: ts.map((t) => ({ type: 'text', text: t })) },
    }),
  ),
  fc.tuple(fc.constantFrom('Bash', 'Read', 'Édit'), words, fc.nat({ max: 3 })).map(([name, cmd, k]) =>
    JSON.stringify({
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: cmd },
          ...Array.from({ length: k }, (_, i) => ({
            type: 'tool_use',
            name,
            input: { command: `${cmd}${i}` },
          })),
        ],
      },
    }),
  ),
  words.map((t) =>
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', content: t }] },
    }),
  ),
  words.map((t) => `{"type":"user","message":{"role":"user","content":${JSON.stringify(t)}`),
  fc.constantFrom('', '   ', 'null', '42', 'not json'),
);

const transcript = fc.record({
  lines: fc.array(entry, { maxLength: 120 }),
  crlf: fc.boolean(),
  finalNewline: fc.boolean(),
});

const render = ({ lines, crlf, finalNewline }: { lines: string[]; crlf: boolean; finalNewline: boolean }) =>
  lines.join(crlf ? '\r\n' : '\n') + (finalNewline ? '\n' : '');

describe('readTranscriptTail', () => {
  it('gives what contextFromTranscript gives for the whole file, whatever the chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(transcript, fc.integer({ min: 1, max: 300 }), async (t, chunk) => {
        const text = render(t);
        const path = file(text);
        expect(await readTranscriptTail(path, { chunk })).toEqual(contextFromTranscript(text));
      }),
      { numRuns: 300 },
    );
  });

  it('agrees with the limits lowered, so that it stops reading early', async () => {
    await fc.assert(
      fc.asyncProperty(
        transcript,
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        async (t, chunk, messages, calls) => {
          const text = render(t);
          expect(await readTranscriptTail(file(text), { chunk, messages, calls })).toEqual(
            contextFromTranscript(text, { messages, calls }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reads a line longer than many chunks, and invalid UTF-8 as the whole-file read decodes it', async () => {
    const long = JSON.stringify({ type: 'user', message: { role: 'user', content: '€'.repeat(5000) } });
    const bad = Buffer.from([0xe2, 0x82, 0x0a, 0xf0, 0x9d]);
    const content = Buffer.concat([Buffer.from(`${long}\n`), bad, Buffer.from(`\n${long}\r\n`)]);
    const path = file(content);
    const whole = contextFromTranscript(content.toString('utf8'));
    expect(whole.userMessages).toHaveLength(2);
    expect(await readTranscriptTail(path, { chunk: 7 })).toEqual(whole);
  });

  it('stops after maxBytes, keeping what the tail holds', async () => {
    const line = (t: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: t } });
    const text = `${line('first')}\n${line('x'.repeat(1000))}\n${line('last')}\n`;
    expect(await readTranscriptTail(file(text), { maxBytes: 100, chunk: 16 })).toEqual({
      userMessages: ['last'],
      toolCalls: [],
    });
  });

  it('gives no context for a file that cannot be read', async () => {
    expect(await readTranscriptTail(join(dir, 'missing.jsonl'))).toBeUndefined();
  });
});
