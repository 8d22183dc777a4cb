import { createColors } from 'picocolors';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/testing/diff.js';
import { renderDiffMarkdown, renderDiffText } from '../../src/testing/report-diff.js';
import { annotation, renderGithub } from '../../src/testing/report-github.js';
import { renderJunit } from '../../src/testing/report-junit.js';
import type { SuiteResult } from '../../src/testing/results.js';

const plain = createColors(false);

const suite: SuiteResult = {
  file: '/repo/tests/a.automode-test.yaml',
  name: 'a <b> & "c"',
  files: [],
  problems: [],
  warnings: [],
  rules: [],
  cases: [
    {
      kind: 'case',
      file: '/repo/tests/a.automode-test.yaml',
      line: 3,
      column: 5,
      name: 'odd \u0007 name',
      status: 'failed',
      message: 'expected allow, got ask by Bash(x <y>)',
      call: { tool: 'Bash', input: { command: 'echo "a" && x\ny' } },
      expected: { decision: 'allow' },
      actual: {
        decision: 'ask',
        by: 'rule',
        reason: 'asked by Bash(x <y>)',
        rule: { text: 'Bash(x <y>)', behavior: 'ask', source: 'projectSettings', index: 0 },
      },
      durationMs: 1.5,
    },
  ],
};

describe('reports', () => {
  it('JUnit XML escapes attributes and text, and replaces characters XML cannot carry', () => {
    const xml = renderJunit([suite], '/repo');
    expect(xml).toContain(
      '<testsuite name="a &lt;b&gt; &amp; &quot;c&quot;" file="tests/a.automode-test.yaml"',
    );
    expect(xml).toContain('<testcase name="odd \uFFFD name"');
    expect(xml).toContain('<failure message="expected allow, got ask by Bash(x &lt;y&gt;)" type="decision">');
    expect(xml).toContain('call: Bash: echo "a" &amp;&amp; x ⏎ y');
    expect(xml).toContain('time="0.002"');
  });

  it('GitHub annotations escape data and properties', () => {
    expect(annotation('error', { file: '/repo/a,b:c.yaml', line: 2 }, 'x: y, z', '50%\nmore', '/repo')).toBe(
      '::error file=a%2Cb%3Ac.yaml,line=2,title=x%3A y%2C z::50%25%0Amore',
    );
    expect(renderGithub([suite], '/repo').split('\n')).toEqual([
      '::error file=tests/a.automode-test.yaml,line=3,col=5,title=automode test%3A odd \u0007 name::Bash: echo "a" && x ⏎ y%0Aexpected allow, got ask by Bash(x <y>)%0Adeciding rule: Bash(x <y>)  projectSettings',
      'automode test: 0 passed, 1 failed, 0 skipped',
    ]);
  });

  const change = (
    command: string,
    base: 'allow' | 'ask' | 'deny',
    head: 'allow' | 'ask' | 'deny',
  ): Change => ({
    id: command,
    file: 'c.jsonl',
    line: 1,
    call: { tool: 'Bash', input: { command } },
    base: { decision: base, by: 'no-rule', reason: 'r' },
    head: {
      decision: head,
      by: 'rule',
      reason: 'r',
      rule: {
        text: 'Bash(*|*)',
        behavior: head,
        source: 'flagSettings',
        index: 0,
        file: '/repo/new.json',
        line: 2,
        column: 3,
      },
    },
    kind: head === 'allow' ? 'newly-allowed' : 'narrowed',
  });

  it('markdown keeps pipes and backticks inside table cells', () => {
    const md = renderDiffMarkdown(
      {
        base: 'main (git)',
        head: '.',
        changes: [change('a | b `c`', 'ask', 'allow'), change('rm x', 'allow', 'deny')],
        summary: { calls: 3, changed: 2, newlyAllowed: 1, widened: 1, narrowed: 1, leftToModel: 0 },
      },
      '/repo',
    );
    expect(md).toContain('| `` a \\| b `c` `` | ask | **allow** | `Bash(*\\|*)` new.json:2:3 | no-rule |');
    expect(md).toContain('<details><summary>Stricter (1)</summary>');
    const text = renderDiffText(
      {
        base: 'main (git)',
        head: '.',
        changes: [change('ls', 'ask', 'allow')],
        summary: { calls: 1, changed: 1, newlyAllowed: 1, widened: 1, narrowed: 0, leftToModel: 0 },
      },
      '/repo',
      plain,
    );
    expect(text).toContain(
      '  ask → allow  Bash: ls  ls\n      base  ask   (no-rule: r)\n      head  allow by Bash(*|*)  new.json:2:3 (flagSettings)',
    );
  });
});
