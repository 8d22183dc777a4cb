import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/automode.js');

it('ends quietly when the reader of its output has gone (explain … | head)', async () => {
  const child = spawn(process.execPath, [BIN, 'explain', 'git status && rm -rf build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).not.toMatch(/EPIPE|Unhandled/);
  expect(code).toBe(0);
});
