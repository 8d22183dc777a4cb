import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/critique/types.js';
import { type Box, critiqueFiles, makeBox, removeBox } from './helpers.js';

let box: Box;
beforeEach(async () => {
  box = await makeBox();
});
afterEach(async () => {
  await removeBox(box);
});

async function settings(file: string, permissions: Record<string, string[]>): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ permissions }, null, 2)}\n`);
  return file;
}

function where(f: Finding): string {
  return `${path.basename(f.location.file ?? '')}:${f.location.line}:${f.location.column}`;
}

describe('rules written twice', () => {
  it('a shipped deny rule written twice in one file: the second copy is a duplicate, the first is kept for Claude Code', async () => {
    const file = await settings(path.join(box.cwd, '.claude', 'settings.json'), {
      deny: ['Bash(rm -rf /)', 'Bash(rm -rf /)'],
    });
    const report = await critiqueFiles(box, [file]);
    const duplicates = report.findings.filter((f) => f.code === 'duplicate-rule');
    expect(duplicates.map((f) => [where(f), f.severity, f.location.rule])).toEqual([
      ['settings.json:4:7', 'note', 'Bash(rm -rf /)'],
      ['settings.json:5:7', 'warning', 'Bash(rm -rf /)'],
    ]);
    expect(duplicates[0]!.message).toContain('keep it');
    expect(duplicates[1]!.message).toBe(
      'deny rule Bash(rm -rf /) is written twice in this file (automode also ships it)',
    );
    expect(duplicates[1]!.fix).toBe('remove this copy');
    expect(duplicates[1]!.related.map((r) => `${r.line}:${r.column} ${r.message}`)).toEqual([
      '4:7 first written here',
    ]);
  });

  it('a rule of the user written twice in one file', async () => {
    const file = await settings(path.join(box.cwd, '.claude', 'settings.json'), {
      deny: ['Bash(curl *)', 'Read(./secrets/**)', 'Bash(curl *)'],
    });
    const report = await critiqueFiles(box, [file]);
    const duplicates = report.findings.filter((f) => f.code === 'duplicate-rule');
    expect(duplicates.map((f) => [where(f), f.severity, f.message])).toEqual([
      ['settings.json:6:7', 'warning', 'deny rule Bash(curl *) is written twice in this file'],
    ]);
  });

  it('a rule in the project and the local file: a note saying where each copy applies', async () => {
    const project = await settings(path.join(box.cwd, '.claude', 'settings.json'), {
      deny: ['Bash(curl *)'],
    });
    const local = await settings(path.join(box.cwd, '.claude', 'settings.local.json'), {
      deny: ['Bash(wget *)', 'Bash(curl *)'],
    });
    const report = await critiqueFiles(box, [project, local]);
    const duplicates = report.findings.filter((f) => f.code === 'duplicate-rule');
    // Reported once, on the copy of the file read later in display order (local settings come first).
    expect(duplicates.map((f) => [where(f), f.severity])).toEqual([['settings.json:4:7', 'note']]);
    expect(duplicates[0]!.message).toBe(
      'deny rule Bash(curl *) is also written in the localSettings file: this copy applies to everyone who works on this project, that one to you, in this project',
    );
    expect(duplicates[0]!.related.map((r) => `${r.file}:${r.line}:${r.column}`)).toEqual([`${local}:5:7`]);
  });
});
