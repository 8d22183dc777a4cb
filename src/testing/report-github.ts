import { workflowCommand } from '../shared/index.js';
import { describeCall } from './call.js';
import { describeRule, displayPath } from './display.js';
import type { Located, SuiteResult } from './results.js';
import { summarize, summaryLine } from './results.js';

type Level = 'error' | 'warning' | 'notice';

/** GitHub Actions workflow commands: an annotation per failure, problem and skip, then the tally. */
export function renderGithub(suites: readonly SuiteResult[], cwd: string): string {
  const lines: string[] = [];
  for (const suite of suites) {
    for (const p of suite.problems)
      lines.push(annotation('error', p, 'automode test: configuration', p.message, cwd));
    for (const w of suite.warnings)
      lines.push(annotation('warning', w, 'automode test: configuration', w.message, cwd));
    for (const r of suite.cases) {
      if (r.status === 'passed') continue;
      const level = r.status === 'failed' ? 'error' : 'notice';
      const title = `automode test${r.status === 'skipped' ? ' (skipped)' : ''}: ${r.name}`;
      let message = r.message ?? '';
      if (r.kind === 'case') {
        message = `${r.call.tool}: ${describeCall(r.call)}\n${message}`;
        if (r.actual?.rule) message += `\ndeciding rule: ${describeRule(r.actual.rule, cwd)}`;
      }
      lines.push(annotation(level, r, title, message, cwd));
    }
  }
  lines.push(`automode test: ${summaryLine(summarize(suites))}`);
  return lines.join('\n');
}

export function annotation(
  level: Level,
  where: Partial<Located>,
  title: string,
  message: string,
  cwd: string,
): string {
  const props: [string, string | number][] = [];
  if (where.file !== undefined) props.push(['file', displayPath(where.file, cwd)]);
  if (where.line !== undefined) props.push(['line', where.line]);
  if (where.column !== undefined) props.push(['col', where.column]);
  props.push(['title', title]);
  return workflowCommand(level, props, message);
}
