import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it, vi } from 'vitest';
import { allDocs } from '../support/docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const saved = { HOME: process.env.HOME, AUTOMODE_MANAGED_SETTINGS: process.env.AUTOMODE_MANAGED_SETTINGS };

afterEach(() => {
  vi.restoreAllMocks();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

it('the README pipeline example runs and prints what it says', async () => {
  const readme = allDocs();
  const block = /<!-- pipeline-example -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const home = await mkdtemp(path.join(os.tmpdir(), 'automode-readme-'));
  process.env.HOME = home;
  process.env.AUTOMODE_MANAGED_SETTINGS = path.join(home, 'none.json');
  const file = path.join(root, 'test', 'pipeline', `.readme-example-${process.pid}.mjs`);
  // The package's entries, as their sources.
  const source = block!
    .replaceAll("from 'automode'", `from ${JSON.stringify(path.join(root, 'src', 'index.ts'))}`)
    .replaceAll(
      "from 'automode/pipeline'",
      `from ${JSON.stringify(path.join(root, 'src', 'pipeline', 'index.ts'))}`,
    );
  const logged: unknown[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args) => {
    logged.push(...args);
  });
  try {
    await writeFile(file, source);
    await import(file);
  } finally {
    await rm(file, { force: true });
    await rm(home, { recursive: true, force: true });
  }
  const expected = /\/\/ (\{ type: 'tool_result'.*\})\s*$/.exec(block!)?.[1];
  expect(expected).toBeDefined();
  expect(logged).toEqual([
    { type: 'tool_result', tool_use_id: 'toolu_1', content: 'hello', is_error: false },
  ]);
});
