import type { NormalizedOperands } from '../program.js';

/** `~2`, `^`, `^{tree}`, `@{1}` after a revision. */
const REVISION_SUFFIX = /(~\d*|\^\d*|\^\{[^}]*\}|@\{[^}]*\})+$/;

/**
 * Whether a word may name a revision, as git's ref-name rules allow. `.`, `src/`, `./a`, `*.ts` and `a b`
 * cannot: git reads them as paths whatever exists.
 */
export function mayBeRevision(word: string): boolean {
  if (word === '-' || word === '@' || word.startsWith(':')) return true;
  const base = word.replace(REVISION_SUFFIX, '');
  if (base === '') return word !== '';
  if (!/^[^\s~^:?*[\\\x00-\x1f\x7f]+$/.test(base)) return false;
  if (base.includes('..') || base.includes('//') || base.includes('@{')) return false;
  if (base.endsWith('/') || base.endsWith('.') || base.endsWith('.lock')) return false;
  return base.split('/').every((part) => part !== '' && !part.startsWith('.'));
}

/** Options after which `git checkout`'s operands are not paths: a new branch, an orphan, a detached HEAD. */
const SWITCHING = ['b', 'B', 'orphan', 'd'];

/**
 * `git checkout` discards changes to the paths it is given, with or without `--`: an operand that cannot name a
 * revision (`.`), or any after the first, is a path; a first operand followed by paths is the revision they
 * are taken from (`source`, as `git restore --source` says). A single operand that may be a branch stays as
 * written: git decides by what exists.
 */
export function checkoutOperands(
  operands: readonly string[],
  options: ReadonlySet<string>,
): NormalizedOperands {
  if (SWITCHING.some((name) => options.has(name))) return { operands, options: [] };
  const dashdash = operands.indexOf('--');
  const before = dashdash < 0 ? operands : operands.slice(0, dashdash);
  const after = dashdash < 0 ? [] : operands.slice(dashdash + 1);
  const fromFile = options.has('pathspec-from-file');
  const pathsOnly = options.has('2') || options.has('3');
  if (dashdash >= 0 || fromFile) {
    return before.length > 0
      ? { operands: ['--', ...before.slice(1), ...after], options: ['source'] }
      : { operands: ['--', ...after], options: [] };
  }
  if (before.length === 0) return { operands, options: [] };
  if (pathsOnly || !mayBeRevision(before[0]!)) return { operands: ['--', ...before], options: [] };
  if (before.length === 1) return { operands, options: [] };
  return { operands: ['--', ...before.slice(1)], options: ['source'] };
}

/**
 * `git push origin +main` forces as `--force` does; `git push origin :old` deletes as `--delete` does. The
 * first operand is the repository.
 */
export function pushOperands(operands: readonly string[]): NormalizedOperands {
  const options: string[] = [];
  const refspecs = operands.filter((word) => word !== '--').slice(1);
  if (refspecs.some((word) => word.startsWith('+'))) options.push('f');
  if (refspecs.some((word) => /^\+?:./.test(word))) options.push('d');
  return { operands, options };
}

/**
 * The operand of `git checkout X` (one operand, no `--`, no option that switches) that may name a revision or a
 * path: git decides by what the repository holds. Undefined for any other form.
 */
export function ambiguousCheckout(
  positionals: readonly string[],
  options: ReadonlySet<string>,
): string | undefined {
  if (positionals.length !== 2 || positionals[0] !== 'checkout') return undefined;
  if (SWITCHING.some((name) => options.has(name))) return undefined;
  const operand = positionals[1]!;
  return operand !== '--' && mayBeRevision(operand) ? operand : undefined;
}
