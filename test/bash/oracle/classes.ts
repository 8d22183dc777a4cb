import type { LineReport } from './run.js';
import { PATH_DIRS } from './sandbox.js';

/**
 * Groups disagreeing lines by their likely root cause, for the report: the first rule whose test holds names the
 * class. The rules look at the line and at what bash ran; they are a triage aid, not a verdict.
 */
const RULES: { name: string; test: (r: LineReport, ran: string[][]) => boolean }[] = [
  {
    name: 'a line that is only `\\` after a newline joins two commands in the analysis, not in bash',
    test: (r) => /\n\\\n/.test(r.line) || /^\\\n/.test(r.line),
  },
  {
    name: 'backslash before CR-LF: bash reads an escaped CR and ends the command at LF',
    test: (r) => r.line.includes('\\\r\n'),
  },
  {
    name: '`$"..."` (locale translation) read as a literal `$`',
    test: (r, ran) => r.line.includes('$"') && r.analysis.some((a) => a.includes('"$')) && ran.length > 0,
  },
  {
    name: 'a builtin evaluates an array subscript (`test -v`, `[ -v ]`, `printf -v`, `read`, `declare`, `unset`, `let`, ...): the `$(...)` in it runs',
    test: (r) => /\[\$\(|\[\\\$\(/.test(r.line) && /'[a-z]\[\$\(|"[a-z]\[\\\$\(|[a-z]\[\$\(/.test(r.line),
  },
  {
    name: 'alias expanded by bash (later line, or after an alias ending in a blank) not composed by the analysis',
    test: (r) => r.line.includes('alias '),
  },
  {
    name: 'program found through changed PATH / `hash -p` / a function or builtin state: the analysis names a standard program',
    test: (r) =>
      /hash -p|PATH|enable -n/.test(r.line) ||
      r.disagreements.some(
        (d) => d.path !== undefined && !PATH_DIRS.some((p) => d.path!.startsWith(`${p}/`)),
      ),
  },
  {
    name: 'CR is an ordinary word character in bash; the analysis treats it as a blank',
    test: (r) => r.line.includes('\r'),
  },
  {
    name: "`$'\\0'`: bash cuts a string at NUL, the analysis keeps the NUL",
    test: (r) => /\$'[^']*\\0/.test(r.line) || /\\x00|\\000/.test(r.line),
  },
  {
    name: 'here-doc body line ending in `\\` (bash joins it with the delimiter line, so the body runs to the end): the commands after `;` on the `<<EOF` line become arguments',
    test: (r) => /<<-?\s*'?EOF'?[^\n]*;/.test(r.line),
  },
  {
    name: '`time` after `|` is the program /usr/bin/time, not the keyword: the analysis drops it',
    test: (r) => r.disagreements.some((d) => d.ran[0] === 'time'),
  },
  {
    name: 'HOME changed on the line: `~` expands to the new value',
    test: (r) => /HOME/.test(r.line) && /~/.test(r.line),
  },
  {
    name: 'word with a subscript split in two (`unset a[2]` → `unset a [2]`)',
    test: (r) => r.analysis.some((a) => /","\[[^"]*\]"/.test(a)),
  },
  { name: '`jobs -x` runs its arguments as a command', test: (r) => /\bjobs\s+-x/.test(r.line) },
  {
    name: 'words after a backslash-newline kept literal or split (`[[ $x ]]`, `` `cmd` ``, `r""m`): bash expands them',
    test: (r) => r.line.includes('\\\n'),
  },
  { name: 'function, trap or eval body', test: (r) => /\b(trap|eval)\b|\(\)\s*\{|function /.test(r.line) },
];

export const OTHER = 'other';

export function classOf(report: LineReport): string {
  const ran = report.disagreements.map((d) => d.ran);
  for (const rule of RULES) if (rule.test(report, ran)) return rule.name;
  return OTHER;
}

/** Classes with their lines, largest first. */
export function groupByClass(reports: LineReport[]): { name: string; reports: LineReport[] }[] {
  const groups = new Map<string, LineReport[]>();
  for (const r of reports) {
    const name = classOf(r);
    const list = groups.get(name);
    if (list) list.push(r);
    else groups.set(name, [r]);
  }
  return [...groups]
    .map(([name, list]) => ({ name, reports: list }))
    .sort((a, b) => b.reports.length - a.reports.length);
}
