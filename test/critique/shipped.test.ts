import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Box, critiqueFiles, makeBox, removeBox } from './helpers.js';

let box: Box;
beforeAll(async () => {
  box = await makeBox();
});
afterAll(async () => {
  await removeBox(box);
});

async function overrides(settings: unknown) {
  const file = path.join(box.root, `s-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(settings, null, 2));
  const report = await critiqueFiles(box, [file]);
  return report.findings.filter((f) => f.code === 'overrides-shipped');
}

describe('overrides-shipped', () => {
  it('names the shipped asks the allow overrides, as related locations in the shipped file', async () => {
    const [f] = await overrides({ permissions: { allow: ['Bash(git push --force origin wip)'] } });
    expect(f?.severity).toBe('note');
    expect(f?.related.map((r) => r.rule)).toEqual(['Bash(git push --force *)']);
    expect(f?.related[0]?.file).toMatch(/defaults[/\\]settings\.json$/);
  });

  it('is not reported for a broad allow, nor for an ask that is turned off', async () => {
    expect(await overrides({ permissions: { allow: ['Bash(rm *)', 'Bash(git *)'] } })).toEqual([]);
    expect(
      await overrides({
        permissions: { allow: ['Bash(git rebase main)'] },
        automode: { disableShippedRules: ['Bash(git rebase *)'] },
      }),
    ).toEqual([]);
  });
});
