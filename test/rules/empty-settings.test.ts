import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { loadSettings } from '../../src/rules/index.js';
import { sandbox, writeFiles } from './helpers.js';

// A settings file rewritten without a temporary file is first truncated, then written: for a moment it is empty.
// Claude Code keeps the old settings until the file has been still for a second; automode must not allow what
// the file denied during that moment.

const DENY = JSON.stringify({ permissions: { deny: ['Bash(git status)'] } });

async function project() {
  const box = await sandbox();
  await writeFiles(box.root, { 'proj/.claude/settings.json': DENY });
  const file = path.join(box.cwd, '.claude', 'settings.json');
  const load = () => loadSettings({ cwd: box.cwd, home: box.home, managedPath: box.managed, env: {} });
  const decide = async () =>
    (
      await createClassifier(await load()).classify({
        tool: 'Bash',
        input: { command: 'git status' },
        cwd: box.cwd,
      })
    ).decision;
  return { file, load, decide };
}

describe('a settings file emptied a moment ago', () => {
  it('is read again once the writer is done: its deny rule still holds', async () => {
    const { file, decide } = await project();
    expect(await decide()).toBe('deny');
    writeFileSync(file, '');
    const decided = decide();
    await sleep(300);
    writeFileSync(file, DENY);
    expect(await decided).toBe('deny');
  });

  it('is unreadable when it is emptied again while automode waits: the classifier never allows', async () => {
    const { file, load, decide } = await project();
    writeFileSync(file, '');
    const loaded = load();
    const decided = decide();
    await sleep(600);
    writeFileSync(file, '');
    const settings = await loaded;
    expect(settings.failed).toEqual([
      expect.objectContaining({
        code: 'read-failed',
        file,
        message: expect.stringMatching(/still being written/),
      }),
    ]);
    expect(await decided).not.toBe('allow');
  });
});
