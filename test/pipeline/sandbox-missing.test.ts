import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test, vi } from 'vitest';
import { recordingHandler, run } from './helpers.js';
import { permission, projects } from './sandbox-helpers.js';

// The sandbox runtime is an optional peer dependency. Here it is missing: importing it fails as Node fails when a
// package is not installed (the shared node_modules is left alone).
vi.mock('@anthropic-ai/sandbox-runtime', () => {
  const e = new Error(
    "Cannot find package '@anthropic-ai/sandbox-runtime' imported from /app/node_modules/automode/dist/pipeline/sandbox/runtime.js",
  );
  Object.assign(e, { code: 'ERR_MODULE_NOT_FOUND' });
  throw e;
});

const made = projects();
afterAll(() => made.remove());

const MISSING =
  'automode: the sandbox needs @anthropic-ai/sandbox-runtime@0.0.83; install it: npm install @anthropic-ai/sandbox-runtime@0.0.83';

describe.skipIf(!['linux', 'darwin'].includes(process.platform))(
  'a sandbox whose runtime is not installed',
  () => {
    test('asks, saying which package to install, instead of running the command on the host', async () => {
      const { handler, requests } = recordingHandler('deny');
      const s = await made.make({ sandbox: { enabled: true } }, { handler });
      const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
      expect(requests).toHaveLength(1);
      expect(requests[0]?.reason).toBe(
        `the sandbox is unavailable (${MISSING}); allowing runs the command without it`,
      );
      expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'test' });
      expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(false);
    });

    test('headless, it is denied with the same reason', async () => {
      const s = await made.make({ sandbox: { enabled: true }, permissions: { allow: ['Bash(touch:*)'] } });
      const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
      expect(permission(r.messages)).toMatchObject({ decision: 'deny', by: 'handler' });
      expect(permission(r.messages)?.reason).toContain(MISSING);
      expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(false);
    });

    test('a project without the sandbox runs as before', async () => {
      const s = await made.make({ permissions: { allow: ['Bash(touch:*)'] } });
      const r = await run(s.ctx, 'Bash', { command: 'touch made.txt' });
      expect(permission(r.messages)).toMatchObject({ decision: 'allow' });
      expect(existsSync(path.join(s.cwd, 'made.txt'))).toBe(true);
    });
  },
);
