import { type Grammar, type GrammarSpec, grammar, lookupLong } from '../options.js';
import { type ReadOnlySpec, readOnly } from '../program.js';

/**
 * Several option lists read as one, the first that names an option winning: a command reads its own options
 * before it hands the rest to the revision and diff parsers (`cherry-pick -m` is its mainline, not `-m`).
 */
export function joined(...specs: readonly GrammarSpec[]): GrammarSpec {
  const out = { flags: '', values: '', optional: '' };
  const long: string[] = [];
  const whole: string[] = [];
  const fixed: string[] = [];
  const named = new Set<string>();
  let numeric = false;
  for (const [index, spec] of specs.entries()) {
    if (spec.whole) whole.push(spec.whole);
    if (spec.fixed) fixed.push(spec.fixed);
    for (const kind of ['flags', 'values', 'optional'] as const) {
      for (const c of spec[kind] ?? '') {
        if (!`${out.flags}${out.values}${out.optional}`.includes(c)) out[kind] += c;
      }
    }
    for (const entry of (spec.long ?? '').split(/\s+/).filter(Boolean)) {
      const name = /^[^=?/]+/.exec(entry)![0];
      if (named.has(name)) continue;
      named.add(name);
      long.push(entry);
      if (index > 0) whole.push(name);
    }
    numeric ||= spec.numeric ?? false;
  }
  return {
    ...out,
    long: long.join(' '),
    ...(numeric ? { numeric } : {}),
    ...(whole.length ? { whole: whole.join(' ') } : {}),
    ...(fixed.length ? { fixed: fixed.join(' ') } : {}),
  };
}

/** An option list without the long options named. */
export function without(spec: GrammarSpec, names: string): GrammarSpec {
  const drop = new Set(names.split(' '));
  const long = (spec.long ?? '')
    .split(/\s+/)
    .filter((entry) => !drop.has(/^[^=?/]+/.exec(entry)![0]))
    .join(' ');
  return { ...spec, long };
}

/** git's parse-options grammar: `--no-NAME` negates, unique prefixes abbreviate unless the command passes
 * unknown options on (log, show: the revision parser that reads them takes no abbreviations). */
export function gitGrammar(
  spec: GrammarSpec,
  more: Pick<GrammarSpec, 'abbreviate' | 'implies'> = {},
): Grammar {
  return grammar({ ...spec, negatable: true, ...more });
}

/**
 * A read-only allow-list written as the user writes the options (`--stat -w --no-color`), each resolved
 * through the grammar to the name it is reported under. An option the grammar does not know is a mistake in
 * the spec, so it throws when the module loads.
 */
export function allow(
  g: Grammar,
  options: string,
  operands: ReadOnlySpec['operands'] = 'files',
  more: Pick<ReadOnlySpec, 'maxOperands' | 'check' | 'why'> = {},
): ReadOnlySpec {
  const names: string[] = [];
  for (const option of options.split(/\s+/).filter(Boolean)) {
    names.push(reportedName(g, option));
  }
  return readOnly(names.join(' '), operands, more);
}

function reportedName(g: Grammar, option: string): string {
  if (option.startsWith('--')) {
    const name = option.slice(2);
    const exact = g.long.get(name) ?? (name.startsWith('no-') ? lookupLong(g, name) : undefined);
    if (exact) return exact.name;
  } else if (option === '-#' && g.numeric) {
    return option;
  } else if (option.length === 2 && `${g.flags}${g.values}${g.optional}`.includes(option[1]!)) {
    return option[1]!;
  }
  throw new Error(`the grammar has no option ${option}`);
}
