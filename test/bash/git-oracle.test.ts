import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_GRAMMARS } from '../../src/bash/programs/git/grammars.js';
import { GIT_SPEC } from '../../src/bash/programs/git/spec.js';
import { lookupLong } from '../../src/bash/programs/options.js';
import type { SubcommandSpec } from '../../src/bash/programs/program.js';
import { grammarStrings, HELP_COMMANDS } from '../support/git-grammars.js';
import {
  fixedOptions,
  type GitRun,
  gitInstalled,
  parseHelp,
  runGits,
  scratchRepository,
} from '../support/git-help.js';

/** The spec level for `stash drop`. */
function level(name: string): SubcommandSpec | undefined {
  let at: SubcommandSpec | undefined = GIT_SPEC;
  for (const word of name.split(' ')) at = at?.subcommands?.[word];
  return at;
}

/** A generated option list, as the source writes it. */
function source(name: string): string {
  const g = helpGrammar(name);
  const fields = [
    g.flags && `flags: ${JSON.stringify(g.flags)}`,
    g.values && `values: ${JSON.stringify(g.values)}`,
    g.optional && `optional: ${JSON.stringify(g.optional)}`,
    g.long && `long: ${JSON.stringify(g.long)}`,
    g.numeric && 'numeric: true',
    g.fixed && `fixed: ${JSON.stringify(g.fixed)}`,
  ].filter(Boolean);
  return `  ${JSON.stringify(name)}: { ${fields.join(', ')} },`;
}

/** What git prints for a command, read as the spec writes it (`run`: its `--help-all`, when already run). */
function helpGrammar(name: string, run = runGits([[...name.split(' '), '--help-all']], repo())[0]!) {
  const options = parseHelp(run.out);
  return { status: run.status, ...grammarStrings(options, fixedOptions(name, options, repo())) };
}

let scratch: ReturnType<typeof scratchRepository> | undefined;
function repo() {
  scratch ??= scratchRepository();
  return scratch;
}

/** `update-index --cacheinfo` takes its three values in the next words, through a callback: `=x` is refused. */
const CALLBACK_VALUES = new Set(['update-index --cacheinfo']);

const installed = gitInstalled();
const out = process.env.GIT_GRAMMARS_OUT;

describe.runIf(out && installed)('git option lists (written)', () => {
  it('writes the option lists git prints', { timeout: 180_000 }, () => {
    const header = [
      "import type { GrammarSpec } from '../options.js';",
      '',
      '/**',
      " * git's option lists as `git <command> --help-all` prints them (git 2.39), nested subcommands written",
      ' * `stash drop`. Regenerate with `GIT_GRAMMARS_OUT=src/bash/programs/git/grammars.ts npx vitest run',
      ' * test/bash/git-oracle.test.ts`; the oracle test checks them against the installed git.',
      ' */',
      'export const HELP_GRAMMARS: Readonly<Record<string, GrammarSpec>> = {',
    ];
    writeFileSync(out!, [...header, ...HELP_COMMANDS.map(source), '};', ''].join('\n'));
  });
});

describe.skipIf(!installed)('git is its own oracle for its option grammar', () => {
  it('every command listed prints its options (exit 129) and its lists equal the spec', {
    timeout: 180_000,
  }, () => {
    const differ: string[] = [];
    const helps = runGits(
      HELP_COMMANDS.map((name) => [...name.split(' '), '--help-all']),
      repo(),
    );
    for (const [i, name] of HELP_COMMANDS.entries()) {
      const g = helpGrammar(name, helps[i]);
      expect(g.status, name).toBe(129);
      const spec = HELP_GRAMMARS[name] ?? {};
      const have = { flags: spec.flags ?? '', values: spec.values ?? '', optional: spec.optional ?? '' };
      if (have.flags !== g.flags || have.values !== g.values || have.optional !== g.optional)
        differ.push(`${name}: short options ${JSON.stringify(have)} != ${JSON.stringify(g)}`);
      if ((spec.long ?? '') !== g.long) differ.push(`${name}: long options ${spec.long} != ${g.long}`);
      if ((spec.numeric ?? false) !== g.numeric) differ.push(`${name}: -NUM`);
      if ((spec.fixed ?? '') !== g.fixed) differ.push(`${name}: not negatable ${spec.fixed} != ${g.fixed}`);
    }
    expect(differ).toEqual([]);
  });

  it('every option git lists is read by the spec with the same arity', () => {
    const differ: string[] = [];
    const helps = runGits(
      HELP_COMMANDS.map((name) => [...name.split(' '), '-h']),
      repo(),
    );
    for (const [i, name] of HELP_COMMANDS.entries()) {
      const grammar = level(name)?.grammar;
      if (!grammar) {
        differ.push(`${name}: no spec`);
        continue;
      }
      for (const option of parseHelp(helps[i]!.out)) {
        if (option.long) {
          const found = grammar.long.get(option.long);
          if (found?.arity !== option.arity) differ.push(`${name} --${option.long}: ${found?.arity}`);
          else if (option.short && found.name !== option.short)
            differ.push(`${name} --${option.long}: alias`);
        }
        const short = option.short;
        if (short && short !== '#') {
          const kind = grammar.flags.includes(short)
            ? 'flag'
            : grammar.values.includes(short)
              ? 'value'
              : grammar.optional.includes(short)
                ? 'optional'
                : undefined;
          if (kind !== option.arity) differ.push(`${name} -${short}: ${kind}`);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('abbreviates exactly where git does: not where it hands unknown options on', () => {
    const differ: string[] = [];
    const runs = runGits(
      HELP_COMMANDS.map((name) => [...name.split(' '), '--zzzz-not-an-option', '-h']),
      repo(),
    );
    for (const [i, name] of HELP_COMMANDS.entries()) {
      const run = runs[i]!;
      const rejects = /unknown option|invalid option|unknown switch/.test(run.out);
      if (level(name)?.grammar.abbreviate !== rejects) differ.push(name);
    }
    expect(differ).toEqual([]);
  });

  it('resolves abbreviations to the option git resolves them to, or refuses them as git does', {
    timeout: 180_000,
  }, () => {
    const differ: string[] = [];
    const probes: { name: string; prefix: string; found: ReturnType<typeof lookupLong>; args: string[] }[] =
      [];
    for (const name of HELP_COMMANDS) {
      const grammar = level(name)?.grammar;
      if (!grammar?.abbreviate) continue;
      const negations = [...grammar.long.keys()]
        .filter((long) => !long.startsWith('no-') && !grammar.fixed?.has(long) && long.length > 3)
        .map((long) => `no-${long}`);
      for (const long of [...grammar.long.keys(), ...negations]) {
        const prefix = long.slice(0, Math.max(2, long.length - 2));
        if (prefix === long) continue;
        const found = lookupLong(grammar, prefix);
        // A value attached where the option takes one, so that git never takes `-h` for it (a value attached
        // to `--no-` spellings would hide git's negated abbreviations).
        const word = found && found.arity !== 'flag' ? `--${prefix}=x` : `--${prefix}`;
        probes.push({ name, prefix, found, args: [...name.split(' '), word, '-h'] });
      }
    }
    const tried = probes.length;
    const runs: GitRun[] = runGits(
      probes.map((p) => p.args),
      repo(),
    );
    for (const [i, { name, prefix, found }] of probes.entries()) {
      const grammar = level(name)!.grammar;
      const run = runs[i]!;
      const ambiguous = /ambiguous option/.test(run.out);
      const unknown = /unknown option|invalid option/.test(run.out);
      const flag = /option `([^']+)' takes no value/.exec(run.out)?.[1];
      if (ambiguous && found)
        differ.push(`${name} --${prefix}: git finds it ambiguous, the spec reads ${found.name}`);
      else if (!ambiguous && !unknown && !found)
        differ.push(`${name} --${prefix}: git reads it, the spec does not`);
      else if (flag && found && found.arity !== 'flag' && !CALLBACK_VALUES.has(`${name} --${flag}`))
        differ.push(`${name} --${prefix}: git reads the flag ${flag}`);
      else if (flag && found && !flag.startsWith('no-') && grammar.long.get(flag)?.name !== found.name) {
        differ.push(`${name} --${prefix}: git reads ${flag}, the spec ${found.name}`);
      }
    }
    expect(tried).toBeGreaterThan(500);
    expect(differ).toEqual([]);
  });
});
