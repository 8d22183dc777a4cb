import { describe, expect, it } from 'vitest';
import { protectedReason } from '../../src/policy/paths.js';

// The protected paths of Claude Code's reference (as of v2.1.240) are among automode's own.
const FOLDERS = ['.mvn', '.yarn'];
const FILES = [
  '.bazelrc',
  '.bazelversion',
  '.bazeliskrc',
  '.pnp.cjs',
  '.pnp.loader.mjs',
  'bunfig.toml',
  '.bunfig.toml',
  'gradle-wrapper.properties',
  'maven-wrapper.properties',
  '.devcontainer.json',
  'pyrightconfig.json',
];

describe("Claude Code's protected paths", () => {
  it.each(FOLDERS)('the folder %s, at any depth', (name) => {
    expect(protectedReason(`/work/proj/${name}/wrapper/x`)).toMatch(/protected folder/);
    expect(protectedReason(`/work/proj/sub/${name}`)).toMatch(/protected folder/);
  });

  it.each(FILES)('the file %s, at any depth', (name) => {
    expect(protectedReason(`/work/proj/${name}`)).toMatch(/protected file/);
    expect(protectedReason(`/work/proj/gradle/wrapper/${name}`)).toMatch(/protected file/);
  });

  it('and not a name that merely contains one', () => {
    expect(protectedReason('/work/proj/my.bazelrc.bak')).toBeUndefined();
    expect(protectedReason('/work/proj/.yarnish/x')).toBeUndefined();
  });
});
