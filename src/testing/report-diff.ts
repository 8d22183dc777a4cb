import type { Colors } from '../shared/index.js';
import { describeCall } from './call.js';
import type { Change, ChangeKind, DiffSummary, DiffVerdict } from './diff.js';
import { describeRule, displayLocation } from './display.js';

export interface DiffReport {
  base: string;
  head: string;
  changes: Change[];
  summary: DiffSummary;
}

const HEADINGS: Record<ChangeKind, string> = {
  'newly-allowed': 'newly allowed',
  widened: 'more permissive',
  narrowed: 'stricter',
};

const KINDS: readonly ChangeKind[] = ['newly-allowed', 'widened', 'narrowed'];

export function summaryText(s: DiffSummary): string {
  const unchanged = s.calls - s.changed;
  const model = s.leftToModel > 0 ? `; ${s.leftToModel} left to the model, not judged` : '';
  return `${s.calls} calls: ${s.newlyAllowed} newly allowed, ${s.widened - s.newlyAllowed} more permissive, ${s.narrowed} stricter, ${unchanged} unchanged${model}`;
}

export function renderDiffText(r: DiffReport, cwd: string, c: Colors): string {
  const lines = [`${c.bold('automode diff')}  base ${r.base}  →  head ${r.head}`, summaryText(r.summary)];
  for (const kind of KINDS) {
    const group = r.changes.filter((x) => x.kind === kind);
    if (group.length === 0) continue;
    const heading = `${HEADINGS[kind]} (${group.length})`;
    lines.push('', kind === 'narrowed' ? c.bold(heading) : c.red(c.bold(heading)));
    for (const x of group) {
      lines.push(
        `  ${x.base.decision} → ${x.head.decision}  ${x.call.tool}: ${describeCall(x.call)}  ${c.dim(x.id)}`,
      );
      lines.push(`      base  ${side(x.base, cwd)}`);
      lines.push(`      head  ${side(x.head, cwd)}`);
    }
  }
  return lines.join('\n');
}

function side(v: DiffVerdict, cwd: string): string {
  const by = v.rule ? `by ${describeRule(v.rule, cwd)}` : `(${v.by}: ${v.reason})`;
  return `${v.decision.padEnd(5)} ${by}${v.undecided ? ' [left to the model]' : ''}`;
}

/** Markdown for a pull request comment: a table per kind of change, the stricter ones folded. */
export function renderDiffMarkdown(r: DiffReport, cwd: string): string {
  const s = r.summary;
  const title =
    s.widened > 0
      ? `### automode diff: ${s.newlyAllowed} newly allowed, ${s.widened - s.newlyAllowed} more permissive`
      : '### automode diff: nothing becomes more permissive';
  const lines = [title, '', `Base ${code(r.base)}, head ${code(r.head)}. ${summaryText(s)}.`];
  if (r.changes.length === 0) return [...lines, '', 'No decision changes.'].join('\n');
  for (const kind of KINDS) {
    const group = r.changes.filter((x) => x.kind === kind);
    if (group.length === 0) continue;
    const heading = `${HEADINGS[kind][0]!.toUpperCase()}${HEADINGS[kind].slice(1)} (${group.length})`;
    const table = [
      '| Call | Before | After | Deciding rule after | Deciding rule before |',
      '| --- | --- | --- | --- | --- |',
      ...group.map(
        (x) =>
          `| ${code(cell(`${x.call.tool === 'Bash' ? '' : `${x.call.tool} `}${describeCall(x.call)}`))} | ${x.base.decision} | **${x.head.decision}** | ${ruleCell(x.head, cwd)} | ${ruleCell(x.base, cwd)} |`,
      ),
    ];
    if (kind === 'narrowed')
      lines.push('', `<details><summary>${heading}</summary>`, '', ...table, '', '</details>');
    else lines.push('', `#### ${heading}`, '', ...table);
  }
  return lines.join('\n');
}

function ruleCell(v: DiffVerdict, cwd: string): string {
  if (!v.rule) return escapeMarkdown(`${v.by}${v.undecided ? ', left to the model' : ''}`);
  const name = v.rule.label ? `${v.rule.label}: ${v.rule.text}` : v.rule.text;
  const where = v.rule.file ? ` ${escapeMarkdown(displayLocation(v.rule, cwd))}` : ` ${v.rule.source}`;
  return `${code(cell(name))}${where}`;
}

/** One table cell: on one line and at most 160 characters. */
function cell(text: string): string {
  const flat = text.replace(/\r?\n/g, ' ⏎ ');
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

/** Inline code that survives backticks and pipes inside a table. */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[|\\`*_<>[\]]/g, (ch) => `\\${ch}`);
}
