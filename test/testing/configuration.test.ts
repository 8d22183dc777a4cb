import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configurationOf, fileKind, loadConfiguration } from '../../src/testing/configuration.js';
import { findFiles } from '../../src/testing/find-files.js';
import { TEST_FILE_GLOB } from '../../src/testing/suite.js';
import { remove, tempFolder, writeTree } from './helpers.js';

let root: string;
beforeEach(async () => {
  root = await tempFolder();
});
afterEach(() => remove(root));

const RULE = 'rules:\n  - tool: Bash\n    command_pattern: "^x"\n    decision: ask\n    label: X\n';

describe('rule repositories', () => {
  it('a folder brings its project settings, managed settings and every pattern rule file below it', async () => {
    await writeTree(root, {
      '.claude/settings.json': { permissions: { allow: ['Bash(npm test)'] } },
      '.claude/settings.local.json': { permissions: { ask: ['Bash(npm run e2e)'] } },
      'managed-settings.json': {
        permissions: { deny: ['Bash(curl *)'] },
        autoMode: { soft_deny: ['Staging: no'] },
      },
      'managed-settings.d/10-extra.json': { permissions: { deny: ['Bash(wget *)'] } },
      'a.automode-rules.yaml': RULE,
      'deep/b.automode-rules.json': {
        rules: [{ tool: 'Bash', command_pattern: '^y', decision: 'deny', label: 'Y' }],
      },
      'node_modules/dep/c.automode-rules.yaml': RULE,
      'notes.yaml': 'not: rules\n',
    });
    const resolved = await configurationOf(['.'], root);
    if ('errors' in resolved) throw new Error(resolved.errors.join());
    expect(resolved.config).toEqual({
      project: root,
      folder: root,
      settingsFiles: [],
      ruleFiles: [path.join(root, 'a.automode-rules.yaml'), path.join(root, 'deep/b.automode-rules.json')],
      managedPath: path.join(root, 'managed-settings.json'),
    });
    const settings = await loadConfiguration(resolved.config, false);
    expect(settings.failed).toEqual([]);
    const sources = settings.rules.map(
      (r) => `${r.provenance.source} ${r.type === 'pattern' ? r.label : r.text}`,
    );
    expect(sources.sort()).toEqual([
      'localSettings Bash(npm run e2e)',
      'policySettings Bash(curl *)',
      'policySettings Bash(wget *)',
      'projectSettings Bash(npm test)',
      'ruleFile X',
      'ruleFile Y',
    ]);
    expect(settings.prose.soft_deny.map((e) => e.label)).toEqual(['Staging']);
  });

  it('tells settings files from pattern rule files', async () => {
    await writeTree(root, {
      's.json': { permissions: { allow: [] } },
      'r.json': { rules: [] },
      'both.json': { rules: [], permissions: {} },
      'r.yaml': RULE,
      'x.automode-rules.json': '{',
      'broken.json': '{',
    });
    const kinds = await Promise.all(
      ['s.json', 'r.json', 'both.json', 'r.yaml', 'x.automode-rules.json', 'broken.json'].map((f) =>
        fileKind(path.join(root, f)),
      ),
    );
    expect(kinds).toEqual(['settings', 'rules', 'settings', 'rules', 'rules', 'settings']);
  });

  it('files alone run in the project folder given, and never read user or machine settings', async () => {
    await writeTree(root, { 'team.json': { permissions: { deny: ['Bash(npm test)'] } }, 'r.yaml': RULE });
    const resolved = await configurationOf(['team.json', 'r.yaml'], root, path.join(root, 'project'));
    if ('errors' in resolved) throw new Error(resolved.errors.join());
    expect(resolved.config).toMatchObject({
      project: path.join(root, 'project'),
      settingsFiles: [path.join(root, 'team.json')],
      ruleFiles: [path.join(root, 'r.yaml')],
    });
    const settings = await loadConfiguration(resolved.config);
    const read = settings.files.filter((f) => f.exists).map((f) => `${f.source} ${path.basename(f.path)}`);
    expect(read.filter((f) => !f.startsWith('defaults'))).toEqual([
      'flagSettings team.json',
      'ruleFile r.yaml',
    ]);
    expect(settings.files.find((f) => f.source === 'userSettings')?.path).toMatch(/^\/nonexistent\//);
    expect(settings.files.find((f) => f.source === 'policySettings')?.path).toMatch(/^\/nonexistent\//);
  });

  it('refuses missing paths and a second folder', async () => {
    await writeTree(root, { 'a/x.json': {}, 'b/y.json': {} });
    expect(await configurationOf(['a', 'b', 'nope.json'], root)).toEqual({
      errors: [
        `${path.join(root, 'b')}: only one rule repository folder per configuration`,
        `${path.join(root, 'nope.json')}: not found`,
      ],
    });
  });
});

describe('findFiles', () => {
  it('expands globs below their fixed prefix, folders with the default glob, and reports what matched nothing', async () => {
    await writeTree(root, {
      'a.automode-test.yaml': '',
      'sub/b.automode-test.yml': '',
      'sub/deeper/c.automode-test.json': '',
      'sub/other.yaml': '',
      'node_modules/pkg/d.automode-test.yaml': '',
    });
    const rel = (files: string[]) => files.map((f) => path.relative(root, f));
    expect(rel((await findFiles([TEST_FILE_GLOB], root, TEST_FILE_GLOB)).files)).toEqual([
      'a.automode-test.yaml',
      'sub/b.automode-test.yml',
      'sub/deeper/c.automode-test.json',
    ]);
    expect(rel((await findFiles(['sub'], root, TEST_FILE_GLOB)).files)).toEqual([
      'sub/b.automode-test.yml',
      'sub/deeper/c.automode-test.json',
    ]);
    expect(
      rel((await findFiles(['sub/*.yaml', 'a.automode-test.yaml'], root, TEST_FILE_GLOB)).files),
    ).toEqual(['a.automode-test.yaml', 'sub/other.yaml']);
    expect((await findFiles(['nothing/**', 'missing.yaml'], root, TEST_FILE_GLOB)).unmatched).toEqual([
      'nothing/**',
      'missing.yaml',
    ]);
    expect(rel((await findFiles([path.join(root, 'sub/**/*.json')], '/', TEST_FILE_GLOB)).files)).toEqual([
      'sub/deeper/c.automode-test.json',
    ]);
  });
});
