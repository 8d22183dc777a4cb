import { describeCall } from './call.js';
import { describeRule, displayLocation, displayPath } from './display.js';
import type { CaseResult, SuiteResult } from './results.js';
import { summarize } from './results.js';

/** JUnit XML as CI systems read it: a testsuite per test file, a testcase per case and example. */
export function renderJunit(suites: readonly SuiteResult[], cwd: string): string {
  const total = summarize(suites);
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const time = (list: readonly CaseResult[]) => list.reduce((sum, r) => sum + r.durationMs, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="automode" tests="${total.passed + total.failed + total.skipped + total.errors}" failures="${total.failed}" errors="${total.errors}" skipped="${total.skipped}" time="${seconds(time(suites.flatMap((s) => s.cases)))}">`,
  ];
  for (const suite of suites) {
    const s = summarize([suite]);
    const file = displayPath(suite.file, cwd);
    const errors = suite.problems.length > 0 ? 1 : 0;
    lines.push(
      `  <testsuite name="${attr(suite.name)}" file="${attr(file)}" tests="${suite.cases.length + errors}" failures="${s.failed}" errors="${errors}" skipped="${s.skipped}" time="${seconds(time(suite.cases))}">`,
    );
    if (errors) {
      const text = suite.problems.map((p) => `${displayLocation(p, cwd)} ${p.message}`.trim()).join('\n');
      lines.push(
        `    <testcase name="configuration" classname="${attr(file)}" file="${attr(file)}">`,
        `      <error message="${attr(suite.problems[0]!.message)}" type="configuration">${text_(text)}</error>`,
        '    </testcase>',
      );
    }
    for (const r of suite.cases) lines.push(...testcase(r, file, cwd));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n');
}

function testcase(r: CaseResult, classname: string, cwd: string): string[] {
  const where = r.line === undefined ? '' : ` line="${r.line}"`;
  const open = `    <testcase name="${attr(r.name)}" classname="${attr(classname)}" file="${attr(displayPath(r.file, cwd))}"${where} time="${(r.durationMs / 1000).toFixed(3)}"`;
  if (r.status === 'passed') return [`${open}/>`];
  const body =
    r.status === 'skipped'
      ? `      <skipped message="${attr(r.message ?? '')}"/>`
      : `      <failure message="${attr(r.message ?? 'failed')}" type="${r.kind === 'case' ? 'decision' : 'example'}">${text_(details(r, cwd))}</failure>`;
  return [`${open}>`, body, '    </testcase>'];
}

function details(r: CaseResult, cwd: string): string {
  const lines = [`at ${displayLocation(r, cwd)}`];
  if (r.kind === 'example') return [...lines, r.message ?? ''].join('\n');
  lines.push(`call: ${r.call.tool}: ${describeCall(r.call)}`);
  lines.push(`expected: ${r.expected.decision}${r.expected.rule ? ` by ${r.expected.rule}` : ''}`);
  if (r.actual) {
    const rule = r.actual.rule ? ` by ${describeRule(r.actual.rule, cwd)}` : ` (${r.actual.by})`;
    lines.push(`actual: ${r.actual.decision}${rule}`, `reason: ${r.actual.reason}`);
  } else if (r.message) {
    lines.push(r.message);
  }
  return lines.join('\n');
}

/** XML 1.0 cannot carry most control characters at all, even escaped. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');
}

function attr(text: string): string {
  return clean(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

function text_(text: string): string {
  return clean(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
