import { mkdirSync, mkdtempSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FileStamp, listStamped, readStamped, stampHolds } from '../../src/rules/settings/stamp.js';

const folder = () => mkdtempSync(join(tmpdir(), 'automode-stamp-'));

describe('settings stamps', () => {
  it('an in-place rewrite of the same size right after the read is seen, even when the times did not move', async () => {
    const file = join(folder(), 'settings.json');
    for (let i = 0; i < 50; i++) {
      writeFileSync(file, '{"a":1}');
      const stamps: FileStamp[] = [];
      expect(await readStamped(file, stamps)).toBe('{"a":1}');
      // With coarse file times, many of these writes keep the inode, size and times the stamp has.
      writeFileSync(file, '{"a":2}');
      expect(stampHolds(stamps[0] as FileStamp)).toBe(false);
    }
  });

  it('a stamp holds while nothing changes, and settles once the file is older than the granularity', async () => {
    const file = join(folder(), 'settings.json');
    writeFileSync(file, '{}');
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const stamps: FileStamp[] = [];
    await readStamped(file, stamps);
    const stamp = stamps[0] as FileStamp;
    expect(stampHolds(stamp)).toBe(true);
    // The change time (set by utimes itself) is recent: settled only once the clock is past it.
    expect(stampHolds(stamp, Date.now() + 10_000)).toBe(true);
    expect(stamp.settled).toBe(true);
    writeFileSync(`${file}.new`, '{}');
    renameSync(`${file}.new`, file);
    expect(stampHolds(stamp)).toBe(false);
  });

  it('a missing file holds until it appears; a folder holds until a name is added or removed', async () => {
    const dir = folder();
    const stamps: FileStamp[] = [];
    await expect(readStamped(join(dir, 'none.json'), stamps)).rejects.toThrow(/ENOENT/);
    const drop = join(dir, 'drop.d');
    await expect(listStamped(drop, stamps)).rejects.toThrow(/ENOENT/);
    const [missing, absent] = stamps as [FileStamp, FileStamp];
    expect(stampHolds(missing)).toBe(true);
    expect(stampHolds(absent)).toBe(true);
    writeFileSync(join(dir, 'none.json'), '{}');
    expect(stampHolds(missing)).toBe(false);
    mkdirSync(drop);
    expect(stampHolds(absent)).toBe(false);
    const listed: FileStamp[] = [];
    expect(await listStamped(drop, listed)).toEqual([]);
    expect(stampHolds(listed[0] as FileStamp)).toBe(true);
    writeFileSync(join(drop, '10.json'), '{}');
    expect(stampHolds(listed[0] as FileStamp)).toBe(false);
  });
});
