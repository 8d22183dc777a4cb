import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { allDocs } from '../support/docs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

it('the README embedding example runs and prints what it says', () => {
  const readme = allDocs();
  const block = /<!-- embedding-example -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  expect(block!.split('\n').filter(Boolean).length).toBeLessThanOrEqual(10);
  const dir = mkdtempSync(join(root, '.embed-test-'));
  const home = mkdtempSync(join(root, '.embed-home-'));
  try {
    mkdirSync(join(dir, 'project'));
    const file = join(dir, 'example.mjs');
    writeFileSync(file, block!);
    const out = execFileSync(process.execPath, [file], {
      cwd: join(dir, 'project'),
      env: { ...process.env, HOME: home, AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json') },
      encoding: 'utf8',
    });
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^deny .*rm -rf \//);
    expect(lines[0]).toContain('defaults/settings.json');
    expect(lines[1]).toBe('allow');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

it('the README model example type-checks against the package and runs: without a key, what is left open is asked', () => {
  const readme = allDocs();
  const block = /<!-- model-example -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBeDefined();
  const dir = mkdtempSync(join(root, '.model-test-'));
  const home = mkdtempSync(join(root, '.model-home-'));
  try {
    const file = join(dir, 'example.mjs');
    writeFileSync(file, block!);
    const tsc = spawnSync(
      process.execPath,
      [
        join(root, 'node_modules/typescript/bin/tsc'),
        '--noEmit',
        '--allowJs',
        '--checkJs',
        '--strict',
        '--skipLibCheck',
        '--target',
        'es2023',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        file,
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      AUTOMODE_MANAGED_SETTINGS: join(home, 'none.json'),
    };
    const run = (extra: NodeJS.ProcessEnv = {}) =>
      execFileSync(process.execPath, [file], {
        cwd: dir,
        env: { ...env, ...extra },
        encoding: 'utf8',
      }).trim();
    expect(run()).toBe('ask ask model-error');
    const transcript = join(dir, 'transcript.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'add left-pad' } })}\n`,
    );
    expect(run({ TRANSCRIPT_PATH: transcript })).toBe('ask ask model-error');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}, 120_000);
