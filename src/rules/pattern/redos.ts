import { analyse, type Report } from 'scslre';

const REPEAT = 24;

/**
 * Why a regex (no flags) can backtrack super-linearly, with an attack string, or undefined when it cannot.
 * Only backtracking between quantifiers counts; the quadratic cost of retrying an unanchored regex at every
 * position (scslre's "Move" reports) is accepted.
 */
export function superLinearReason(source: string): string | undefined {
  let report: Report | undefined;
  try {
    report = analyse({ source, flags: '' }, { reportTypes: { Move: false }, maxReports: 1 }).reports[0];
  } catch (err) {
    return `cannot be checked for super-linear backtracking: ${(err as Error).message}`;
  }
  if (!report) return undefined;
  const { pick, set } = report.character;
  const rejector = ['!', '#', '\u0000', 'Z'].find((c) => !set.has(c.codePointAt(0)!)) ?? '';
  const attack = pick.repeat(REPEAT) + rejector;
  const cause = describe(report, pick);
  const degree = report.exponential ? 'exponential' : 'polynomial';
  const fixed = report.fix();
  const hint = fixed ? `; an equivalent safe form: /${fixed.source}/` : '';
  return `super-linear (${degree}) backtracking: ${cause}; attack string ${JSON.stringify(attack)}${hint}`;
}

function describe(report: Report, pick: string): string {
  switch (report.type) {
    case 'Self':
      return `${report.quant.raw} repeats inside ${report.parentQuant.raw}`;
    case 'Trade':
      return `${report.startQuant.raw} and ${report.endQuant.raw} can both match ${JSON.stringify(pick)}`;
    case 'Move':
      return `${report.quant.raw} is retried at every position`;
  }
}
