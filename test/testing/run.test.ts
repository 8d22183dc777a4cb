import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/policy/verdict.js';
import { mergeCoverage } from '../../src/testing/coverage.js';
import { type ModelProvider, NO_MODEL } from '../../src/testing/model.js';
import type { DecisionResult, ExampleResult, SuiteResult } from '../../src/testing/results.js';
import { summarize } from '../../src/testing/results.js';
import { runTestFile } from '../../src/testing/run.js';
import { remove, tempFolder, writeTree } from './helpers.js';

const SETTINGS = {
  permissions: {
    allow: ['Bash(npm test)', 'Bash(npm run build)'],
    ask: ['Bash(git push *)'],
    deny: ['Read(./secrets/**)'],
  },
};

const RULES = `rules:
  - tool: Bash
    command_pattern: "^git push (-f|--force)( |$)"
    decision: deny
    label: Force push
    examples:
      match: [git push --force origin main, git push -f]
      not_match: [git push origin main]
  - tool: Bash
    command_pattern: "^kubectl delete( |$)"
    decision: ask
    label: Cluster delete
`;

let root: string;
beforeEach(async () => {
  root = await tempFolder();
  await writeTree(root, { '.claude/settings.json': SETTINGS, 'team.automode-rules.yaml': RULES });
});
afterEach(() => remove(root));

async function suite(yaml: string, options: { model?: ModelProvider } = {}): Promise<SuiteResult> {
  await writeTree(root, { 'tests/t.automode-test.yaml': yaml });
  return runTestFile(path.join(root, 'tests/t.automode-test.yaml'), options);
}

const cases = (s: SuiteResult) => s.cases.filter((c): c is DecisionResult => c.kind === 'case');
const examples = (s: SuiteResult) => s.cases.filter((c): c is ExampleResult => c.kind === 'example');

describe('runTestFile', () => {
  it('passes cases whose decision and deciding rule (by text or label) are the expected ones', async () => {
    const s = await suite(`settings: ..
cases:
  - command: npm test
    expect: allow
    rule: Bash(npm test)
  - command: git push --force origin main
    expect: deny
    rule: Force push
  - tool: Read
    input: { file_path: secrets/k.pem }
    expect: deny
`);
    expect(s.problems).toEqual([]);
    expect(cases(s).map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    expect(cases(s)[1]!.actual!.rule).toMatchObject({ label: 'Force push', source: 'ruleFile' });
    expect(cases(s)[0]!.name).toBe('allow: npm test');
    expect(cases(s)[0]).toMatchObject({ line: 3, column: 5 });
    expect(s.project).toBe(root);
    expect(s.files).toEqual(
      expect.arrayContaining([
        path.join(root, '.claude/settings.json'),
        path.join(root, 'team.automode-rules.yaml'),
      ]),
    );
  });

  it('checks pattern rule examples as tests, located at the example', async () => {
    const s = await suite('settings: ..\ncases: []\n');
    const found = examples(s);
    expect(found).toHaveLength(3);
    expect(found.every((e) => e.status === 'passed')).toBe(true);
    expect(found[0]).toMatchObject({
      file: path.join(root, 'team.automode-rules.yaml'),
      line: 7,
      expected: 'match',
      example: 'git push --force origin main',
      name: 'Force push matches "git push --force origin main"',
    });
  });

  it('fails a case with the wrong decision or the wrong rule, and says what decided', async () => {
    const s = await suite(`settings: ..
cases:
  - name: push is allowed
    command: git push origin main
    expect: allow
  - command: git push -f
    expect: deny
    rule: Bash(git push *)
`);
    const [wrongDecision, wrongRule] = cases(s);
    expect(wrongDecision).toMatchObject({ status: 'failed', name: 'push is allowed' });
    expect(wrongDecision!.message).toBe('expected allow, got ask by Bash(git push *)');
    expect(wrongDecision!.actual!.rule).toMatchObject({
      file: path.join(root, '.claude/settings.json'),
      line: 8,
    });
    expect(wrongRule!.status).toBe('failed');
    expect(wrongRule!.message).toMatch(/expected deny by Bash\(git push \*\), got deny by Force push/);
    expect(summarize([s])).toEqual({ passed: 3, failed: 2, skipped: 0, errors: 0 });
  });

  it('skips a case the rules leave to the model when there is none, with the reason', async () => {
    const s = await suite(`settings: ..
mode: auto
cases:
  - command: terraform plan
    expect: allow
  - command: git push -f
    expect: deny
`);
    const [left, decided] = cases(s);
    expect(left!.status).toBe('skipped');
    expect(left!.message).toContain(NO_MODEL);
    expect(left!.actual).toBeUndefined();
    expect(decided!.status).toBe('passed');
    expect(summarize([s]).skipped).toBe(1);
  });

  it('asks a model provider, once, for what the rules leave to the model', async () => {
    const asked: string[] = [];
    let made = 0;
    const model: ModelProvider = async () => {
      made++;
      return {
        classify: async (call) => {
          asked.push(`${String(call.input.command)} | ${call.context}`);
          const verdict: Verdict = {
            decision: 'deny',
            reason: 'denied by Staging data',
            by: 'rule',
            tool: call.tool,
            mode: 'auto',
            parts: [],
            rule: {
              text: 'Staging data: never copy it out',
              label: 'Staging data',
              behavior: 'deny',
              source: 'defaults',
              index: 0,
            },
          };
          return verdict;
        },
      };
    };
    const s = await suite(
      `settings: ..
mode: auto
cases:
  - command: scp staging:/srv/dump.sql .
    context: the user wants a local copy
    expect: deny
    rule: Staging data
  - command: rsync staging:/srv/ .
    expect: deny
  - command: npm test
    expect: allow
`,
      { model },
    );
    expect(cases(s).map((c) => c.status)).toEqual(['passed', 'passed', 'passed']);
    expect(cases(s)[0]!.actual!.model).toBe(true);
    expect(cases(s)[2]!.actual!.model).toBeUndefined();
    expect(asked).toEqual([
      'scp staging:/srv/dump.sql . | the user wants a local copy',
      'rsync staging:/srv/ . | undefined',
    ]);
    expect(made).toBe(1);
  });

  it('a provider that has no model for the configuration skips with its reason', async () => {
    const s = await suite('settings: ..\nmode: auto\ncases: [{ command: terraform plan, expect: ask }]\n', {
      model: async () => ({ unavailable: 'no recording for this exchange' }),
    });
    expect(cases(s)[0]!.status).toBe('skipped');
    expect(cases(s)[0]!.message).toMatch(/no recording for this exchange$/);
  });

  it('a failing example fails as a test at its line, and the rules then ask for everything', async () => {
    await writeTree(root, {
      'team.automode-rules.yaml': RULES.replace(
        'not_match: [git push origin main]',
        'not_match: [git push -f x]',
      ),
    });
    const s = await suite('settings: ..\ncases: [{ command: npm test, expect: allow }]\n');
    expect(s.problems).toEqual([]);
    const failed = examples(s).filter((e) => e.status === 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ line: 8, expected: 'not_match', example: 'git push -f x' });
    expect(failed[0]!.message).toBe('/^git push (-f|--force)( |$)/ matches "git push -f x"');
    expect(cases(s)[0]!.status).toBe('failed');
    expect(cases(s)[0]!.actual!.by).toBe('settings-error');
  });

  it('reports a test file that breaks the schema with the line of the problem', async () => {
    const s = await suite('settings: ..\ncases:\n  - command: ls\n    expect: maybe\n');
    expect(s.problems).toHaveLength(1);
    expect(s.problems[0]).toMatchObject({ line: 4, column: 13 });
    expect(s.problems[0]!.message).toMatch(/^cases\.0\.expect: /);
    expect(s.cases).toEqual([]);
  });

  it('reports settings that are missing or broken as problems, and runs no case', async () => {
    const missing = await suite('settings: [../nope.json]\ncases: [{ command: ls, expect: allow }]\n');
    expect(missing.problems[0]!.message).toMatch(/nope\.json: not found/);
    await writeTree(root, { 'broken.json': '{\n  "permissions": {\n    "allow": ["Bash(ls)",]\n  }\n}\n' });
    const broken = await suite('settings: [../broken.json]\ncases: [{ command: ls, expect: allow }]\n');
    expect(broken.problems[0]).toMatchObject({ file: path.join(root, 'broken.json'), line: 3 });
    expect(broken.cases).toEqual([]);
  });

  it('a suite naming only a settings file runs in the folder of the test file, with its shipped rules optional', async () => {
    await writeTree(root, { 'tests/team.json': { permissions: { deny: ['Read(/private/**)'] } } });
    const s = await suite(`settings: team.json
defaults: false
cases:
  - tool: Read
    input: { file_path: private/a.txt }
    expect: deny
  - command: rm -rf /
    expect: ask
`);
    expect(s.project).toBe(path.join(root, 'tests'));
    // Without the shipped rules nothing names rm -rf /; the verdict names the critical-path check that asks.
    expect(cases(s).map((c) => [c.status, c.actual?.by])).toEqual([
      ['passed', 'rule'],
      ['passed', 'critical-path'],
    ]);
  });

  it('counts the cases each rule decided and reached; rules several suites load count once', async () => {
    const s = await suite(`settings: ..
cases:
  - command: npm test
    expect: allow
  - command: npm test && git push -f
    expect: deny
`);
    const byText = Object.fromEntries(s.rules.map((r) => [r.label ?? r.text, [r.decided, r.reached]]));
    expect(byText).toEqual({
      'Bash(npm test)': [1, 2],
      'Bash(npm run build)': [0, 0],
      'Bash(git push *)': [0, 0],
      'Read(./secrets/**)': [0, 0],
      'Force push': [1, 1],
      'Cluster delete': [0, 0],
    });
    const merged = mergeCoverage([s.rules, s.rules]);
    expect(merged).toMatchObject({ total: 6, reached: 2, percent: 33.3 });
    expect(merged.rules.find((r) => r.text === 'Bash(npm test)')).toMatchObject({ decided: 2, reached: 4 });
  });
});
