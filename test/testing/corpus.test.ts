import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClassifier } from '../../src/classifier/index.js';
import { toCall } from '../../src/testing/call.js';
import { loadConfiguration } from '../../src/testing/configuration.js';
import { readCorpus, SHIPPED_CORPUS, uniqueCalls } from '../../src/testing/corpus.js';
import { remove, tempFolder, writeTree } from './helpers.js';

let root: string;
beforeAll(async () => {
  root = await tempFolder();
});
afterAll(() => remove(root));

describe('the shipped diff corpus', () => {
  it('holds a few hundred everyday and dangerous calls, each readable and distinct', async () => {
    const { entries, problems } = await readCorpus(SHIPPED_CORPUS);
    expect(problems).toEqual([]);
    expect(entries.length).toBeGreaterThanOrEqual(400);
    expect(uniqueCalls(entries)).toHaveLength(entries.length);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
    const groups = new Set(entries.map((e) => e.id.split('/')[0]));
    expect([...groups].sort()).toEqual(['classify', 'dangerous', 'everyday', 'nl2bash', 'tool']);
    const tools = new Set(entries.map((e) => e.call.tool));
    for (const tool of ['Bash', 'Read', 'Edit', 'Write', 'WebFetch']) expect(tools).toContain(tool);
  });

  it('is classified under the shipped rules, with every decision represented (its speed is measured by npm run bench)', async () => {
    const { entries } = await readCorpus(SHIPPED_CORPUS);
    const settings = await loadConfiguration({
      project: root,
      settingsFiles: [],
      ruleFiles: [],
      managedPath: path.join(root, 'managed-settings.json'),
    });
    const classifier = createClassifier(settings);
    const decisions = { allow: 0, ask: 0, deny: 0 };
    for (const e of entries) {
      const call = toCall(e.call, root);
      if ('error' in call) throw new Error(call.error);
      decisions[(await classifier.classify(call)).decision]++;
    }
    expect(decisions.allow).toBeGreaterThan(50);
    expect(decisions.ask).toBeGreaterThan(50);
    expect(decisions.deny).toBeGreaterThan(10);
  });
});

describe('readCorpus', () => {
  it('reads JSON lines in automode and PreToolUse shapes', async () => {
    await writeTree(root, {
      'calls.jsonl': [
        '{"id":"a","command":"ls"}',
        '',
        '{"tool_name":"Read","tool_input":{"file_path":"x"},"cwd":"sub","permission_mode":"plan"}',
        '{"tool":"Bash","input":{"command":"pwd"},"mode":"auto","context":"the user asked"}',
      ].join('\n'),
    });
    const { entries, problems } = await readCorpus(path.join(root, 'calls.jsonl'));
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.id, e.line, e.call])).toEqual([
      ['a', 1, { tool: 'Bash', command: 'ls' }],
      [
        `${path.join(root, 'calls.jsonl')}:3`,
        3,
        { tool: 'Read', input: { file_path: 'x' }, cwd: 'sub', mode: 'plan' },
      ],
      [
        `${path.join(root, 'calls.jsonl')}:4`,
        4,
        { tool: 'Bash', input: { command: 'pwd' }, mode: 'auto', context: 'the user asked' },
      ],
    ]);
  });

  it('locates the lines it cannot read', async () => {
    await writeTree(root, {
      'bad.jsonl': '{"command":"ls"}\nnope\n{"command":"ls","input":{}}\n{"command":"x","mode":"fast"}\n',
    });
    const { problems } = await readCorpus(path.join(root, 'bad.jsonl'));
    expect(problems.map((p) => [p.line, p.message.split(':')[0]])).toEqual([
      [2, 'not JSON'],
      [3, 'give exactly one of command, input'],
      [4, 'unknown mode fast'],
    ]);
  });

  it('reads plain text one command a line, and the cases of test files', async () => {
    await writeTree(root, {
      'commands.txt': '# comment\nls -la\n\ngit status\n',
      'cases.automode-test.yaml':
        'settings: .\nmode: plan\ncases:\n  - name: listing\n    command: ls\n    expect: allow\n',
    });
    const text = await readCorpus(path.join(root, 'commands.txt'));
    expect(text.entries.map((e) => [e.line, e.call.command])).toEqual([
      [2, 'ls -la'],
      [4, 'git status'],
    ]);
    const suite = await readCorpus(path.join(root, 'cases.automode-test.yaml'));
    expect(suite.entries).toEqual([
      {
        id: 'listing',
        file: path.join(root, 'cases.automode-test.yaml'),
        line: 4,
        call: { tool: 'Bash', command: 'ls', mode: 'plan' },
      },
    ]);
  });
});
