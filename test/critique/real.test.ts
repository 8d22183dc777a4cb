import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/critique/types.js';
import { type Box, critiqueFiles, makeBox, removeBox } from './helpers.js';

/** Settings files from public repositories (fixtures/critique/real/README.md), and one shaped like them. */

let box: Box;
beforeAll(async () => {
  box = await makeBox();
});
afterAll(async () => {
  await removeBox(box);
});

const ruleAt = (report: { findings: Finding[] }, code: string) =>
  report.findings.filter((f) => f.code === code).map((f) => f.location.line);

describe('real settings files', () => {
  it.each(['real/n8n.json', 'real/posthog.json', 'real/vscode.json'])(
    '%s has nothing to report',
    async (file) => {
      const report = await critiqueFiles(box, [file]);
      expect(report.findings).toEqual([]);
      expect(report.summary.everyday?.asked).toBeGreaterThan(0);
    },
  );

  it("sentry's allow list: what its prefixes let through, and nothing about its other keys", async () => {
    const report = await critiqueFiles(box, ['real/sentry.json']);
    // Each checked against the real program: cat reads a key, find -delete deletes, gh api -X DELETE deletes,
    // git branch -D drops a branch, and docker --version CODE runs the CLI plugin docker-CODE (docker parses the
    // subcommand; so does docker --version run …, which runs a container).
    expect(ruleAt(report, 'dangerous-allow')).toEqual([4, 14, 15, 26]);
    expect(ruleAt(report, 'broad-allow')).toEqual([5]);
    expect(report.findings.find((f) => f.code === 'broad-allow')?.message).toContain('docker --version CODE');
    expect(ruleAt(report, 'corpus-dangerous-allowed')).toEqual([15]);
    expect(report.findings.map((f) => f.code)).toEqual(
      expect.not.arrayContaining(['unknown-setting', 'duplicate-rule', 'dead-rule', 'colon-star-middle']),
    );
  });
});

describe('a team settings file', () => {
  it('keeps repeated shipped rules, does not call --version rules broad, and an override is not dead', async () => {
    const report = await critiqueFiles(box, ['team-settings.json']);
    const duplicates = report.findings.filter((f) => f.code === 'duplicate-rule');
    expect(duplicates.map((f) => [f.location.line, f.severity, f.fix])).toEqual([
      [12, 'note', undefined],
      [13, 'note', undefined],
    ]);
    expect(duplicates.every((f) => f.message.includes('keep it'))).toBe(true);
    expect(ruleAt(report, 'overrides-shipped')).toEqual([8, 9]);
    const codes = report.findings.map((f) => f.code);
    for (const absent of ['broad-allow', 'dead-rule', 'unknown-setting', 'empty-settings'])
      expect(codes).not.toContain(absent);
    expect(report.findings.filter((f) => f.location.line === 1)).toEqual([]);
  });
});
