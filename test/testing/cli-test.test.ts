import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, remove, tempFolder, writeTree } from './helpers.js';

let root: string;

const PASSING = `settings: ..
cases:
  - command: npm test
    expect: allow
  - name: force push
    command: git push --force origin main
    expect: deny
    rule: Force push
`;

const FAILING = `name: wishful
settings: ..
cases:
  - name: push is allowed
    command: git push origin main
    expect: allow
  - command: terraform plan
    mode: auto
    expect: allow
`;

beforeEach(async () => {
  root = await tempFolder();
  await writeTree(root, {
    '.claude/settings.json': '{"permissions":{"allow":["Bash(npm test)"],"ask":["Bash(git push *)"]}}\n',
    'team.automode-rules.yaml': `rules:
  - tool: Bash
    command_pattern: "^git push (-f|--force)( |$)"
    decision: deny
    label: Force push
    examples: { match: [git push -f], not_match: [git push] }
`,
    'tests/ok.automode-test.yaml': PASSING,
  });
});
afterEach(() => remove(root));

describe('automode test', () => {
  it('finds **/*.automode-test.{yaml,yml,json}, exits 0 when all pass, and ends with the tally', () => {
    const r = cli(['test'], root);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('tests/ok.automode-test.yaml');
    expect(r.out.trim().split('\n').at(-1)).toBe('4 passed, 0 failed, 0 skipped');
    expect(r.out).not.toContain('\u001b[');
  });

  it('prints a diff per failure with the deciding rule and its file, reports skips with the reason, exits 1', async () => {
    await writeTree(root, { 'tests/wishful.automode-test.yaml': FAILING });
    const r = cli(['test', 'tests/wishful.automode-test.yaml'], root);
    expect(r.code).toBe(1);
    expect(r.out).toContain('FAIL  tests/wishful.automode-test.yaml:4:5  push is allowed');
    expect(r.out).toContain('- expected  allow');
    expect(r.out).toContain(
      '+ actual    ask by Bash(git push *)  .claude/settings.json:1:51 (projectSettings)',
    );
    expect(r.out).toContain('SKIP  tests/wishful.automode-test.yaml:7:5  allow: terraform plan');
    expect(r.out).toContain('no model configured and no recording');
    expect(r.out.trim().split('\n').at(-1)).toBe('2 passed, 1 failed, 1 skipped');
  });

  it('--json prints only JSON: the tally, every result and what decided', async () => {
    await writeTree(root, { 'tests/wishful.automode-test.yaml': FAILING });
    const r = cli(['test', '--json'], root);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.summary).toEqual({ passed: 4, failed: 1, skipped: 1, errors: 0 });
    const wishful = j.suites.find((s: { name: string }) => s.name === 'wishful');
    expect(wishful.cases[0]).toMatchObject({
      kind: 'case',
      status: 'failed',
      expected: { decision: 'allow' },
      actual: { decision: 'ask', by: 'rule', rule: { text: 'Bash(git push *)', source: 'projectSettings' } },
    });
    expect(wishful.cases[1]).toMatchObject({ status: 'skipped', call: { mode: 'auto' } });
  });

  it('--format junit prints JUnit XML with failures, skips and locations', async () => {
    await writeTree(root, { 'tests/wishful.automode-test.yaml': FAILING });
    const r = cli(['test', '--format', 'junit'], root);
    expect(r.code).toBe(1);
    expect(
      r.out.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="automode" tests="6" failures="1" errors="0" skipped="1"',
      ),
    ).toBe(true);
    expect(r.out).toContain(
      '<testsuite name="wishful" file="tests/wishful.automode-test.yaml" tests="2" failures="1"',
    );
    expect(r.out).toMatch(
      /<testcase name="push is allowed" classname="tests\/wishful.automode-test.yaml" file="tests\/wishful.automode-test.yaml" line="4" time="[\d.]+">\n\s+<failure message="expected allow, got ask by Bash\(git push \*\)" type="decision">/,
    );
    expect(r.out).toContain('<skipped message="needs the model');
    expect(r.out).toContain('name="Force push matches &quot;git push -f&quot;"');
    expect(r.out.trim().endsWith('</testsuites>')).toBe(true);
    expect(r.out.match(/<testcase /g)).toHaveLength(6);
  });

  it('--format github prints workflow annotations with escaped properties', async () => {
    await writeTree(root, { 'tests/wishful.automode-test.yaml': FAILING });
    const r = cli(['test', '--format', 'github'], root);
    expect(r.code).toBe(1);
    const lines = r.out.trim().split('\n');
    expect(lines).toContain(
      '::error file=tests/wishful.automode-test.yaml,line=4,col=5,title=automode test%3A push is allowed::Bash: git push origin main%0Aexpected allow, got ask by Bash(git push *)%0Adeciding rule: Bash(git push *)  .claude/settings.json:1:51 (projectSettings)',
    );
    expect(
      lines.some((l) =>
        l.startsWith(
          '::notice file=tests/wishful.automode-test.yaml,line=7,col=5,title=automode test (skipped)%3A allow%3A terraform plan::',
        ),
      ),
    ).toBe(true);
    expect(lines.at(-1)).toBe('automode test: 4 passed, 1 failed, 1 skipped');
  });

  it('a failing pattern rule example fails with the file and line of the example', async () => {
    await writeTree(root, {
      'team.automode-rules.yaml': readFileSync(path.join(root, 'team.automode-rules.yaml'), 'utf8').replace(
        'not_match: [git push]',
        'not_match: [git push -f now]',
      ),
    });
    const r = cli(['test'], root);
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'FAIL  team.automode-rules.yaml:6:51  Force push does not match "git push -f now"',
    );
    expect(r.out).toContain('/^git push (-f|--force)( |$)/ matches "git push -f now"');
  });

  it('--coverage lists every rule with its counts and the rules no case reached; --min-coverage fails below', () => {
    const r = cli(['test', '--coverage'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('coverage  2/3 rules reached (66.7%)');
    expect(r.out).toMatch(/ {8}1 {8}1 {2}allow {5}Bash\(npm test\) {2}\.claude\/settings\.json:1:26/);
    expect(r.out).toMatch(/not reached by any case \(1\)\n {2}ask {7}Bash\(git push \*\)/);
    const low = cli(['test', '--min-coverage', '80'], root);
    expect(low.code).toBe(1);
    expect(low.err).toContain('coverage 66.7% is below --min-coverage 80%');
    expect(cli(['test', '--min-coverage', '60'], root).code).toBe(0);
    const json = JSON.parse(cli(['test', '--json', '--coverage'], root).out);
    expect(json.coverage).toMatchObject({ total: 3, reached: 2, percent: 66.7 });
    const junit = cli(['test', '--format', 'junit', '--coverage'], root);
    expect(junit.out).not.toContain('coverage');
    expect(junit.err).toContain('coverage  2/3 rules reached');
  });

  it('never reads the user settings of the machine it runs on', async () => {
    await writeTree(root, { 'home/.claude/settings.json': { permissions: { deny: ['Bash(npm test)'] } } });
    const home = { HOME: path.join(root, 'home') };
    expect(cli(['classify', 'npm test'], root, home).out).toMatch(/^deny/);
    expect(cli(['test'], root, home).code).toBe(0);
  });

  it('exits 2 on a configuration error: a broken test file, missing settings, or no test files at all', async () => {
    await writeTree(root, {
      'tests/bad.automode-test.yaml': 'settings: ..\ncases:\n  - command: ls\n    expect: sure\n',
    });
    const bad = cli(['test'], root);
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('ERROR tests/bad.automode-test.yaml:4:13  cases.0.expect:');
    expect(bad.out.trim().split('\n').at(-1)).toBe('4 passed, 0 failed, 0 skipped, 1 error');
    const junit = cli(['test', '--format', 'junit'], root);
    expect(junit.code).toBe(2);
    expect(junit.out).toContain('<error message="cases.0.expect:');
    await writeTree(root, { 'tests/bad.automode-test.yaml': 'settings: ../missing.json\ncases: []\n' });
    expect(cli(['test', 'tests/bad.automode-test.yaml'], root).out).toMatch(
      /settings: .*missing\.json: not found/,
    );
    const none = cli(['test', 'nothing/**/*.yaml'], root);
    expect(none.code).toBe(2);
    expect(none.err).toContain('no test files match nothing/**/*.yaml');
    const noneJson = cli(['test', '--json', 'nothing/**/*.yaml'], root);
    expect(noneJson.code).toBe(2);
    expect(JSON.parse(noneJson.out)).toMatchObject({
      summary: { passed: 0, failed: 0, skipped: 0, errors: 1 },
      suites: [],
      unmatched: ['nothing/**/*.yaml'],
      error: expect.stringContaining('no test files match nothing/**/*.yaml'),
    });
    expect(cli(['test', '--min-coverage', '120'], root).code).toBe(2);
    expect(cli(['test', '--format', 'tap'], root).code).toBe(2);
  });

  it('reads JSON test files and folders given on the command line', async () => {
    await writeTree(root, {
      'more/extra.automode-test.json': {
        settings: '..',
        cases: [{ tool: 'Read', input: { file_path: 'README.md' }, expect: 'allow' }],
      },
    });
    const r = cli(['test', 'more', '--verbose'], root);
    expect(r.code).toBe(0);
    expect(r.out).toContain('PASS  more/extra.automode-test.json:4:5  allow: Read {"file_path":"README.md"}');
    expect(r.out).toContain('3 passed, 0 failed, 0 skipped');
  });
});
