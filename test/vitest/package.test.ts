import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, remove, tempFolder } from '../testing/helpers.js';

/**
 * A project that depends on automode: its node_modules link to this package (as built in dist/) and to vitest,
 * and its own test file imports `automode/vitest` through the package exports.
 */
let consumer: string;
const FIXTURE = path.join(REPO, 'fixtures/testing/vitest-consumer');

beforeAll(async () => {
  consumer = await tempFolder('automode-consumer-');
  for (const name of ['rules.test.ts', 'tsconfig.json', 'package.json']) {
    await copyFile(path.join(FIXTURE, name), path.join(consumer, name));
  }
  await mkdir(path.join(consumer, 'node_modules/@types'), { recursive: true });
  await symlink(REPO, path.join(consumer, 'node_modules/automode'), 'dir');
  for (const dep of ['vitest', '@types/node']) {
    await symlink(path.join(REPO, 'node_modules', dep), path.join(consumer, 'node_modules', dep), 'dir');
  }
  await mkdir(path.join(consumer, '.claude'));
  await writeFile(
    path.join(consumer, '.claude/settings.json'),
    '{"permissions":{"allow":["Bash(npm test)"],"ask":["Bash(git push *)"]}}\n',
  );
});
afterAll(() => remove(consumer));

const run = (args: string[]) =>
  spawnSync(process.execPath, args, {
    cwd: consumer,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: consumer, CI: 'true', NO_COLOR: '1' },
  });

describe('automode/vitest through the package exports', () => {
  it('registers the matchers on import, in a project of its own', () => {
    const r = run([path.join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', consumer]);
    expect(r.stderr + r.stdout).toMatch(/Tests\s+2 passed \(2\)/);
    expect(r.status).toBe(0);
  });

  it('ships declarations that add the matchers to vitest assertions', () => {
    const r = run([
      path.join(REPO, 'node_modules/typescript/bin/tsc'),
      '-p',
      path.join(consumer, 'tsconfig.json'),
    ]);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
