import path from 'node:path';
import type { Colors } from '../shared/index.js';
import { formatLocation } from './locations.js';
import type { CritiqueReport, Finding, FindingSeverity } from './types.js';

/** A path relative to the working folder when it lies inside it. */
export function relativeTo(cwd: string): (file: string) => string {
  return (file) => {
    const relative = path.relative(cwd, file);
    return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
  };
}

/** Findings grouped by file, in file order, then a summary line. */
export function renderText(report: CritiqueReport, c: Colors, cwd: string): string {
  const rel = relativeTo(cwd);
  const paint: Record<FindingSeverity, (s: string) => string> = {
    error: c.red,
    warning: c.yellow,
    note: c.cyan,
  };
  const groups = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const key = f.location.file ? rel(f.location.file) : f.location.source;
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  const lines: string[] = [];
  for (const [file, findings] of groups) {
    lines.push(c.underline(file));
    for (const f of findings) {
      const at = f.location.line === undefined ? '' : `${f.location.line}:${f.location.column ?? 1}`;
      lines.push(
        `  ${c.dim(at.padEnd(7))} ${paint[f.severity](f.severity.padEnd(7))} ${f.message}  ${c.dim(f.code)}`,
      );
      const pad = ' '.repeat(18);
      if (f.witness) {
        const why = f.witness.explanation ? c.dim(` (${f.witness.explanation})`) : '';
        lines.push(`${pad}${c.bold('witness')} ${JSON.stringify(f.witness.value)}${why}`);
      }
      for (const r of f.related) {
        lines.push(`${pad}${c.bold('related')} ${formatLocation(r, rel)} ${c.dim(r.message)}`);
      }
      if (f.fix) lines.push(`${pad}${c.bold('fix')}     ${f.fix}`);
      if (f.partial) lines.push(`${pad}${c.bold('partial')} ${c.dim(f.partial)}`);
    }
    lines.push('');
  }
  const everyday = everydayLine(report);
  if (everyday) lines.push(everyday);
  lines.push(summaryLine(report, c));
  return lines.join('\n');
}

/** The configuration-wide observation: everyday commands that still ask, with a few examples. */
export function everydayLine(report: CritiqueReport): string | undefined {
  const e = report.summary.everyday;
  if (!e || e.asked === 0) return undefined;
  const shown = e.commands.slice(0, 5).map((x) => JSON.stringify(x.command));
  const more = e.asked > shown.length ? `, and ${e.asked - shown.length} more` : '';
  return `everyday commands: ${e.asked} of ${e.total} still ask or are denied (${shown.join(', ')}${more}); allow the exact commands your project runs, e.g. Bash(npm test)`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function summaryLine(report: CritiqueReport, c: Colors): string {
  const { errors, warnings, notes, rules, proseEntries } = report.summary;
  const files = report.files.filter((f) => f.exists).length;
  const counts = [
    errors ? c.red(plural(errors, 'error')) : plural(0, 'error'),
    warnings ? c.yellow(plural(warnings, 'warning')) : plural(0, 'warning'),
    plural(notes, 'note'),
  ].join(', ');
  const review =
    report.review.status === 'done'
      ? `model review by ${report.review.model ?? 'the model'}`
      : report.review.status === 'failed'
        ? `model review failed: ${report.review.reason ?? 'unknown reason'}`
        : `model review skipped: ${report.review.reason ?? 'not asked for'}`;
  return `${counts} in ${plural(files, 'file')} (${plural(rules, 'rule')}, ${plural(proseEntries, 'auto-mode entry').replace('entrys', 'entries')}; static analysis ${report.timings.staticMs} ms; ${review})`;
}
