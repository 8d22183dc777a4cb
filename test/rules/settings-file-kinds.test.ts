import { execFileSync } from 'node:child_process';
import { mkdir, symlink, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { loadSettingsFiles } from '../../src/rules/index.js';
import {
  type FileStamp,
  MAX_SETTINGS_BYTES,
  readStamped,
  stampHolds,
} from '../../src/rules/settings/stamp.js';
import { sandbox } from './helpers.js';

/** A project whose .claude/settings.json is made by `make`, loaded as the hook loads it. */
async function loadWith(make: (file: string) => Promise<void>) {
  const box = await sandbox();
  const file = path.join(box.cwd, '.claude', 'settings.json');
  await mkdir(path.dirname(file), { recursive: true });
  await make(file);
  const options = { cwd: box.cwd, home: box.home, managedPath: box.managed, env: {} };
  const started = Date.now();
  const settings = await loadSettingsFiles(options);
  return { box, file, options, settings, ms: Date.now() - started };
}

describe('a settings file is read only when it is a regular file of a bounded size', () => {
  const kinds: [string, (file: string) => Promise<void>, RegExp][] = [
    ['a link to /dev/zero', (f) => symlink('/dev/zero', f), /character device/],
    ['a link to /dev/urandom', (f) => symlink('/dev/urandom', f), /character device/],
    [
      'a FIFO nobody writes to',
      async (f) => {
        execFileSync('mkfifo', [f]);
      },
      /FIFO/,
    ],
    [
      'a file over the size bound',
      (f) => writeFile(f, `{"permissions":{"allow":[]}}${' '.repeat(MAX_SETTINGS_BYTES)}`),
      /over \d+ bytes/,
    ],
    ['a symlink loop', (f) => symlink(path.basename(f), f), /ELOOP/],
  ];
  it.each(kinds)('%s is a located settings error at once, and the classifier asks', async (_, make, why) => {
    const { file, settings, ms } = await loadWith(make);
    expect(ms).toBeLessThan(10_000);
    expect(settings.failed).toHaveLength(1);
    expect(settings.failed[0]).toMatchObject({ severity: 'error', code: 'read-failed', file });
    expect(settings.failed[0]?.message).toMatch(why);
    const verdict = await createClassifier(settings).classify({
      tool: 'Bash',
      input: { command: 'ls' },
    });
    expect(verdict.decision).toBe('ask');
  });

  it('a source that cannot be looked at is looked at again every time; a missing one holds until it appears', async () => {
    const { file } = await loadWith(async () => {});
    const missing: FileStamp[] = [];
    await expect(readStamped(file, missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(stampHolds(missing[0] as FileStamp)).toBe(true);
    // The missing file becomes a symlink loop: the stamp no longer holds, and the new one never does.
    await symlink(path.basename(file), file);
    expect(stampHolds(missing[0] as FileStamp)).toBe(false);
    const loop: FileStamp[] = [];
    await expect(readStamped(file, loop)).rejects.toMatchObject({ code: 'ELOOP' });
    expect(loop[0]?.signature).toBe('!ELOOP');
    expect(stampHolds(loop[0] as FileStamp)).toBe(false);
    expect(stampHolds(loop[0] as FileStamp)).toBe(false);
    // A FIFO at the path is refused unread, and so is its stamp.
    await unlink(file);
    execFileSync('mkfifo', [file]);
    const fifo: FileStamp[] = [];
    await expect(readStamped(file, fifo)).rejects.toMatchObject({ code: 'ENOTREG' });
    expect(stampHolds(fifo[0] as FileStamp)).toBe(false);
  });
});
