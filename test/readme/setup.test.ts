import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

it("CI runs the README's test command, and that command sets up the system packages itself", () => {
  const readme = read('README.md');
  const block = /## Set-up on a fresh machine\s*```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
  const testCommand = block.trim().split('\n')[1];
  expect(testCommand).toBe('npm ci && npm test');
  expect(read('.ci/run').split('\n')).toContain(testCommand);
  const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
  expect(scripts.pretest).toBe('bash scripts/setup-sandbox.sh');
});
