import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBash } from '../../src/bash/analyze.js';
import { createClassifier } from '../../src/classifier/index.js';
import { parsePermissionRule } from '../../src/rules/index.js';
import type { CliRules } from '../../src/rules/settings/load.js';
import { loadSettings } from '../../src/rules/settings/load-settings.js';

// Tool-name wildcards as Claude Code reads them (reference as of v2.1.240).

beforeAll(async () => {
  await loadBash();
});

async function classifierFor(settings: CliRules) {
  const dir = mkdtempSync(join(tmpdir(), 'automode-wild-'));
  const loaded = await loadSettings({
    cwd: dir,
    home: dir,
    managedPath: join(dir, 'none.json'),
    env: {},
    settingsFiles: [JSON.stringify({ permissions: settings })],
    shippedDefaults: false,
  });
  return { classifier: createClassifier(loaded), dir, loaded };
}

describe('tool-name wildcards', () => {
  it('`*` in a deny rule denies every tool', async () => {
    const { classifier, dir } = await classifierFor({ deny: ['*'], allow: ['Bash(ls)'] });
    expect((await classifier.classify({ tool: 'Bash', input: { command: 'ls' } })).decision).toBe('deny');
    const read = { tool: 'Read', input: { file_path: join(dir, 'a') } };
    expect((await classifier.classify(read)).decision).toBe('deny');
    expect((await classifier.classify({ tool: 'mcp__db__query', input: {} })).decision).toBe('deny');
    expect((await classifier.classify({ tool: 'WebSearch', input: { query: 'x' } })).decision).toBe('deny');
  });

  it('`mcp__*` in an ask rule asks about every MCP tool, and only those', async () => {
    const { classifier } = await classifierFor({ ask: ['mcp__*'], allow: ['mcp__db', 'WebSearch'] });
    expect((await classifier.classify({ tool: 'mcp__db__query', input: {} })).decision).toBe('ask');
    expect((await classifier.classify({ tool: 'mcp__fs__read', input: {} })).decision).toBe('ask');
    expect((await classifier.classify({ tool: 'WebSearch', input: { query: 'x' } })).decision).toBe('allow');
  });

  it('in an allow rule, `*`, `B*` and `mcp__*` are skipped with a warning, not an error', async () => {
    const { classifier, loaded } = await classifierFor({ allow: ['*', 'B*', 'mcp__*'] });
    expect(loaded.failed).toEqual([]);
    expect(loaded.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['allow-tool-wildcard', 'warning'],
      ['allow-tool-wildcard', 'warning'],
      ['allow-tool-wildcard', 'warning'],
    ]);
    expect(loaded.rules.filter((r) => r.provenance.source === 'flagSettings')).toEqual([]);
    expect((await classifier.classify({ tool: 'mcp__db__query', input: {} })).decision).not.toBe('allow');
    expect((await classifier.classify({ tool: 'Bash', input: { command: 'make' } })).decision).not.toBe(
      'allow',
    );
  });

  it('a server wildcard stays an MCP rule; other wildcards in a deny rule are errors', () => {
    expect(parsePermissionRule('mcp__github__*', { behavior: 'allow' }).parsed).toMatchObject({
      kind: 'mcp',
      server: 'github',
    });
    expect(parsePermissionRule('B*', { behavior: 'deny' }).issues[0]?.severity).toBe('error');
    expect(parsePermissionRule('*(x)', { behavior: 'deny' }).issues[0]?.severity).toBe('error');
  });
});
