import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import {
  formatDiagnostic,
  loadSettingsFiles,
  matchPatternRule,
  type PatternRule,
} from '../../src/rules/index.js';
import { superLinearReason } from '../../src/rules/pattern/redos.js';
import { FIXTURES, sandbox, writeFiles } from './helpers.js';

async function loadRuleFiles(names: string[], inline: Record<string, string> = {}) {
  const box = await sandbox();
  await writeFiles(box.root, inline);
  const ruleFiles: string[] = [];
  for (const name of names) {
    const target = path.join(box.cwd, name);
    await copyFile(path.join(FIXTURES, name), target);
    ruleFiles.push(target);
  }
  ruleFiles.push(...Object.keys(inline).map((relative) => path.join(box.root, relative)));
  const settings = await loadSettingsFiles({
    cwd: box.cwd,
    home: box.home,
    managedPath: box.managed,
    env: {},
    ruleFiles,
  });
  return { settings, box };
}

const patterns = (rules: readonly { type: string }[]) =>
  rules.filter((r): r is PatternRule => r.type === 'pattern');

describe('pattern rule files', () => {
  it('loads YAML rules with their field, label and position', async () => {
    const { settings, box } = await loadRuleFiles(['automode-rules.yaml']);
    expect(settings.diagnostics).toEqual([]);
    const rules = patterns(settings.rules);
    expect(rules.map((r) => [r.tool, r.field, r.behavior, r.label])).toEqual([
      ['Bash', 'command', 'deny', 'Force push'],
      ['Read', 'path', 'ask', 'AWS credentials'],
      ['mcp__db__query', 'input', 'deny', 'Production database'],
    ]);
    expect(rules[0]).toEqual({
      type: 'pattern',
      behavior: 'deny',
      text: '^git push (-f|--force)( |$)',
      tool: 'Bash',
      field: 'command',
      label: 'Force push',
      description: 'Rewriting shared history',
      provenance: {
        source: 'ruleFile',
        file: path.join(box.cwd, 'automode-rules.yaml'),
        pointer: '/rules/0',
        index: 0,
        line: 4,
        column: 5,
      },
    });
    expect(settings.files).toContainEqual({
      source: 'ruleFile',
      path: path.join(box.cwd, 'automode-rules.yaml'),
      exists: true,
    });
  });

  it('matches each kind of subject', async () => {
    const { settings } = await loadRuleFiles(['automode-rules.yaml']);
    const [push, aws, db] = patterns(settings.rules);
    expect(matchPatternRule(push!, 'git push --force origin main')).toBe(true);
    expect(matchPatternRule(push!, 'git push --force-with-lease')).toBe(false);
    expect(matchPatternRule(aws!, '/home/me/.aws/credentials')).toBe(true);
    expect(matchPatternRule(db!, JSON.stringify({ database: 'prod', sql: 'drop table x' }))).toBe(true);
    expect(matchPatternRule(db!, JSON.stringify({ database: 'staging' }))).toBe(false);
  });

  it('loads JSON rules', async () => {
    const { settings } = await loadRuleFiles(['automode-rules.json']);
    expect(settings.diagnostics).toEqual([]);
    expect(patterns(settings.rules).map((r) => r.label)).toEqual(['Terraform without review']);
    expect(settings.rules[0]?.provenance).toMatchObject({ line: 4, column: 5 });
  });

  it('takes a rule without a label, as the design writes it, named by its tool and pattern', async () => {
    const design = { tool: 'Bash', command_pattern: '^(cat|ls)\\b', decision: 'allow' };
    const { settings, box } = await loadRuleFiles([], {
      'design.json': JSON.stringify({ rules: [design] }),
      'design.yaml': 'rules:\n  - tool: Bash\n    command_pattern: "^(cat|ls)\\\\b"\n    decision: allow\n',
    });
    expect(settings.diagnostics).toEqual([]);
    expect(patterns(settings.rules).map((r) => [r.text, r.label, r.provenance.line])).toEqual([
      ['^(cat|ls)\\b', 'Bash /^(cat|ls)\\b/', 1],
      ['^(cat|ls)\\b', 'Bash /^(cat|ls)\\b/', 2],
    ]);
    const verdict = await createClassifier(settings).classify({
      tool: 'Bash',
      input: { command: 'cat notes.txt' },
      cwd: box.cwd,
    });
    expect(verdict).toMatchObject({ decision: 'allow', rule: { label: 'Bash /^(cat|ls)\\b/' } });
  });

  it('refuses a regex with super-linear backtracking, naming the attack string', async () => {
    const { settings, box } = await loadRuleFiles(['redos-rules.yaml']);
    expect(patterns(settings.rules).map((r) => r.label)).toEqual(['Listing']);
    expect(settings.failed.map(formatDiagnostic)).toEqual([
      `${path.join(box.cwd, 'redos-rules.yaml')}:3:22: error redos: /^echo (a+)+$/ is refused: super-linear (exponential) backtracking: a+ repeats inside (a+)+; attack string "aaaaaaaaaaaaaaaaaaaaaaaa!" (^echo (a+)+$)`,
    ]);
  });

  it('reports failing examples at the example, drops allow rules that fail and keeps deny rules', async () => {
    const { settings, box } = await loadRuleFiles(['bad-examples.yaml']);
    const file = path.join(box.cwd, 'bad-examples.yaml');
    expect(settings.failed.map(formatDiagnostic)).toEqual([
      `${file}:9:11: error example-mismatch: example "rm -fr /" should match but does not (^rm -rf /)`,
      `${file}:11:11: error example-mismatch: example "rm -rf /tmp/x" should not match but does (^rm -rf /)`,
      `${file}:17:15: error example-mismatch: example "cmake" should match but does not (^make\\b)`,
    ]);
    expect(patterns(settings.rules).map((r) => r.label)).toEqual(['Remove root']);
  });

  it('reports schema errors per rule and keeps the valid rules', async () => {
    const { settings, box } = await loadRuleFiles([], {
      'rules.yaml': [
        'rules:',
        '  - tool: Bash',
        '    decision: deny',
        '    label: No pattern',
        '  - tool: Bash',
        '    command_pattern: x',
        '    path_pattern: y',
        '    decision: deny',
        '    label: Two patterns',
        '  - tool: Bash',
        '    command_pattern: ^ok$',
        '    decision: maybe',
        '    label: Bad decision',
        '    extra: 1',
        '  - tool: Bash',
        '    command_pattern: ^fine$',
        '    decision: allow',
        '    label: Fine',
        'other: true',
      ].join('\n'),
    });
    const file = path.join(box.root, 'rules.yaml');
    expect(settings.failed.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`)).toEqual([
      '19:8 schema unknown key "other"',
      '2:5 schema rules.0: give exactly one of command_pattern, path_pattern, input_pattern',
      '5:5 schema rules.1: give exactly one of command_pattern, path_pattern, input_pattern',
      '12:15 schema rules.2.decision: Invalid option: expected one of "allow"|"ask"|"deny"',
      '10:5 schema rules.2: Unrecognized key: "extra"',
    ]);
    expect(settings.failed.every((d) => d.file === file)).toBe(true);
    expect(patterns(settings.rules).map((r) => r.label)).toEqual(['Fine']);
  });

  it('reports an invalid regex, and warns about an unknown tool and a pattern on the wrong tool', async () => {
    const { settings } = await loadRuleFiles([], {
      'rules.json': JSON.stringify({
        rules: [
          { tool: 'Bash', command_pattern: '(unclosed', decision: 'deny', label: 'Broken' },
          { tool: 'Raed', path_pattern: '\\.pem$', decision: 'deny', label: 'Typo' },
          { tool: 'Read', command_pattern: '^cat ', decision: 'deny', label: 'Wrong field' },
        ],
      }),
    });
    expect(settings.diagnostics.map((d) => [d.severity, d.code, d.message, d.pointer])).toEqual([
      [
        'error',
        'invalid-regex',
        'Invalid regular expression: /(unclosed/: Unterminated group',
        '/rules/0/command_pattern',
      ],
      ['warning', 'unknown-tool', 'unknown tool "Raed"; did you mean "Read"?', '/rules/1/tool'],
      [
        'warning',
        'pattern-field',
        'command_pattern only applies to Bash, not Read',
        '/rules/2/command_pattern',
      ],
    ]);
    expect(patterns(settings.rules).map((r) => r.label)).toEqual(['Typo', 'Wrong field']);
  });

  it('reports invalid YAML with its position and a missing rule file', async () => {
    const { settings, box } = await loadRuleFiles([], { 'broken.yaml': 'rules:\n  - tool: [Bash\n' });
    expect(settings.failed).toHaveLength(1);
    expect(settings.failed[0]).toMatchObject({
      code: 'invalid-yaml',
      file: path.join(box.root, 'broken.yaml'),
      line: 3,
    });
    const missing = await loadSettingsFiles({
      cwd: box.cwd,
      home: box.home,
      managedPath: box.managed,
      env: {},
      ruleFiles: ['nope.yaml'],
    });
    expect(missing.failed.map(formatDiagnostic)).toEqual([
      `${path.join(box.cwd, 'nope.yaml')}: error read-failed: file not found`,
    ]);
  });
});

describe('superLinearReason', () => {
  it('accepts linear regexes, including unanchored ones', () => {
    expect(superLinearReason('^git push (-f|--force)( |$)')).toBeUndefined();
    expect(superLinearReason('rm\\s+-rf')).toBeUndefined();
  });

  it('refuses polynomial backtracking and suggests a fix', () => {
    expect(superLinearReason('^git\\s+push\\s+.*--force')).toBe(
      'super-linear (polynomial) backtracking: \\s+ and .* can both match " "; attack string "                        !"; an equivalent safe form: /^git\\s+push\\s+(?:\\S.*)?--force/',
    );
  });
});
